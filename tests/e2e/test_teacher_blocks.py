"""Marked code blocks in a real MkDocs + Material site become live examples.

The course is built by `mkdocs build` with the autograd-playground plugin copying the
playground under test (PLAYGROUND_DIST) into it, line numbers on, and served over HTTP.
Each marked block must become an embed whose editor holds exactly the listing's code (the
`# autograd:` options line removed), with its options applied, while the listing stays as
drawn until the frame has drawn and comes back for printing.
"""

import functools
import html
import socket
import subprocess
import sys
import textwrap
import threading

import pytest
from playwright.sync_api import expect

from conftest import _Handler, _Server, _serve

pytest.importorskip("mkdocs")
pytest.importorskip("material")

RUN_TIMEOUT_MS = 90_000


class _NoStore(_Handler):
    def end_headers(self):
        self.send_header("Cache-Control", "no-store")  # Chromium's HTTP cache must not stand in
        super().end_headers()


CODE = textwrap.dedent('''\
    import torch

    class Square:
        def __init__(self, p):
            self.p = p

    x = torch.tensor(3.0, requires_grad=True)
    y = x ** Square(2).p  # 平方
    print(y < 10, y > 3 & True, "x's grad:")
    y.backward()
    print(x.grad)  # 梯度 = 2x
''')
RAW_CODE = "import torch\na = torch.ones(2, requires_grad=True)\nprint((a * 2 < 3).all() & True)\n"
# The README's <autograd-playground> element, pasted into a Markdown page as is.
ELEMENT_CODE = "import torch\nprint(torch.ones(2) < 2, 'a & b')"

MKDOCS_YML = """\
site_name: Autograd course
theme: {name: material}
markdown_extensions:
  - attr_list
  - md_in_html
  - pymdownx.highlight: {linenums: true}
  - pymdownx.superfences
plugins:
  - autograd-playground:
      playground_site: %s
"""
PAGE = f"""# Live examples

Prose before.

```python {{.autograd}}
# autograd: show=grads autorun lang=zh
{CODE}```

Prose between.

<pre class="autograd" data-readonly data-show="none"><code>{html.escape(RAW_CODE, quote=False)}</code></pre>

Prose after.

<autograd-playground show="none">
<script type="text/x-python">
{ELEMENT_CODE}
</script>
</autograd-playground>

The end.
"""


@pytest.fixture(scope="module")
def course_site(site_dir, tmp_path_factory):
    root = tmp_path_factory.mktemp("mkdocs-course")
    (root / "docs").mkdir()
    (root / "mkdocs.yml").write_text(MKDOCS_YML % site_dir, encoding="utf-8")
    (root / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=root,
                            capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    return root / "site"


@pytest.fixture(scope="module")
def course_url(course_site):
    server = _serve(course_site, isolated=False)
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US",
                                  service_workers="block")
    yield context.new_page()
    context.close()


