"""The offline copy (sw.js, offline.js), a deployment under a subpath, and the CSP.

Each test serves the built site on a server of its own, so the test can take
the network away for real: the server is shut down and its socket closed.
The servers send ``Cache-Control: no-store``, so Chromium's HTTP cache cannot
stand in for the service worker. Each test opens its own browser context,
since service worker registrations belong to a context.
"""

import functools
import re
import shutil
import threading

import pytest
from playwright.sync_api import expect

from conftest import _Handler, _Server
from playground_helpers import LOAD_TIMEOUT_MS, PlaygroundPage

INSTALL_TIMEOUT_MS = 60_000
GRAPH_CODE = """\
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
"""
GRAPH_OUTPUT = "tensor([2., 4., 6.])"
RECORD_CSP = ("window.__csp = [];"
              "document.addEventListener('securitypolicyviolation', (e) => window.__csp.push("
              "[e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber].join(' ')));")


class _RecordingHandler(_Handler):
    paths = None  # every requested path of one server, set by Site
    csp = None  # sent as a real header on every response when set

    def send_head(self):
        self.paths.append(self.path)
        return super().send_head()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        if self.csp:
            self.send_header("Content-Security-Policy", self.csp)
        super().end_headers()


class Site:
    """A server over one folder, recording what was requested; ``stop()`` takes it away."""

    def __init__(self, root, csp=None):
        self.paths = []
        handler = type("Recording", (_RecordingHandler,), {"paths": self.paths, "csp": csp})
        self.server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.running = True

    def stop(self):
        if self.running:
            self.running = False
            self.server.shutdown()
            self.server.server_close()


@pytest.fixture()
def sites():
    """Makes Sites and stops every one of them after the test."""
    made = []

    def make(root, csp=None):
        made.append(Site(root, csp))
        return made[-1]

    yield make
    for site in made:
        site.stop()


@pytest.fixture()
def tabs(browser):
    """Opens PlaygroundPages, each in a fresh context, and closes them after the test."""
    opened = []

    def make(url, init_script=None):
        tab = PlaygroundPage(browser, url)
        tab.responses = []
        tab.context.on("response", lambda response: tab.responses.append(response))
        if init_script:
            tab.context.add_init_script(init_script)
        opened.append(tab)
        return tab

    yield make
    for tab in opened:
        tab.close()


def page_csp(site_dir, page="index.html"):
    meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"',
                     (site_dir / page).read_text(encoding="utf-8"))
    assert meta, f"{page} has no CSP meta"
    return meta[1]


def wait_offline(tab, state="ready", timeout=INSTALL_TIMEOUT_MS):
    expect(tab.page.locator("html")).to_have_attribute("data-offline", state, timeout=timeout)


def sw_status(page):
    """The controlling service worker's own account of its cache."""
    return page.evaluate("""() => new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data);
        navigator.serviceWorker.controller.postMessage({type: 'status'}, [channel.port2]);
    })""")


def run_graph_code(tab):
    tab.set_code(GRAPH_CODE)
    output = tab.click_run()
    assert GRAPH_OUTPUT in output
    graph = tab.testid("graph")
    expect(graph.locator("svg.graph-svg")).to_have_count(1)
    expect(graph.locator('g.node[data-name="MulBackward0"]')).to_have_count(1)
    expect(graph.locator('g.node[data-name="SumBackward0"]')).to_have_count(1)


