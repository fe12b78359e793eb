"""The service worker's precache manifest (web/build/precache.py) and the built dist/sw.js.

Kept apart from test_site_build.py, which is near its size limit; the loading
helper is the same.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from test_site_build import DIST_DIR, load_module

precache = load_module("precache")

SW_SOURCE = 'const MANIFEST = "__PRECACHE_MANIFEST__";\nconsole.log(MANIFEST.files);\n'


def make_site(root: Path) -> Path:
    files = {
        "index.html": "<!doctype html>",
        "main.js": "console.log(1)",
        "main.js.map": "{}",
        "sw.js": SW_SOURCE,
        "sw.js.map": "{}",
        "build-info.json": "{}",
        "pyodide/pyodide.asm.wasm": "\0asm",
        "pyodide/pyodide.mjs.map": "{}",
        "wheels/autograd_py-0.1.0-py3-none-any.whl": "PK",
        "examples/course.html": "<p>course</p>",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def baked_manifest(sw_text: str) -> dict:
    return json.loads(re.search(r'\{"version":.*?\]\}', sw_text)[0])


def test_manifest_lists_every_file_but_the_worker_and_source_maps(tmp_path):
    site = make_site(tmp_path)
    assert precache.manifest(site)["files"] == [
        "build-info.json", "examples/course.html", "index.html", "main.js",
        "pyodide/pyodide.asm.wasm", "wheels/autograd_py-0.1.0-py3-none-any.whl"]


def test_version_follows_any_change_of_bytes_or_names(tmp_path):
    site = make_site(tmp_path)
    first = precache.manifest(site)["version"]
    assert precache.manifest(site)["version"] == first
    assert re.fullmatch(r"[0-9a-f]{16}", first)

    (site / "pyodide" / "pyodide.asm.wasm").write_text("\0asn")  # one byte
    changed = precache.manifest(site)["version"]
    assert changed != first
    (site / "pyodide" / "pyodide.asm.wasm").write_text("\0asm")
    assert precache.manifest(site)["version"] == first

    (site / "main.js").rename(site / "main2.js")  # same bytes, another name
    assert precache.manifest(site)["version"] not in (first, changed)


def test_maps_and_the_worker_itself_do_not_change_the_version(tmp_path):
    site = make_site(tmp_path)
    first = precache.manifest(site)["version"]
    (site / "main.js.map").write_text('{"changed": true}')
    (site / "sw.js").write_text(SW_SOURCE + "// edited\n")
    assert precache.manifest(site)["version"] == first


def test_bake_writes_the_manifest_in_place_of_the_placeholder(tmp_path):
    site = make_site(tmp_path)
    info = precache.bake(site)
    text = (site / "sw.js").read_text()
    assert precache.PLACEHOLDER not in text
    assert baked_manifest(text) == {"version": info["version"], "files": info["files"]}
    assert text.startswith("const MANIFEST = {") and text.endswith("console.log(MANIFEST.files);\n")
    assert info["bytes"] == sum((site / name).stat().st_size for name in info["files"])


@pytest.mark.parametrize("source, found", [
    ("const MANIFEST = {};\n", 0),
    ('const A = "__PRECACHE_MANIFEST__", B = "__PRECACHE_MANIFEST__";\n', 2),
])
def test_bake_refuses_a_worker_without_exactly_one_placeholder(tmp_path, source, found):
    site = make_site(tmp_path)
    (site / "sw.js").write_text(source)
    with pytest.raises(precache.PrecacheError, match=f"found {found}"):
        precache.bake(site)
    assert (site / "sw.js").read_text() == source


def test_bake_needs_the_worker(tmp_path):
    site = make_site(tmp_path)
    (site / "sw.js").unlink()
    with pytest.raises(precache.PrecacheError, match="sw.js missing"):
        precache.bake(site)


@pytest.mark.skipif(not (DIST_DIR / "build-info.json").is_file(),
                    reason="web/dist not built (scripts/test.sh builds it)")
def test_built_worker_holds_the_manifest_of_the_built_site():
    text = (DIST_DIR / "sw.js").read_text(encoding="utf-8")
    assert precache.PLACEHOLDER not in text
    baked = baked_manifest(text)
    every_file = sorted(p.relative_to(DIST_DIR).as_posix() for p in DIST_DIR.rglob("*") if p.is_file())
    assert baked["files"] == [f for f in every_file if f != "sw.js" and not f.endswith(".map")]
    for needed in ("index.html", "main.js", "worker.js", "build-info.json",
                   "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"):
        assert needed in baked["files"]
    assert any(f.startswith("wheels/autograd_py-") for f in baked["files"])
    # Nothing was changed after baking: the version is the one of the files as served.
    assert baked["version"] == precache.manifest(DIST_DIR)["version"]
