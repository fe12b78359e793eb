"""Build the static playground into ``web/dist/``.

Steps, each timed on stdout:

1. check the inputs (``web/src/app/main.js``, ``web/src/runtime/worker.js``,
   ``web/public/index.html``, ``web/node_modules``),
2. build the ``autograd_py`` wheel from the working tree into ``wheels/``, with
   Pyodide's bytecode of each module added (``web/build/precompile.mjs``),
3. bundle ``main.js`` and ``worker.js`` with esbuild (``web/build/bundle.mjs``),
4. copy ``web/public/`` verbatim, and ``web/examples/`` into ``examples/``,
5. gather the Pyodide runtime and sha256-checked wheels into ``pyodide/``
   (``web/build/fetch_pyodide.py``),
6. add Pyodide's bytecode of the standard-library modules the start-up imports
   to ``pyodide/python_stdlib.zip`` (``web/build/precompile_stdlib.mjs``),
7. write ``build-info.json``,
8. bake the precache manifest into the service worker ``sw.js``
   (``web/build/precache.py``).

Everything is built in a staging folder beside the output and swapped in at
the end, so a running ``http.server`` never serves a half-built site.

Usage::

    python web/build/build_site.py [--out web/dist] [--src web/src]
        [--public web/public] [--cache-dir DIR] [--no-minify]

Needs ``npm ci --prefix web`` first; ``scripts/serve.sh`` and
``scripts/test.sh`` do all of that.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fetch_pyodide  # noqa: E402  (sibling module, importable without installing)
import precache  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
WEB_DIR = REPO_ROOT / "web"
NODE_MODULES = WEB_DIR / "node_modules"
BUNDLER = Path(__file__).resolve().parent / "bundle.mjs"
PRECOMPILER = Path(__file__).resolve().parent / "precompile.mjs"
STDLIB_PRECOMPILER = Path(__file__).resolve().parent / "precompile_stdlib.mjs"
# Top-level files of the repository a wheel build may read; missing ones are skipped.
PACKAGING_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "MANIFEST.in", "README.md",
                   "LICENSE", "LICENSE.txt", "LICENSE.md")
PACKAGE_DIR = "autograd_py"
# Names the build itself writes at the top of the output.
# Each bundle's name in the site and its entry in web/src/, which is grouped by feature
# (the same table as web/build/bundle.mjs's ENTRIES).
BUNDLES = {"boot.js": "app/boot.js", "main.js": "app/main.js", "worker.js": "runtime/worker.js", "embed.js": "embed/embed.js",
           "embed_frame.js": "embed/embed_frame.js", "shared_worker.js": "runtime/shared_worker.js",
           "shared_port.js": "runtime/shared_port.js", "sw.js": "offline/sw.js"}
GENERATED_NAMES = {*BUNDLES, *(f"{name}.map" for name in BUNDLES), "examples", "pyodide", "wheels",
                   "build-info.json"}
EXAMPLES_DIR = WEB_DIR / "examples"  # course pages that embed the playground, copied to examples/


class BuildError(RuntimeError):
    """A build step failed; the message says what to do about it."""


def rel(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def check_inputs(src_dir: Path, public_dir: Path) -> None:
    """Fail early, naming every missing input, before any slow step runs."""
    problems = [f"{rel(p)} missing" for p in
                (src_dir / BUNDLES["main.js"], src_dir / BUNDLES["worker.js"], public_dir / "index.html")
                if not p.is_file()]
    for package in ("esbuild", "pyodide"):
        if not (NODE_MODULES / package / "package.json").is_file():
            problems.append(f"{rel(NODE_MODULES / package)} missing (run `npm ci --prefix web`)")
    if shutil.which("node") is None:
        problems.append("node not found on PATH")
    if problems:
        raise BuildError("; ".join(problems))


def can_build_without_isolation() -> bool:
    """True when the installed setuptools can build our pyproject offline.

    Build isolation would download setuptools from PyPI on every build; the
    installed one is enough when it is recent (>= 70.1 bundles bdist_wheel).
    """
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    parts = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
    if parts >= (70, 1):
        return True
    try:
        importlib.metadata.version("wheel")
    except importlib.metadata.PackageNotFoundError:
        return False
    return parts >= (68,)


def build_wheel(repo_root: Path, wheels_dir: Path) -> Path:
    """Build the autograd_py wheel from the working tree.

    The sources are copied to a temporary folder first: setuptools keeps a
    ``build/lib`` cache next to the sources that would otherwise carry deleted
    modules into the wheel, and the copy leaves the shared work tree untouched.

    Returns:
        Path of the wheel inside ``wheels_dir``.
    """
    with tempfile.TemporaryDirectory(prefix="autograd-wheel-") as tmp:
        source = Path(tmp) / "src"
        source.mkdir()
        for name in PACKAGING_FILES:
            if (repo_root / name).is_file():
                shutil.copy2(repo_root / name, source / name)
        shutil.copytree(repo_root / PACKAGE_DIR, source / PACKAGE_DIR,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        built = Path(tmp) / "wheels"
        offline = ["--no-build-isolation"] if can_build_without_isolation() else []
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
               "-q", *offline, "-w", str(built), str(source)]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            raise BuildError(f"wheel build failed:\n{result.stdout}{result.stderr}")
        wheels = sorted(built.glob("autograd_py-*.whl"))
        if len(wheels) != 1:
            raise BuildError(f"expected one autograd_py wheel, pip produced {wheels}")
        wheels_dir.mkdir(parents=True, exist_ok=True)
        return Path(shutil.move(str(wheels[0]), wheels_dir / wheels[0].name))


def precompile(wheel: Path) -> Path:
    """Adds the bytecode of web/node_modules/pyodide's Python to ``wheel`` (precompile.mjs).

    The browser then imports autograd_py without compiling it. The bytecode is
    only usable by the same Python, so that Pyodide must be the site's.
    """
    package = json.loads((NODE_MODULES / "pyodide" / "package.json").read_text(encoding="utf-8"))
    if package["version"] != fetch_pyodide.PYODIDE_VERSION:
        raise BuildError(f"web/node_modules has pyodide {package['version']}, the site uses "
                         f"{fetch_pyodide.PYODIDE_VERSION} (run `npm ci --prefix web`)")
    result = subprocess.run(["node", str(PRECOMPILER), str(wheel)], capture_output=True, text=True,
                            cwd=WEB_DIR)
    if result.returncode != 0:
        raise BuildError(f"precompiling the wheel failed:\n{result.stdout}{result.stderr}")
    return wheel


def precompile_stdlib(pyodide_dir: Path, wheel: Path) -> dict:
    """Adds bytecode of the stdlib modules the start-up imports to ``pyodide_dir``'s python_stdlib.zip.

    Pyodide ships its standard library as sources, and compiling the ~150 modules
    that loading NumPy and the playground import took about 1 s of every start
    (precompile_stdlib.mjs). Returns the script's summary (``pyc``, ``bytes``, ``modules``).
    """
    result = subprocess.run(["node", str(STDLIB_PRECOMPILER), str(pyodide_dir), str(wheel)],
                            capture_output=True, text=True, cwd=WEB_DIR)
    if result.returncode != 0:
        raise BuildError(f"precompiling the standard library failed:\n{result.stdout}{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def bundle(src_dir: Path, out_dir: Path, minify: bool) -> list[dict]:
    """Run esbuild through bundle.mjs; returns the written files with sizes."""
    cmd = ["node", str(BUNDLER), "--src", str(src_dir), "--out", str(out_dir)]
    if not minify:
        cmd.append("--no-minify")
    result = subprocess.run(cmd, capture_output=True, text=True, cwd=WEB_DIR)
    if result.stderr.strip():
        print(result.stderr.rstrip(), file=sys.stderr)
    if result.returncode != 0:
        raise BuildError(f"esbuild failed (exit {result.returncode})")
    return json.loads(result.stdout.strip().splitlines()[-1])["outputs"]


def copy_public(public_dir: Path, out_dir: Path) -> None:
    clashes = sorted(p.name for p in public_dir.iterdir() if p.name in GENERATED_NAMES)
    if clashes:
        raise BuildError(f"{rel(public_dir)} must not contain {clashes}: the build writes them")
    shutil.copytree(public_dir, out_dir, dirs_exist_ok=True)
    if EXAMPLES_DIR.is_dir():
        shutil.copytree(EXAMPLES_DIR, out_dir / "examples", dirs_exist_ok=True)


def git_commit(repo_root: Path) -> str | None:
    try:
        result = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo_root,
                                capture_output=True, text=True)
    except OSError:
        return None
    return result.stdout.strip() or None


def write_build_info(out_dir: Path, wheel: Path) -> dict:
    """Write build-info.json, which the worker reads to find the wheel."""
    info = {
        "pyodide_version": fetch_pyodide.PYODIDE_VERSION,
        "autograd_py_wheel": wheel.relative_to(out_dir).as_posix(),
        # Lets the page bust browser caches: the wheel name stays the same
        # across builds of one version.
        "autograd_py_sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "built_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "git_commit": git_commit(REPO_ROOT),
    }
    (out_dir / "build-info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return info


def swap_into_place(staging: Path, out_dir: Path) -> None:
    """Replace ``out_dir`` by ``staging`` (refusing to delete foreign folders)."""
    if out_dir.exists():
        if any(out_dir.iterdir()) and not (out_dir / "build-info.json").is_file():
            raise BuildError(f"{out_dir} exists and is not a site build (no build-info.json); "
                             "refusing to replace it")
        old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
        out_dir.rename(old)
        staging.rename(out_dir)
        shutil.rmtree(old)
    else:
        staging.rename(out_dir)


def dir_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build_site(out_dir: Path, src_dir: Path, public_dir: Path, cache_dir: Path | None,
               minify: bool = True) -> dict:
    """Run every step; returns the build-info written."""
    check_inputs(src_dir, public_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.staging-", dir=out_dir.parent))
    try:
        steps = [
            ("autograd_py wheel", lambda: precompile(build_wheel(REPO_ROOT, staging / "wheels"))),
            ("esbuild bundle", lambda: bundle(src_dir, staging, minify)),
            ("copy public/", lambda: copy_public(public_dir, staging)),
            ("pyodide assets", lambda: fetch_pyodide.assemble(staging / "pyodide",
                                                              cache_dir=cache_dir)),
            ("stdlib bytecode", lambda: precompile_stdlib(staging / "pyodide",
                                                          results["autograd_py wheel"])),
        ]
        results = {}
        for label, step in steps:
            started = time.monotonic()
            results[label] = step()
            print(f"build_site: {label:<18} {time.monotonic() - started:6.2f} s", flush=True)
        info = write_build_info(staging, results["autograd_py wheel"])
        offline = precache.bake(staging)  # last: its version covers every file, build-info.json too
        print(f"build_site: precache {len(offline['files'])} files, {offline['bytes'] / 1e6:.1f} MB, "
              f"version {offline['version']}", flush=True)
        os.chmod(staging, 0o755)  # mkdtemp makes it 0700
        swap_into_place(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return info


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the static playground site.")
    parser.add_argument("--out", type=Path, default=WEB_DIR / "dist",
                        help="output folder, replaced as a whole (default: web/dist)")
    parser.add_argument("--src", type=Path, default=WEB_DIR / "src",
                        help="folder with app/main.js and runtime/worker.js (default: web/src)")
    parser.add_argument("--public", type=Path, default=WEB_DIR / "public",
                        help="folder copied verbatim into the output (default: web/public)")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="Pyodide wheel cache (default: "
                             f"{fetch_pyodide.default_cache_dir()}, see AUTOGRAD_PLAYGROUND_CACHE)")
    parser.add_argument("--no-minify", action="store_true", help="readable bundles for debugging")
    args = parser.parse_args(argv)

    started = time.monotonic()
    out_dir = args.out.resolve()
    try:
        info = build_site(out_dir, args.src.resolve(), args.public.resolve(),
                          args.cache_dir, minify=not args.no_minify)
    except (BuildError, fetch_pyodide.PyodideAssetError, precache.PrecacheError) as exc:
        print(f"build_site: error: {exc}", file=sys.stderr)
        return 1
    size_mb = dir_size(out_dir) / 1e6
    print(f"build_site: wrote {rel(out_dir)} ({size_mb:.1f} MB, {info['autograd_py_wheel']}) "
          f"in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