def test_first_visit_saves_the_site_and_a_reload_works_with_the_server_gone(sites, tabs, site_dir):
    site = sites(site_dir)
    tab = tabs(site.origin + "/")
    tab.open()
    wait_offline(tab)
    install_s = tab.page.evaluate("""performance.getEntriesByName('playground:offline-ready')[0].startTime
        - performance.getEntriesByName('playground:offline-register')[0].startTime""") / 1000
    expect(tab.testid("offline").locator(".offline-text")).to_have_text("Works offline")
    expect(tab.testid("offline-reload")).to_be_hidden()
    tab.page.locator('[data-lang="zh"]').click()
    expect(tab.testid("offline").locator(".offline-text")).to_have_text("可离线使用")
    tab.page.locator('[data-lang="en"]').click()
    # The first install takes over at once: this very page is already served by it.
    status = sw_status(tab.page)
    files = status_files(site_dir)
    assert status["complete"] and status["cached"] == status["files"] == len(files)
    size_mb = sum((site_dir / name).stat().st_size for name in files) / 1e6
    print(f"offline copy: {len(files)} files, {size_mb:.1f} MB, saved in {install_s:.1f} s")

    site.stop()
    tab.responses.clear()
    tab.page.reload()
    tab.wait_ready()
    result = tab.run("import torch\nx = torch.tensor([3.0], requires_grad=True)\n"
                     "(x ** 3).sum().backward()\nprint(x.grad)\n")
    assert result["ok"], result
    assert result["stdout"].strip() == "tensor([27.])"
    wait_offline(tab)
    # The page and its worker's Pyodide files came from the service worker, not a cache of Chromium's.
    served = {r.url.removeprefix(site.origin + "/"): r for r in tab.responses}
    for name in ("", "main.js", "worker.js", "pyodide/pyodide.asm.wasm", "build-info.json"):
        assert name in served, f"{name!r} was not requested after the reload: {sorted(served)}"
        assert served[name].from_service_worker, name
    headers = tab.page.evaluate("""async () => {
        const wasm = await fetch('pyodide/pyodide.asm.wasm');
        const missing = await fetch('no-such-file.txt');
        return [wasm.headers.get('content-type'), missing.status, await missing.text()];
    }""")
    assert headers[0] == "application/wasm"  # streaming compile needs it
    assert headers[1] == 503 and "offline" in headers[2]
    assert not [line for line in tab.console if "instantiateStreaming" in line or "MIME" in line]
    # The embeds' SharedWorker is a client of the service worker too.
    if (site_dir / "shared_worker.js").is_file():
        shared = run_in_shared_worker(tab.page, "import torch\nprint(torch.ones(2, 3).sum().item())\n")
        assert shared == {"phases": ["runtime", "numpy", "autograd_py", "ready"], "stdout": "6.0\n",
                          "ok": True}


def status_files(site_dir):
    """What the build put in the precache manifest, read from dist/sw.js."""
    sw = (site_dir / "sw.js").read_text(encoding="utf-8")
    return re.search(r'"files":(\[[^\]]*\])', sw)[1].strip("[]").replace('"', "").split(",")



def run_in_shared_worker(page, code):
    """Loads Python in a SharedWorker of the page (as the embeds do); returns its phases and output."""
    return page.evaluate("""(code) => new Promise((resolve, reject) => {
        const worker = new SharedWorker('shared_worker.js', {type: 'module', name: 'offline-check'});
        const phases = [];
        setTimeout(() => reject(new Error('no answer; phases so far: ' + phases)), 90000);
        worker.onerror = (event) => reject(new Error('SharedWorker failed: ' + event.message));
        worker.port.onmessage = ({data}) => {
            if (data.type === 'fatal') reject(new Error(data.phase + ': ' + data.message));
            if (data.type === 'status') phases.push(data.phase);
            if (data.type === 'status' && data.phase === 'ready') worker.port.postMessage({id: 1, type: 'run', code});
            if (data.type === 'result') {  // Python's answer crosses as its JSON text (failed_result.js)
                const result = JSON.parse(data.json);
                resolve({phases, stdout: result.stdout, ok: result.ok});
            }
        };
        worker.port.start();
    })""", code)


def cache_names(page):
    return page.evaluate("caches.keys()")


def test_the_site_works_from_a_subpath_and_never_leaves_it(sites, tabs, site_dir, tmp_path):
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "playground").symlink_to(site_dir, target_is_directory=True)
    (tmp_path / "index.html").write_text("the host's own home page, not the playground's")
    site = sites(tmp_path)
    base = f"{site.origin}/course/playground/"
    tab = tabs(base)
    tab.open()
    run_graph_code(tab)
    wait_offline(tab)
    scope = tab.page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)")
    assert scope == base
    assert [name.split("@", 1)[1] for name in cache_names(tab.page)] == ["/course/playground/"]

    site.stop()
    tab.page.reload()
    tab.wait_ready()
    run_graph_code(tab)
    outside = [path for path in site.paths if not path.startswith("/course/playground/")]
    assert site.paths and not outside
    assert not [url for url in tab.requests if not url.startswith((base, "data:"))]


