"""The service worker's precache manifest, baked into the built ``sw.js``.

``web/src/offline/sw.js`` holds the string literal ``"__PRECACHE_MANIFEST__"``; the
build replaces it by ``{"version": ..., "files": [...]}``: every file of the
staged site except ``sw.js`` itself and source maps. The version hashes each
file's path and bytes, so any change to the site changes ``sw.js`` too, and
browsers install the new copy.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

SW_NAME = "sw.js"
PLACEHOLDER = "__PRECACHE_MANIFEST__"
# esbuild may print the literal with either quote style.
_PLACEHOLDER_RE = re.compile(r"""(["'])__PRECACHE_MANIFEST__\1""")
VERSION_CHARS = 16


class PrecacheError(RuntimeError):
    """sw.js is missing or does not hold exactly one manifest placeholder."""


def precached_files(site: Path) -> list[str]:
    """Every file a visitor may need, as sorted posix paths relative to ``site``.

    Args:
        site: the staged site folder.

    Returns:
        Paths like ``"index.html"`` or ``"pyodide/pyodide.asm.wasm"``; ``sw.js``
        (the browser fetches it itself) and ``*.map`` (devtools only) are left out.
    """
    files = (p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    return sorted(f for f in files if f != SW_NAME and not f.endswith(".map"))


def manifest(site: Path) -> dict:
    """The manifest of ``site``: ``{"version", "files", "bytes"}``.

    Example::

        >>> manifest(Path("web/dist"))["files"][:2]
        ['build-info.json', 'favicon.svg']
    """
    files = precached_files(site)
    digest = hashlib.sha256()
    total = 0
    for name in files:
        data = (site / name).read_bytes()
        total += len(data)
        digest.update(f"{name}\0{hashlib.sha256(data).hexdigest()}\n".encode())
    return {"version": digest.hexdigest()[:VERSION_CHARS], "files": files, "bytes": total}


def bake(site: Path) -> dict:
    """Writes the manifest of ``site`` into ``site/sw.js``; returns the manifest.

    Raises:
        PrecacheError: ``sw.js`` is missing or has no single placeholder.
    """
    sw = site / SW_NAME
    if not sw.is_file():
        raise PrecacheError(f"{SW_NAME} missing from the bundle (see web/build/bundle.mjs)")
    text = sw.read_text(encoding="utf-8")
    found = len(_PLACEHOLDER_RE.findall(text))
    if found != 1:
        raise PrecacheError(f"{SW_NAME} must contain the literal {PLACEHOLDER!r} once, found {found}")
    info = manifest(site)
    literal = json.dumps({"version": info["version"], "files": info["files"]}, separators=(",", ":"))
    sw.write_text(_PLACEHOLDER_RE.sub(lambda _: literal, text), encoding="utf-8")
    return info
