"""Browser tests of the built playground (web/dist) in Debian's Chromium.

The site is served from 127.0.0.1 by a plain threaded ``http.server``, in two
variants: a plain one, and one sending COOP/COEP headers so the page is
``crossOriginIsolated`` and Stop can interrupt Python instead of restarting it.
Loading Pyodide takes several seconds, so each variant loads one page per
session and the tests share it.
"""

import functools
import http.server
import os
import sys
import threading
from pathlib import Path

import pytest
from playground_helpers import PlaygroundPage

REPO = Path(__file__).resolve().parents[2]
# PLAYGROUND_DIST lets several people test their own builds side by side
# (`python web/build/build_site.py --out DIR`); the default is the one build.
DIST = Path(os.environ.get("PLAYGROUND_DIST") or REPO / "web" / "dist")
RESULTS = REPO / "test-results"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in item.nodeid.replace("\\", "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def site_dir():
    missing = [name for name in ("index.html", "main.js", "worker.js", "build-info.json")
               if not (DIST / name).is_file()]
    if missing:
        pytest.fail(
            f"web/dist is not built (missing {', '.join(missing)}): run "
            "`python web/build/build_site.py` or `bash scripts/test.sh`",
            pytrace=False,
        )
    return DIST


class _Handler(http.server.SimpleHTTPRequestHandler):
    isolated = False
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".whl": "application/zip",
        ".zip": "application/zip",
        ".svg": "image/svg+xml",
    }

    def end_headers(self):
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format, *args):  # keep pytest output readable
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Closing a tab aborts its downloads (e.g. a spare worker's); not a failure.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _serve(directory, isolated):
    handler = functools.partial(type("Handler", (_Handler,), {"isolated": isolated}),
                                directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server


@pytest.fixture(scope="session")
def server_url(site_dir):
    server = _serve(site_dir, isolated=False)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session")
def isolated_server_url(site_dir):
    server = _serve(site_dir, isolated=True)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture(scope="session")
def playground(browser, server_url):
    tab = PlaygroundPage(browser, server_url).open()
    yield tab
    tab.close()


@pytest.fixture(scope="session")
def isolated_playground(browser, isolated_server_url):
    tab = PlaygroundPage(browser, isolated_server_url).open()
    yield tab
    tab.close()


@pytest.fixture(scope="session")
def results_dir():
    RESULTS.mkdir(exist_ok=True)
    return RESULTS