def test_the_page_under_its_csp_sent_as_a_header_logs_no_violation(sites, tabs, site_dir):
    site = sites(site_dir, csp=page_csp(site_dir))
    tab = tabs(site.origin + "/", init_script=RECORD_CSP)
    tab.open()
    assert tab.responses[0].headers["content-security-policy"] == page_csp(site_dir)
    run_graph_code(tab)
    tab.testid("tab-steps").click()
    expect(tab.testid("steps")).to_be_visible()
    wait_offline(tab)  # the service worker registers and fills its cache under the policy too
    assert tab.page.evaluate("window.__csp") == []
    assert not [line for line in tab.console if "Content Security Policy" in line]
    assert not [url for url in tab.requests if not url.startswith((site.origin + "/", "data:"))]
    # The recorder works and the policy is in force: another origin's image is refused.
    tab.page.evaluate("document.body.appendChild(new Image()).src = 'http://127.0.0.1:9/probe.png'")
    for _ in range(50):
        if tab.page.evaluate("window.__csp.length"):
            break
        tab.page.wait_for_timeout(100)
    # Both the header and the meta refuse it.
    assert {v.split()[0] for v in tab.page.evaluate("window.__csp")} == {"img-src"}


def test_the_embed_under_its_csp_sent_as_a_header_logs_no_violation(sites, browser, site_dir):
    if not (site_dir / "embed.html").is_file():
        pytest.skip("web/dist/embed.html is not built yet (the embed is built in another part of issue 5)")
    site = sites(site_dir, csp=page_csp(site_dir, "embed.html"))
    context = browser.new_context(viewport={"width": 900, "height": 700}, locale="en-US")
    try:
        context.add_init_script(RECORD_CSP)
        requests, console = [], []
        context.on("request", lambda request: requests.append(request.url))
        page = context.new_page()
        page.on("console", lambda msg: console.append(msg.text))
        page.goto(site.origin + "/embed.html")
        expect(page.get_by_test_id("run")).to_be_enabled(timeout=LOAD_TIMEOUT_MS)
        page.evaluate("code => window.playground.setCode(code)", GRAPH_CODE)
        page.get_by_test_id("run").click()
        expect(page.get_by_test_id("output")).to_contain_text(GRAPH_OUTPUT, timeout=LOAD_TIMEOUT_MS)
        expect(page.get_by_test_id("graph").locator("svg.graph-svg")).to_have_count(1)
        assert page.evaluate("window.__csp") == []
        assert not [line for line in console if "Content Security Policy" in line]
        assert not [url for url in requests if not url.startswith((site.origin + "/", "data:"))]
    finally:
        context.close()


def test_an_update_waits_for_the_reload_button_and_a_failed_one_changes_nothing(sites, tabs,
                                                                                site_dir, tmp_path):
    root = tmp_path / "site"
    shutil.copytree(site_dir, root)
    site = sites(root)
    tab = tabs(site.origin + "/")
    tab.open()
    wait_offline(tab)
    old = sw_status(tab.page)["version"]
    sw_source = (root / "sw.js").read_text(encoding="utf-8")
    style = (root / "style.css").read_text(encoding="utf-8")
    fetch_style = "fetch('style.css').then((r) => r.text())"

    # A broken deployment (a file of the manifest is missing): its install fails, the old copy stays.
    (root / "style.css").unlink()
    (root / "sw.js").write_text(sw_source.replace(old, "badbadbadbadbad0"), encoding="utf-8")
    outcome = tab.page.evaluate("""async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        await reg.update().catch(() => {});
        for (let i = 0; i < 600 && reg.installing; i++) await new Promise((r) => setTimeout(r, 100));
        return {waiting: Boolean(reg.waiting), caches: await caches.keys()};
    }""")
    assert outcome == {"waiting": False, "caches": cache_names(tab.page)}
    assert len(outcome["caches"]) == 1 and old in outcome["caches"][0]
    expect(tab.page.locator("html")).to_have_attribute("data-offline", "ready")
    assert tab.page.evaluate(fetch_style) == style

    # A good one: saved in the background, announced, and used only after the button.
    (root / "style.css").write_text(style + "\n/* update marker */\n", encoding="utf-8")
    (root / "sw.js").write_text(sw_source.replace(old, "0123456789abcdef"), encoding="utf-8")
    tab.page.reload()
    tab.wait_ready()
    wait_offline(tab, "update")
    expect(tab.testid("offline").locator(".offline-text")).to_have_text("New version available")
    assert sw_status(tab.page)["version"] == old
    assert tab.page.evaluate(fetch_style) == style
    tab.testid("offline-reload").click()
    wait_offline(tab)  # only the reloaded page reports ready
    tab.wait_ready()
    assert sw_status(tab.page)["version"] == "0123456789abcdef"
    assert tab.page.evaluate(fetch_style).endswith("/* update marker */\n")
    assert len(cache_names(tab.page)) == 1 and "0123456789abcdef" in cache_names(tab.page)[0]
