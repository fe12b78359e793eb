"""The course's own offline copy: a service worker over the course site's pages.

The playground folder copied into a site has its own service worker, registered by the examples'
frames; it serves them and Python offline. The course's pages and the host's ``embed.js`` are
outside its reach (a service worker only sees the pages under its folder), so the plugins put a
second, small one at the site's root: :data:`SCRIPT` on every page with live examples registers
the playground's worker and then :data:`WORKER`, which keeps every file of the course (listed here
at the end of the build).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

ASSETS = Path(__file__).resolve().parent / "assets"
SCRIPT = "autograd-course-offline.js"
WORKER = "autograd-course-sw.js"
PLACEHOLDER = '"__COURSE_MANIFEST__"'
PLAYGROUND_PLACEHOLDER = '"__PLAYGROUND__"'


def course_files(root: Path, playground: str) -> list[str]:
    """The site's files the course worker keeps: all but hidden ones and the playground's own.

    The playground's ``embed.js`` is kept too: the course pages load it, not the frames.
    """
    files = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if not path.is_file() or any(part.startswith(".") for part in relative.split("/")):
            continue
        if relative in (SCRIPT, WORKER):
            continue
        if relative.startswith(f"{playground}/") and relative != f"{playground}/embed.js":
            continue
        files.append(relative)
    return files


def write_course_worker(root, playground: str = "playground") -> dict:
    """Writes :data:`SCRIPT` and :data:`WORKER` into a built site, the worker listing its files.

    Args:
        root: the built site's folder (MkDocs' site_dir, Sphinx's outdir).
        playground: the playground's folder in it.

    Returns:
        The manifest written into the worker: ``{"version", "files", "playground"}``.
    """
    root = Path(root)
    playground = playground.strip("/")
    files = course_files(root, playground)
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + hashlib.sha256((root / name).read_bytes()).digest())
    manifest = {"version": digest.hexdigest()[:16], "files": files, "playground": playground}
    worker = (ASSETS / "course_sw.js").read_text(encoding="utf-8")
    assert PLACEHOLDER in worker, "course_sw.js lost its manifest placeholder"
    (root / WORKER).write_text(worker.replace(PLACEHOLDER, json.dumps(manifest, separators=(",", ":"))),
                               encoding="utf-8")
    script = (ASSETS / "course_offline.js").read_text(encoding="utf-8")
    assert PLAYGROUND_PLACEHOLDER in script, "course_offline.js lost its playground placeholder"
    (root / SCRIPT).write_text(script.replace(PLAYGROUND_PLACEHOLDER, json.dumps(playground)), encoding="utf-8")
    return manifest
