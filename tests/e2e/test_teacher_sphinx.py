"""Marked code blocks in real Sphinx sites (default theme and furo, reST and MyST) become live examples.

Each course is built by `sphinx-build` with the autograd_playground.sphinx extension copying the
playground under test (PLAYGROUND_DIST) into it, and served over HTTP by a server that counts
requests per path (a SharedWorker's fetches are invisible to Playwright). Each marked block
must become an embed whose editor holds exactly the listing's code (the `# autograd:` options
line removed), with its options applied; a page loads one Pyodide; the course works offline
after the first visit; an LMS page's iframe (autograd_playground.lms) shows its example.
"""

import collections
import functools
import subprocess
import sys
import textwrap
import threading

import pytest
from playwright.sync_api import expect

from conftest import _Handler, _Server

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")
pytest.importorskip("furo")

from autograd_playground.lms import iframe_html  # noqa: E402

RUN_TIMEOUT_MS = 90_000
# Powers, dunders, <, &, a tab, Chinese comments and a quote, all of which a listing may garble.
CODE = textwrap.dedent('''\
    import torch

    class Square:
        def __init__(self, p):
        \tself.p = p  # 一个制表符 (a tab)

    x = torch.tensor(3.0, requires_grad=True)
    y = x ** Square(2).p  # 平方
    print(y < 10, y > 3 & True, "x's grad:")
    y.backward()
    print(x.grad)  # 梯度 = 2x
''')
CODE2 = 'import torch\na = torch.ones(2, requires_grad=True)\nprint((a * 2 < 3).all() & True, "__init__" in dir(object))\n'
OPTIONS1 = "# autograd: show=grads autorun lang=zh"
OPTIONS2 = "# autograd: show=graph readonly height=220 lang=en"
CONF = """\
project = "Autograd course"
extensions = ["myst_parser", "autograd_playground.sphinx"]
html_theme = {theme!r}
autograd_playground_site = {playground!r}
"""
INDEX = "Autograd course\n===============\n\n.. toctree::\n\n   rest\n   myst\n"


def rest_page():
    def block(options, code, extra=""):
        return f".. code-block:: python\n   :class: autograd\n{extra}\n" + textwrap.indent(f"{options}\n{code}", "   ")
    return (f"reST examples\n=============\n\nProse before.\n\n{block(OPTIONS1, CODE)}\nProse between.\n\n"
            f"{block(OPTIONS2, CODE2, '   :linenos:' + chr(10))}\nProse after.\n")


def myst_page():
    return (f"# MyST examples\n\nProse before.\n\n```{{code-block}} python\n:class: autograd\n{OPTIONS1}\n{CODE}```\n\n"
            f"Prose between.\n\n```{{code-cell}} python\n:class: autograd\n:linenos:\n{OPTIONS2}\n{CODE2}```\n\n"
            f"Prose after.\n\n{ELEMENT}")


# README's element form, as raw HTML in a MyST page (one HTML block: no blank line inside).
ELEMENT_CODE = "import torch\nprint(torch.ones(2) < 2, 'a & b')"
ELEMENT = f"""<autograd-playground show="none">
<script type="text/x-python">
{ELEMENT_CODE}
</script>
</autograd-playground>
"""


# What each listing draws, so what each editor must hold: docutils expands a reST file's tabs
# (8 columns of the file, whose lines the directive indents by 3); MyST keeps them.
EXPECTED = {
    "rest": "\n".join(line.expandtabs(8)[3:] for line in textwrap.indent(CODE, "   ", lambda _: True).splitlines()),
    "myst": CODE.rstrip("\n"),
}


class _CountingHandler(_Handler):
    counts = None  # a Counter per server

    def send_head(self):
        self.counts[self.path.split("?")[0].split("#")[0]] += 1
        return super().send_head()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")  # every load reaches the server
        super().end_headers()


class Site:
    """A counting server over one folder; ``stop()`` takes it away for real."""

    def __init__(self, root):
        self.counts = collections.Counter()
        handler = type("Counting", (_CountingHandler,), {"counts": self.counts})
        self.server = _Server(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        self.running = True

    def stop(self):
        if self.running:
            self.running = False
            self.server.shutdown()
            self.server.server_close()


@pytest.fixture(scope="module")
def built(site_dir, tmp_path_factory):
    """theme -> the built course's folder."""
    out = {}
    for theme in ("alabaster", "furo"):
        root = tmp_path_factory.mktemp(f"sphinx-{theme}")
        (root / "conf.py").write_text(CONF.format(theme=theme, playground=str(site_dir)), encoding="utf-8")
        (root / "index.rst").write_text(INDEX, encoding="utf-8")
        (root / "rest.rst").write_text(rest_page(), encoding="utf-8")
        (root / "myst.md").write_text(myst_page(), encoding="utf-8")
        result = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "-b", "html", ".", "_build/html"],
                                cwd=root, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        out[theme] = root / "_build" / "html"
    return out


@pytest.fixture()
def site(request):
    made = []

    def serve(root):
        made.append(Site(root))
        return made[-1]

    yield serve
    for one in made:
        one.stop()


def frame(page, index):
    return page.frame_locator(f"autograd-playground >> nth={index} >> iframe")


def code_in(frame_locator):
    return frame_locator.locator("body").evaluate("() => window.playground.getCode()")


