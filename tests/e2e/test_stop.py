"""Stop ends an infinite loop and keeps the code. When the page is cross-origin isolated (by the
server's headers, or by the service worker on a server that sends none) it interrupts Python and
keeps the variables; otherwise, as the fallback, it starts a new worker (only then: no spare is
kept warm)."""

import functools
import threading
import time

import pytest
from playwright.sync_api import expect

from conftest import _Handler, _Server
from playground_helpers import LOAD_TIMEOUT_MS, PlaygroundPage

LOOP = "while True:\n    pass\n"
ISOLATION_HEADERS = ("cross-origin-opener-policy", "cross-origin-embedder-policy")


def start_loop(playground, code=LOOP):
    playground.set_code(code)
    playground.testid("run").click()
    expect(playground.testid("status")).to_have_attribute("data-state", "running")
    playground.page.wait_for_timeout(500)  # let it really spin


def stop_and_time(playground, timeout=5_000):
    started = time.monotonic()
    playground.testid("stop").click()
    expect(playground.testid("status")).to_have_attribute("data-state", "ready", timeout=timeout)
    return time.monotonic() - started


def assert_interrupt_keeps_variables(tab):
    # Each Run is a fresh script: the variable is defined by the run that loops.
    start_loop(tab, "kept = 41\n" + LOOP)
    assert stop_and_time(tab) < 5
    out = tab.testid("output")
    expect(out).to_contain_text("KeyboardInterrupt")
    expect(out).to_contain_text("Interrupted; your variables are kept.")
    assert tab.get_code() == "kept = 41\n" + LOOP
    tab.console_eval("kept + 1")
    expect(out).to_contain_text("42")
    # The interrupt does not leak into the next run.
    assert tab.run("print('next run')")["stdout"] == "next run\n"


class _HeaderHandler(_Handler):
    extra = ()  # (name, value) pairs sent on every response
    paths = None  # every path requested from this server

    def send_head(self):
        self.paths.append(self.path)
        return super().send_head()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        for name, value in self.extra:
            self.send_header(name, value)
        super().end_headers()


@pytest.fixture()
def serve(site_dir):
    """Serves the site on a server of its own (no COOP/COEP unless given); stops them after."""
    servers = []

    def start(*extra):
        paths = []
        handler = type("Handler", (_HeaderHandler,), {"extra": extra, "paths": paths})
        server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(site_dir)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        start.paths = paths
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def open_counting_navigations(browser, url, **options):
    tab = PlaygroundPage(browser, url, **options)
    tab.navigations = []
    tab.network_headers = []
    tab.page.on("framenavigated",
                lambda frame: frame == tab.page.main_frame and tab.navigations.append(frame.url))
    tab.page.on("response", lambda response: response.from_service_worker
                or tab.network_headers.append(response.headers))
    return tab.open()


def test_stop_interrupts_and_keeps_variables_when_isolated(isolated_playground):
    assert isolated_playground.page.evaluate("crossOriginIsolated") is True
    assert_interrupt_keeps_variables(isolated_playground)


def test_the_service_worker_isolates_the_page_on_a_server_without_headers(browser, serve):
    tab = open_counting_navigations(browser, serve())
    try:
        # The server never sent the headers: the service worker added them, after one reload.
        assert tab.network_headers
        assert not [h for h in tab.network_headers if set(h) & set(ISOLATION_HEADERS)]
        assert tab.page.evaluate("crossOriginIsolated") is True
        assert len(tab.navigations) == 2, tab.navigations
        # Python was loaded once, in the isolated page: one worker, one runtime download.
        assert serve.paths.count("/pyodide/pyodide.asm.wasm") == 1, serve.paths
        assert_interrupt_keeps_variables(tab)
        # A later visit is isolated from the start: no second reload.
        tab.navigations.clear()
        tab.page.reload()
        tab.wait_ready()
        assert len(tab.navigations) == 1 and tab.page.evaluate("crossOriginIsolated") is True
    finally:
        tab.close()


def test_no_reload_loop_when_isolation_is_impossible(browser, serve):
    # A host that explicitly opts out: the service worker keeps the host's own header.
    tab = open_counting_navigations(browser, serve(("Cross-Origin-Embedder-Policy", "unsafe-none")))
    try:
        assert tab.page.evaluate("crossOriginIsolated") is False
        assert len(tab.navigations) == 2, tab.navigations  # it tried once, and went on
        tab.navigations.clear()
        tab.page.reload()
        tab.wait_ready()
        assert len(tab.navigations) == 1
        assert tab.run("print(1 + 1)")["stdout"] == "2\n"
    finally:
        tab.close()


def test_stop_restarts_python_when_not_isolated(browser, serve):
    # No service worker (as on plain http:// or where they are off): no isolation at all.
    tab = PlaygroundPage(browser, serve(), service_workers="block")
    workers = []
    tab.page.on("worker", lambda worker: workers.append(worker.url))
    try:
        tab.open()
        assert tab.page.evaluate("crossOriginIsolated") is False
        tab.page.wait_for_timeout(1_000)
        assert len(workers) == 1, workers  # no spare worker kept warm
        start_loop(tab, "kept = 41\n" + LOOP)
        assert len(workers) == 1, workers
        tab.testid("stop").click()
        out = tab.testid("output")
        expect(out).to_contain_text("Python was restarted")
        # The new worker loads from scratch; its phases show meanwhile.
        expect(tab.testid("status")).not_to_have_attribute("data-state", "running")
        tab.wait_ready(LOAD_TIMEOUT_MS)
        assert len(workers) == 2, workers
        assert tab.get_code() == "kept = 41\n" + LOOP
        tab.console_eval("kept")
        expect(out).to_contain_text("NameError: name 'kept' is not defined")
        result = tab.run("import torch\nprint(torch.ones(2))")
        assert result["ok"], result["error"]
        assert result["stdout"] == "tensor([1., 1.])\n"
    finally:
        tab.close()


def test_isolated_page_made_no_foreign_request(isolated_playground):
    foreign = [u for u in isolated_playground.requests if not u.startswith(isolated_playground.url)]
    assert isolated_playground.requests and foreign == []
