"""The course-page embed: <autograd-playground> elements on a host page of another origin.

The playground (web/dist) is served on one origin and the course page on
another, as a teacher's site would be: the host's copy of course.html loads
embed.js from the playground's origin and allows it in its CSP. The
playground's server counts requests per path, since a SharedWorker's fetches
are invisible to Playwright.
"""

import collections
import functools
import http.server
import re
import threading

import pytest
from playwright.sync_api import expect

from conftest import CHROMIUM, _Handler, _Server  # noqa: F401 (CHROMIUM documents the browser used)

COURSE = "examples/course.html"
RUN_TIMEOUT_MS = 90_000
SANDBOX = "allow-scripts allow-same-origin"
RECORD_CSP = ("window.__csp = [];"
              "document.addEventListener('securitypolicyviolation',"
              " (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


class _CountingHandler(_Handler):
    counts = None  # a Counter per server, set by _serve_counting

    def do_GET(self):
        self.counts[self.path.split("?")[0].split("#")[0]] += 1
        super().do_GET()

    def end_headers(self):
        # Every load reaches the server, so the counts are loads, not cache misses.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


def _serve_counting(directory):
    counts = collections.Counter()
    handler = functools.partial(type("Counting", (_CountingHandler,), {"counts": counts}),
                                directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, counts


@pytest.fixture()
def sites(site_dir, tmp_path):
    """(host_url, playground_origin, counts): a fresh playground server per test, so counts are its own."""
    playground, counts = _serve_counting(site_dir)
    origin = f"http://127.0.0.1:{playground.server_address[1]}"
    page = (site_dir / COURSE).read_text(encoding="utf-8")
    page = page.replace('src="../embed.js"', f'src="{origin}/embed.js"')
    page = page.replace("script-src 'self'", f"script-src 'self' {origin}")
    page = page.replace("frame-src 'self'", f"frame-src {origin}")
    assert origin in page, "course.html no longer loads ../embed.js"
    (tmp_path / "course.html").write_text(page, encoding="utf-8")
    for extra in (site_dir / "examples").iterdir():
        if extra.name != "course.html":
            (tmp_path / extra.name).write_bytes(extra.read_bytes())
    host, _ = _serve_counting(tmp_path)
    yield f"http://127.0.0.1:{host.server_address[1]}/course.html", origin, counts
    host.shutdown()
    playground.shutdown()


@pytest.fixture()
def context(browser):
    # No offline copy here: its precache would download every file once more and blur the counts
    # (test_offline.py covers it).
    context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-US",
                                  service_workers="block")
    context.add_init_script(RECORD_CSP)
    yield context
    context.close()


def frame_of(page, index):
    return page.frame_locator(f"autograd-playground >> nth={index} >> iframe")


def run_in(page, index, code=None):
    """Scrolls embed `index` into view, (optionally) replaces its code, clicks Run; returns the output."""
    element = page.locator("autograd-playground").nth(index)
    element.scroll_into_view_if_needed()
    frame = frame_of(page, index)
    expect(frame.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    if code is not None:
        frame.locator("body").evaluate("(body, code) => window.playground.setCode(code)", code)
    frame.locator("#output").evaluate("el => { el.textContent = ''; }")
    frame.locator("#run").click()
    expect(frame.locator("#output")).not_to_be_empty(timeout=RUN_TIMEOUT_MS)
    expect(frame.locator("#status")).to_have_attribute("data-state", "ready", timeout=RUN_TIMEOUT_MS)
    return frame.locator("#output").inner_text()


def frame_heights(page, index):
    """(the iframe's CSS height, the height its document reports) in px."""
    iframe = page.locator("autograd-playground").nth(index).locator("iframe")
    outer = iframe.evaluate("el => el.getBoundingClientRect().height")
    inner = frame_of(page, index).locator("html").evaluate("el => el.getBoundingClientRect().height")
    return outer, inner


def test_course_page_embeds_load_lazily_share_one_python_and_resize(context, sites):
    host_url, origin, counts = sites
    page = context.new_page()
    page.goto(host_url)
    embeds = page.locator("autograd-playground")
    total = embeds.count()
    assert total >= 5
    # Examples away from the viewport are still plain code text: no iframe, no Python.
    page.wait_for_timeout(500)
    assert page.locator("autograd-playground iframe").count() < total
    assert embeds.nth(total - 1).locator("iframe").count() == 0
    assert "import torch" in embeds.nth(total - 1).locator("pre").inner_text()
    assert counts["/pyodide/pyodide.asm.wasm"] == 0

    # The first example runs by itself once it is in view (autorun, set by the page's author).
    embeds.first.scroll_into_view_if_needed()
    expect(frame_of(page, 0).locator("#output")).to_contain_text("tensor(4.)", timeout=RUN_TIMEOUT_MS)

    for index in range(total):
        embeds.nth(index).scroll_into_view_if_needed()
        expect(embeds.nth(index).locator("iframe")).to_have_attribute("sandbox", SANDBOX)
        expect(frame_of(page, index).locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
        before, _ = frame_heights(page, index)
        output = run_in(page, index)
        assert "Traceback" not in output or "retain_graph" in output, output
        # The iframe follows its content: its height is what the frame reports, and it grew
        # when the output (and graph) appeared.
        for _ in range(50):
            outer, inner = frame_heights(page, index)
            if abs(outer - inner) <= 2:
                break
            page.wait_for_timeout(100)
        assert abs(outer - inner) <= 2, (index, outer, inner)
        if index > 0 and output.count("\n") >= 2:  # (the first one had run by itself already)
            assert outer > before + 10, (index, before, outer)

    # One Python for the whole page: the runtime and NumPy were downloaded once.
    assert counts["/pyodide/pyodide.asm.wasm"] == 1, counts
    assert sum(n for path, n in counts.items() if path.startswith("/pyodide/numpy-")) == 1, counts
    assert counts["/embed.html"] == total
    # No frame broke its Content-Security-Policy: the host's, embed.html's, the runtime holders'.
    violations = {frame.url.split("#")[0]: frame.evaluate("window.__csp || []") for frame in page.frames}
    assert len(violations) >= 3 and all(found == [] for found in violations.values()), violations


def test_each_embed_has_its_own_namespace_and_settings(context, sites):
    host_url, _, _ = sites
    page = context.new_page()
    page.goto(host_url)
    run_in(page, 0, "import torch\nsecret = 41\ntorch.set_grad_enabled(False)\nprint('set')\n")
    output = run_in(page, 1, "import torch\nprint(torch.is_grad_enabled())\nprint('secret' in globals())\n")
    assert output.split() == ["True", "False"]
    # Each Run is a fresh script, in embeds too: nothing of the last run is left.
    assert run_in(page, 0, "import torch\nprint('secret' in globals(), torch.is_grad_enabled())\n").split() == \
        ["False", "True"]


def test_embed_code_cannot_reach_the_host_page(context, sites):
    host_url, origin, _ = sites
    page = context.new_page()
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(host_url)
    title = page.title()
    output = run_in(page, 0, (
        "import js\n"
        "print('document' in dir(js), 'parent' in dir(js), 'top' in dir(js))\n"
        "print(type(js).__name__, js.constructor.name)\n"
        "print('<img src=x onerror=alert(1)>')\n"
    ))
    lines = output.splitlines()
    # Python runs in a worker: no DOM, no parent window, nothing of the host to touch.
    assert lines[0] == "False False False"
    assert lines[1].endswith("SharedWorkerGlobalScope")
    assert lines[2] == "<img src=x onerror=alert(1)>"  # shown as text
    frame = frame_of(page, 0)
    expect(frame.locator("#output img")).to_have_count(0)
    # And the frame's own script cannot either: the host is another origin.
    blocked = frame.locator("body").evaluate(
        "() => { try { return parent.document.title; } catch (e) { return 'blocked: ' + e.name; } }")
    assert blocked == "blocked: SecurityError"
    assert page.title() == title
    page.wait_for_timeout(300)
    assert dialogs == []
    iframe_src = page.locator("autograd-playground").first.locator("iframe").get_attribute("src")
    assert iframe_src.startswith(f"{origin}/embed.html#embed=")


def test_stop_restarts_the_shared_python_for_every_embed_and_ends_the_stuck_one(context, sites):
    host_url, _, counts = sites
    page = context.new_page()
    page.goto(host_url)
    run_in(page, 1, "kept = 1\nprint('first')\n")
    page.locator("autograd-playground").nth(0).scroll_into_view_if_needed()
    frame = frame_of(page, 0)
    expect(frame.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    loop = ("import js\n"
            "while True:\n"
            "    request = js.XMLHttpRequest.new()\n"
            "    request.open('GET', 'ping', False)\n"
            "    request.send()\n")
    frame.locator("body").evaluate("(body, code) => window.playground.setCode(code)", loop)
    frame.locator("#run").click()
    expect(frame.locator("#stop")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    page.wait_for_timeout(500)
    assert counts["/ping"] > 0
    frame.locator("#stop").click()
    expect(frame.locator("#output")).to_contain_text("Python was restarted", timeout=10_000)
    # (Output is drawn on animation frames, which an off-screen frame does not get.)
    page.locator("autograd-playground").nth(1).scroll_into_view_if_needed()
    expect(frame_of(page, 1).locator("#output")).to_contain_text("an example elsewhere on this page was stopped")
    assert frame.locator("body").evaluate("() => window.playground.getCode()") == loop  # the code is kept
    # The abandoned runtime is ended by the browser, loop and all: the pings stop.
    page.wait_for_timeout(2500)
    pings = counts["/ping"]
    page.wait_for_timeout(1500)
    assert counts["/ping"] == pings
    # Both embeds work again, on one fresh runtime; the old namespace is gone.
    assert run_in(page, 1, "print('kept' in globals())\n").strip() == "False"
    assert run_in(page, 0, "print(6 * 7)\n").strip() == "42"
    assert counts["/pyodide/pyodide.asm.wasm"] == 2


def test_without_shared_workers_python_loads_only_on_first_run(browser, sites):
    host_url, _, counts = sites
    context = browser.new_context(viewport={"width": 1100, "height": 800}, service_workers="block")
    # Like a browser without SharedWorker (e.g. Chrome on Android): every frame loses it.
    context.add_init_script("delete window.SharedWorker;")
    try:
        page = context.new_page()
        page.goto(host_url)
        frame = frame_of(page, 1)
        page.locator("autograd-playground").nth(1).scroll_into_view_if_needed()
        expect(frame.locator("#status")).to_have_attribute("data-state", "idle")
        # The autorun example started its own worker; nothing else loaded Python.
        expect(frame_of(page, 0).locator("#output")).to_contain_text("tensor(4.)", timeout=RUN_TIMEOUT_MS)
        assert counts["/pyodide/pyodide.asm.wasm"] == 1
        output = run_in(page, 1)
        assert "Traceback" not in output
        assert counts["/pyodide/pyodide.asm.wasm"] == 2
    finally:
        context.close()


def test_embed_options_readonly_language_and_panels(context, sites):
    host_url, _, _ = sites
    page = context.new_page()
    page.goto(host_url)
    embeds = page.locator("autograd-playground")
    for index in range(embeds.count()):
        element = embeds.nth(index)
        element.scroll_into_view_if_needed()
        frame = frame_of(page, index)
        expect(frame.locator("#run")).to_be_visible(timeout=RUN_TIMEOUT_MS)
        show = element.get_attribute("show")
        panels = ["graph", "grads"] if show is None else re.split(r"[\s,]+", show)
        for panel in ("graph", "grads"):
            expect(frame.locator(f"#{panel}")).to_be_visible() if panel in panels else \
                expect(frame.locator(f"#{panel}")).to_be_hidden()
        if element.get_attribute("lang") == "zh":
            expect(frame.locator("#run")).to_contain_text("运行")
            expect(frame.locator("html")).to_have_attribute("lang", "zh-Hans")
        if element.get_attribute("readonly") is not None:
            before = frame.locator("body").evaluate("() => window.playground.getCode()")
            frame.locator(".cm-content").click()
            page.keyboard.type("oops")
            assert frame.locator("body").evaluate("() => window.playground.getCode()") == before
        if "graph" in panels:  # expanding makes room for a bigger graph, and the iframe follows
            before = element.locator("iframe").evaluate("el => el.getBoundingClientRect().height")
            frame.locator("#expand").click()
            expect(frame.locator("#expand")).to_have_attribute("aria-expanded", "true")
            for _ in range(30):
                after = element.locator("iframe").evaluate("el => el.getBoundingClientRect().height")
                if after > before + 150:
                    break
                page.wait_for_timeout(100)
            assert after > before + 150, (index, before, after)
            frame.locator("#expand").click()
        if element.get_attribute("height"):
            height = frame.locator("#editor").evaluate("el => el.getBoundingClientRect().height")
            assert abs(height - int(element.get_attribute("height"))) <= 1


def test_an_embed_link_opened_by_itself_never_autoruns(context, sites):
    host_url, origin, _ = sites
    page = context.new_page()
    page.goto(host_url)
    page.locator("autograd-playground").first.scroll_into_view_if_needed()
    src = page.locator("autograd-playground").first.locator("iframe").get_attribute("src")
    alone = context.new_page()
    alone.goto(src)
    expect(alone.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    alone.wait_for_timeout(500)
    assert alone.locator("#output").inner_text() == ""
    assert "x ** 2" in alone.evaluate("window.playground.getCode()")


def test_a_damaged_embed_hash_says_so_and_keeps_working(context, sites):
    _, origin, _ = sites
    page = context.new_page()
    page.goto(f"{origin}/embed.html#embed=1.not-a-deflate-stream")
    expect(page.get_by_test_id("embed-notice")).to_be_visible()
    expect(page.get_by_test_id("embed-notice")).to_contain_text("could not be read")
    page.evaluate("code => window.playground.setCode(code)", "print(1 + 1)\n")
    page.get_by_test_id("run").click()
    expect(page.get_by_test_id("output")).to_have_text("2", timeout=RUN_TIMEOUT_MS)