def test_marked_blocks_become_live_examples_with_their_exact_code(page, course_url):
    page.goto(course_url)
    listings = page.locator(".autograd")
    expect(listings).to_have_count(2)
    embeds = page.locator("autograd-playground")
    expect(embeds).to_have_count(3)

    first = page.frame_locator("autograd-playground >> nth=0 >> iframe")
    expect(first.locator("#editor")).to_be_visible(timeout=RUN_TIMEOUT_MS)
    # Once the frame has drawn, it stands in the listing's place; the listing is only hidden.
    expect(listings.nth(0)).to_be_hidden()
    expect(embeds.nth(0)).to_be_visible()
    assert first.locator("body").evaluate("() => window.playground.getCode()") == CODE.rstrip("\n")
    # autorun, lang=zh and show=grads came from the options line.
    expect(first.locator("#output")).to_contain_text("tensor(6.)", timeout=RUN_TIMEOUT_MS)
    assert "tensor(True) tensor(True) x's grad:" in first.locator("#output").inner_text()
    assert first.locator("html").get_attribute("lang") == "zh-Hans"
    expect(first.locator("#grads")).to_be_visible()
    expect(first.locator("#graph")).to_be_hidden()

    # The raw-HTML form, its options from data-* attributes.
    embeds.nth(1).scroll_into_view_if_needed()
    second = page.frame_locator("autograd-playground >> nth=1 >> iframe")
    expect(second.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    assert second.locator("body").evaluate("() => window.playground.getCode()") == RAW_CODE.rstrip("\n")
    expect(second.locator("#viz")).to_be_hidden()
    second.locator(".cm-content").click()
    page.keyboard.type("oops")  # readonly
    assert second.locator("body").evaluate("() => window.playground.getCode()") == RAW_CODE.rstrip("\n")
    second.locator("#run").click()
    expect(second.locator("#output")).to_have_text("tensor(True)", timeout=RUN_TIMEOUT_MS)

    # The raw <autograd-playground> element survives Python-Markdown (the plugin unwraps its <p>s).
    embeds.nth(2).scroll_into_view_if_needed()
    third = page.frame_locator("autograd-playground >> nth=2 >> iframe")
    expect(third.locator("#run")).to_be_enabled(timeout=RUN_TIMEOUT_MS)
    assert third.locator("body").evaluate("() => window.playground.getCode()") == ELEMENT_CODE
    third.locator("#run").click()
    expect(third.locator("#output")).to_have_text("tensor([True, True]) a & b", timeout=RUN_TIMEOUT_MS)

    # Printing shows the listings, not the frames.
    page.emulate_media(media="print")
    expect(listings.nth(0)).to_be_visible()
    expect(embeds.nth(0)).to_be_hidden()


def test_listing_stays_as_drawn_until_the_example_loads(browser, course_url):
    # Without JavaScript the page is the generator's: highlighted listings, no embeds.
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(course_url)
    expect(page.locator(".autograd").nth(0)).to_be_visible()
    assert page.locator("autograd-playground").count() == 1  # the page's own element only
    context.close()
    # With it, a block whose frame cannot load (embed.html missing) keeps its listing, unmoved.
    context = browser.new_context(viewport={"width": 1100, "height": 900}, service_workers="block")
    page = context.new_page()
    page.route("**/embed.html*", lambda route: route.abort())
    page.goto(course_url)
    box = page.locator(".autograd").nth(0).bounding_box()
    expect(page.locator("autograd-playground")).to_have_count(3)
    page.wait_for_timeout(1500)
    expect(page.locator(".autograd").nth(0)).to_be_visible()
    assert page.locator(".autograd").nth(0).bounding_box() == box
    expect(page.locator("autograd-playground").nth(0)).to_have_attribute("data-pending", "")
    context.close()


def test_the_course_works_offline_after_the_first_visit(browser, course_site):
    # A server of its own, shut down for real after the first visit (as in test_offline.py).
    server = _Server(("127.0.0.1", 0), functools.partial(_NoStore, directory=str(course_site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US")
    page = context.new_page()
    page.goto(url)
    first = page.frame_locator("autograd-playground >> nth=0 >> iframe")
    expect(first.locator("#output")).to_contain_text("tensor(6.)", timeout=RUN_TIMEOUT_MS)
    expect(first.locator("html")).to_have_attribute("data-offline", "ready", timeout=RUN_TIMEOUT_MS)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=RUN_TIMEOUT_MS)
    page.close()
    server.shutdown()
    server.server_close()

    page = context.new_page()
    page.goto(url)  # a folder address: the worker answers with its index.html
    first = page.frame_locator("autograd-playground >> nth=0 >> iframe")
    expect(first.locator("#output")).to_contain_text("tensor(6.)", timeout=RUN_TIMEOUT_MS)
    assert first.locator("body").evaluate("() => window.playground.getCode()") == CODE.rstrip("\n")
    context.close()


def test_instant_navigation_upgrades_the_blocks_of_the_page_it_swaps_to(browser, site_dir, tmp_path):
    # Material navigates instantly only to its sitemap's pages, named by site_url: build for the
    # address the site will be served at.
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    root = tmp_path / "instant"
    (root / "docs").mkdir(parents=True)
    config = f"site_url: http://127.0.0.1:{port}/\n" + (MKDOCS_YML % site_dir).replace(
        "theme: {name: material}", "theme: {name: material, features: [navigation.instant]}")
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    (root / "docs" / "index.md").write_text("# Home\n\n[The lesson](lesson.md)\n", encoding="utf-8")
    (root / "docs" / "lesson.md").write_text(PAGE, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=root,
                            capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    server = _Server(("127.0.0.1", port), functools.partial(_Handler, directory=str(root / "site")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-US", service_workers="block")
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_load_state("networkidle")  # Material has read its sitemap
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("link", name="The lesson").click()
    expect(page.locator("h1")).to_have_text("Live examples")
    assert page.evaluate("window.__sameDocument") is True  # swapped in place, not loaded
    first = page.frame_locator("autograd-playground >> nth=0 >> iframe")
    expect(first.locator("#output")).to_contain_text("tensor(6.)", timeout=RUN_TIMEOUT_MS)
    assert first.locator("body").evaluate("() => window.playground.getCode()") == CODE.rstrip("\n")
    expect(page.locator("autograd-playground")).to_have_count(3)
    context.close()
    server.shutdown()
    server.server_close()