@pytest.mark.parametrize("theme", ["alabaster", "furo"])
@pytest.mark.parametrize("kind", ["rest", "myst"])
def test_marked_blocks_become_live_examples_with_their_exact_code(browser, built, site, theme, kind):
    served = site(built[theme])
    # No offline copy here: its precache would download every file once more and blur the counts.
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US", service_workers="block")
    page = context.new_page()
    page.goto(f"{served.url}{kind}.html")
    listings = page.locator(".autograd")
    expect(listings).to_have_count(2)
    embeds = page.locator("autograd-playground")
    expect(embeds).to_have_count(3 if kind == "myst" else 2)

    first = frame(page, 0)
    expect(first.locator("#editor")).to_be_visible(timeout=RUN_TIMEOUT_MS)
    expect(listings.nth(0)).to_be_hidden()  # the frame stands in the listing's place once drawn
    assert code_in(first) == EXPECTED[kind]
    # autorun, lang=zh and show=grads came from the options line.
    expect(first.locator("#output")).to_contain_text("tensor(6.)", timeout=RUN_TIMEOUT_MS)
    assert "tensor(True) tensor(True) x's grad:" in first.locator("#output").inner_text()
    assert first.locator("html").get_attribute("lang") == "zh-Hans"
    expect(first.locator("#grads")).to_be_visible()
    expect(first.locator("#graph")).to_be_hidden()

    # Line numbers drawn by Sphinx are not code; readonly, height, show=graph and lang=en apply.
    embeds.nth(1).scroll_into_view_if_needed()
    second = frame(page, 1)
    expect(second.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    assert code_in(second) == CODE2.rstrip("\n")
    assert second.locator("html").get_attribute("lang") == "en"
    height = second.locator("#editor").evaluate("el => el.getBoundingClientRect().height")
    assert abs(height - 220) <= 1, height
    second.locator(".cm-content").click()
    page.keyboard.type("oops")
    assert code_in(second) == CODE2.rstrip("\n")
    second.locator("#run").click()
    expect(second.locator("#output")).to_have_text("tensor(True) True", timeout=RUN_TIMEOUT_MS)
    expect(second.locator("#graph")).to_be_visible()
    expect(second.locator("#grads")).to_be_hidden()
    expect(second.locator("#graph svg.graph-svg")).to_have_count(1)

    if kind == "myst":
        embeds.nth(2).scroll_into_view_if_needed()
        third = frame(page, 2)
        expect(third.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
        assert code_in(third) == ELEMENT_CODE
        third.locator("#run").click()
        expect(third.locator("#output")).to_have_text("tensor([True, True]) a & b", timeout=RUN_TIMEOUT_MS)
        expect(third.locator("#viz")).to_be_hidden()

    # One Pyodide for the page's examples, counted at the server.
    assert served.counts["/playground/pyodide/pyodide.asm.wasm"] == 1, served.counts
    assert served.counts["/playground/embed.html"] == embeds.count()
    assert served.counts["/playground/embed.js"] == 1
    context.close()


def test_a_page_without_marked_blocks_loads_no_playground(browser, built, site):
    served = site(built["furo"])
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(served.url)
    expect(page.locator("h1")).to_contain_text("Autograd course")
    page.wait_for_timeout(500)
    assert not [path for path in served.counts if path.startswith("/playground/")], served.counts
    context.close()


def test_the_course_works_offline_after_the_first_visit(browser, built, site):
    served = site(built["furo"])
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    page = context.new_page()
    page.goto(f"{served.url}myst.html")
    first = frame(page, 0)
    expect(first.locator("#output")).to_contain_text("tensor(6.)", timeout=RUN_TIMEOUT_MS)
    # The playground's copy (its own worker, registered by the frame) and the course's.
    expect(first.locator("html")).to_have_attribute("data-offline", "ready", timeout=RUN_TIMEOUT_MS)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=RUN_TIMEOUT_MS)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == served.url
    page.close()

    served.stop()
    page = context.new_page()
    page.goto(f"{served.url}myst.html")
    expect(page.locator("h1")).to_contain_text("MyST examples")
    first = frame(page, 0)
    expect(first.locator("#output")).to_contain_text("tensor(6.)", timeout=RUN_TIMEOUT_MS)
    assert code_in(first) == EXPECTED["myst"]
    page.locator("autograd-playground").nth(1).scroll_into_view_if_needed()
    second = frame(page, 1)
    expect(second.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    second.locator("#run").click()
    expect(second.locator("#output")).to_have_text("tensor(True) True", timeout=RUN_TIMEOUT_MS)
    # Every page of the course was saved, not only the one visited.
    page.goto(f"{served.url}rest.html")
    expect(page.locator("h1")).to_contain_text("reST examples")
    expect(page.locator("autograd-playground")).to_have_count(2)
    page.goto(served.url)
    expect(page.locator("h1")).to_contain_text("Autograd course")
    context.close()


def test_an_lms_iframe_shows_its_example(browser, built, site, tmp_path):
    served = site(built["alabaster"])
    code = CODE.expandtabs(4)
    lms = tmp_path / "lms"
    lms.mkdir()
    options = {"show": "grads", "autorun": True, "lang": "zh"}
    (lms / "quiz.html").write_text(
        "<!doctype html><meta charset=utf-8><title>Quiz</title><h1>Week 3</h1>"
        + iframe_html(f"{served.url}playground/", code, frame_height=600, **options), encoding="utf-8")
    host = site(lms)  # another origin, as an LMS is
    context = browser.new_context(viewport={"width": 1100, "height": 900}, service_workers="block")
    page = context.new_page()
    page.goto(f"{host.url}quiz.html")
    lms_frame = page.frame_locator("iframe")
    expect(lms_frame.locator("#output")).to_contain_text("tensor(6.)", timeout=RUN_TIMEOUT_MS)
    assert code_in(lms_frame) == code  # as given, to the character
    assert lms_frame.locator("html").get_attribute("lang") == "zh-Hans"
    expect(lms_frame.locator("#graph")).to_be_hidden()
    context.close()
