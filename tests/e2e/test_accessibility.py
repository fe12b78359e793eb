"""axe-core (from npm, web/node_modules/axe-core) finds no accessibility violation on the main
page: before and after a run, with each tab open, in both languages."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"

RUN_AXE = """async () => {
  const result = await axe.run(document);
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}"""


def violations(page):
    if not page.evaluate("typeof axe !== 'undefined'"):
        # Evaluated through the DevTools protocol, which the page's CSP does not govern.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    return page.evaluate(RUN_AXE)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_main_page_has_no_axe_violations(playground, lang):
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `npm ci --prefix web`", pytrace=False)
    page = playground.page
    page.locator(f'[data-lang="{lang}"]').click()
    try:
        playground.testid("lessons").select_option("retain-graph")  # ends in an error: alert shown
        # A cursor in the editor, on a two-digit line (axe skips one-digit text): the active line's number.
        page.locator(".cm-line").nth(9).click()
        assert violations(page) == [], "before a run"
        playground.click_run()
        for tab in ("grads", "backward", "steps"):
            playground.testid(f"tab-{tab}").click()
            expect(playground.testid(tab)).to_be_visible()
            assert violations(page) == [], f"after a run, {tab} tab"
    finally:
        playground.testid("tab-grads").click()
        page.locator('[data-lang="en"]').click()


def embed_frame(page, index):
    return page.locator("autograd-playground").nth(index).locator("iframe").element_handle().content_frame()


@pytest.mark.parametrize("width", [1024, 390])
def test_course_page_and_its_examples_have_no_axe_violations(browser, server_url, width):
    """examples/course.html and each embed.html in it (one is in Chinese), before and after a run."""
    context = browser.new_context(viewport={"width": width, "height": 844}, locale="en-US",
                                  service_workers="block")
    try:
        page = context.new_page()
        page.goto(server_url + "examples/course.html")
        embeds = page.locator("autograd-playground")
        assert violations(page) == [], "course page, examples not loaded yet"
        langs = set()
        for index in range(embeds.count()):
            embeds.nth(index).scroll_into_view_if_needed()
            frame = page.frame_locator(f"autograd-playground >> nth={index} >> iframe")
            expect(frame.locator("#run")).to_be_enabled(timeout=90_000)
            inner = embed_frame(page, index)
            langs.add(inner.evaluate("document.documentElement.lang"))
            assert violations(inner) == [], (index, "before a run")
            frame.locator("#run").click()
            expect(frame.locator("#output")).not_to_be_empty(timeout=60_000)
            expect(frame.locator("#status")).to_have_attribute("data-state", "ready", timeout=60_000)
            assert violations(inner) == [], (index, "after a run")
            if index == 0:
                frame.locator("#expand").click()
                expect(frame.locator("#expand")).to_have_attribute("aria-expanded", "true")
                assert violations(inner) == [], (index, "expanded")
        assert langs == {"en", "zh-Hans"}
        # The whole page, its examples included (axe goes into the frames it was loaded in).
        assert violations(page) == [], "course page with every example run"
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_embed_page_alone_has_no_axe_violations(browser, server_url, locale):
    context = browser.new_context(viewport={"width": 800, "height": 700}, locale=locale,
                                  service_workers="block")
    try:
        page = context.new_page()
        page.goto(server_url + "embed.html")
        expect(page.get_by_test_id("run")).to_be_enabled(timeout=90_000)
        assert violations(page) == [], "before a run"
        page.evaluate("code => window.playground.setCode(code)",
                      "import torch\nx = torch.ones(3, requires_grad=True)\n(x * 2).sum().backward()\nprint(x.grad)\n")
        page.get_by_test_id("run").click()
        expect(page.get_by_test_id("output")).to_contain_text("tensor([2., 2., 2.])", timeout=60_000)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready")
        assert violations(page) == [], "after a run"
    finally:
        context.close()


SCROLLABLE_ONLY = """async () => {
  const result = await axe.run(document, {runOnly: ["scrollable-region-focusable"]});
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}"""


def test_every_lesson_text_that_scrolls_can_be_reached_by_keyboard(playground):
    # A long lesson text scrolls inside its box; it takes focus only then, so axe finds no
    # scrollable region a keyboard user cannot reach, and short texts stay out of the tab order.
    page = playground.page
    page.set_viewport_size({"width": 1440, "height": 900})
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    lessons = playground.testid("lessons").locator("option").evaluate_all("os => os.map(o => o.value)")
    scrolling = 0
    try:
        for lang in ("en", "zh"):
            page.locator(f'[data-lang="{lang}"]').click()
            for lesson in lessons:
                playground.testid("lessons").select_option(lesson)
                text = page.locator("#lesson-text")
                scrolls = text.evaluate("el => el.scrollHeight > el.clientHeight + 1")
                assert (text.get_attribute("tabindex") == "0") == scrolls, (lang, lesson)
                scrolling += scrolls
                assert page.evaluate(SCROLLABLE_ONLY) == [], (lang, lesson)
    finally:
        page.locator('[data-lang="en"]').click()
        page.set_viewport_size({"width": 1400, "height": 860})  # the session page's size (playground_helpers)
    assert scrolling, "no lesson text scrolls at 1440x900: the test checks nothing"
