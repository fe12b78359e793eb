"""Loading Python: the status shows each phase in turn, and a cold tab downloads each file once,
counted at a server that forbids caching, service worker and offline copy included."""

import collections
import functools
import re
import threading

import pytest
from playwright.sync_api import expect

from conftest import _Handler, _Server
from playground_helpers import PlaygroundPage

INSTALL_TIMEOUT_MS = 90_000
BIG_FILES = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.js", "numpy-", "autograd_py-")

# Every text the status shows, in order, recorded from the first document on.
RECORD_STATUS = """
window.__statusTexts = [];
new MutationObserver(() => {
  const el = document.querySelector('[data-testid=status] .status-text');
  const texts = window.__statusTexts;
  if (el && texts[texts.length - 1] !== el.textContent) texts.push(el.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


class _CountingHandler(_Handler):
    paths = None

    def send_head(self):
        self.paths[self.path] += 1
        return super().send_head()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")  # only the service worker may keep files
        super().end_headers()


@pytest.fixture()
def counted(site_dir):
    paths = collections.Counter()
    handler = type("Counting", (_CountingHandler,), {"paths": paths})
    server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(site_dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", paths
    server.shutdown()
    server.server_close()


def test_a_cold_tab_downloads_each_file_once(browser, counted):
    url, paths = counted
    tab = PlaygroundPage(browser, url)
    try:
        tab.open()
        expect(tab.page.locator("html")).to_have_attribute("data-offline", "ready",
                                                           timeout=INSTALL_TIMEOUT_MS)
        assert tab.page.evaluate("crossOriginIsolated") is True
        big = {path: n for path, n in paths.items() if any(name in path for name in BIG_FILES)}
        assert len(big) == len(BIG_FILES), big
        assert set(big.values()) == {1}, big
        # The offline copy holds every file; each was fetched from the server once, except the
        # page itself and boot.js, loaded again by the one reload that made the page isolated (boot.js
        # halts the first document; what the browser's preload scan asked for by then may come twice).
        assert {path for path, n in paths.items() if n > 1} <= {"/", "/boot.js", "/main.js",
                                                                "/style.css", "/views.css",
                                                                "/share.css", "/sw.js",
                                                                "/favicon.svg"}
        # A Run and its views need nothing more from the server.
        before = sum(paths.values())
        assert tab.run("import torch\nprint(torch.ones(2).sum())")["stdout"] == "tensor(2.)\n"
        assert sum(paths.values()) == before
    finally:
        tab.close()


def test_the_status_shows_each_loading_phase_and_run_says_why_it_waits(browser, server_url):
    tab = PlaygroundPage(browser, server_url)
    tab.context.add_init_script(RECORD_STATUS)
    try:
        tab.page.goto(server_url)
        run = tab.testid("run")
        expect(tab.testid("status")).to_have_attribute("data-state", "loading")
        expect(run).to_have_attribute("title", re.compile("once Python is ready"))
        tab.wait_ready()
        texts = tab.page.evaluate("window.__statusTexts")
        phases = ["Loading Python runtime… 1/3", "Loading NumPy… 2/3", "Installing autograd_py… 3/3"]
        shown = [text for text in texts if text in phases]
        assert shown == phases, texts
        assert texts[-1].startswith("Ready in")
        tab.page.locator('[data-lang="zh"]').click()
        expect(tab.testid("status")).to_contain_text("就绪")
    finally:
        tab.close()


def test_the_runtime_freezes_what_it_loaded(playground):
    """The modules and objects loaded at start-up are frozen (``gc.freeze``), so a long loop's full
    garbage collections do not walk them each time, and full collections come ten times rarer
    (``collector.settle``; ten times rarer again while a run records); the learner's own objects
    are collected as ever."""
    result = playground.run("import gc, weakref\n"
                            "class Cycle: pass\n"
                            "a = Cycle(); a.self = a; dead = weakref.ref(a); del a\n"
                            "gc.collect()\n"
                            "print(gc.get_freeze_count(), dead() is None, gc.get_threshold()[2])")
    assert result["ok"], result
    frozen, collected, full_every = result["stdout"].split()
    assert int(frozen) > 10_000 and collected == "True"
    assert int(full_every) == 10 * 100
