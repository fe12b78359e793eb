"""The page at phone, tablet, laptop and desktop sizes, in English and Chinese: the editor shows
at least 8 lines, Run is visible and takes the click, nothing scrolls sideways, and from 1024 px on
the header is one row."""

import pytest
from playwright.sync_api import expect

SIZES = [(390, 844), (800, 900), (1024, 768), (1440, 900)]

MEASURE = """() => {
  const scroller = document.querySelector('#editor .cm-scroller');
  const lineHeight = document.querySelector('#editor .cm-line').getBoundingClientRect().height;
  const padding = parseFloat(getComputedStyle(document.querySelector('#editor .cm-content')).paddingTop) * 2;
  const run = document.querySelector('#run').getBoundingClientRect();
  const x = run.left + run.width / 2, y = run.top + run.height / 2;
  const hit = document.elementFromPoint(x, y);
  const root = document.documentElement;
  // Rows of the header: its visible items, grouped by where they start.
  const tops = [...document.querySelector('.topbar').children]
    .map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0).map((r) => r.top);
  const headerRows = tops.sort((a, b) => a - b).filter((top, i) => i === 0 || top - tops[i - 1] > 20).length;
  return {
    headerRows,
    lines: (scroller.clientHeight - padding) / lineHeight,
    runInView: x > 0 && x < innerWidth && y > 0 && y < innerHeight,
    runTakesClick: Boolean(hit && hit.closest('#run')),
    sideways: root.scrollWidth - root.clientWidth,
  };
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_screen_size_shows_the_editor_and_run(playground, results_dir, lang):
    page = playground.page
    original = playground.get_code()
    page.locator(f'[data-lang="{lang}"]').click()
    try:
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            expect(playground.testid("run")).to_be_visible()
            measured = page.evaluate(MEASURE)
            page.screenshot(path=str(results_dir / f"layout-{lang}-{width}x{height}.png"))
            assert measured["lines"] >= 8, (width, height, measured)
            assert measured["runInView"] and measured["runTakesClick"], (width, height, measured)
            assert measured["sideways"] == 0, (width, height, measured)
            if width >= 1024:  # the language buttons and the status stay beside the lesson picker
                assert measured["headerRows"] == 1, (width, height, measured)
            if width == 390:  # and Run really runs from there
                playground.set_code("print('from a phone')\n")
                assert "from a phone" in playground.click_run()
    finally:
        playground.set_code(original)  # no draft left behind for the other tests
        page.set_viewport_size({"width": 1400, "height": 860})
        page.locator('[data-lang="en"]').click()


GRAPH_BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.width, r.height]; };
  const canvas = document.querySelector('#graph .graph-canvas');
  const svg = canvas.querySelector('svg.graph-svg');
  return { canvas: box(canvas), svg: box(svg), style: [svg.style.width, svg.style.height] };
}"""


def test_the_graph_drawing_fills_its_canvas_in_px_at_every_size(playground):
    """The page's graph drawing is sized in px (pan_zoom.js pinSize: a percentage-sized SVG is laid
    out anew, all its text, whenever its pane is) and follows its canvas: the window's size, and
    the node details opening beside it."""
    page = playground.page
    original = playground.get_code()
    try:
        assert playground.run("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\n")["ok"]
        expect(playground.testid("graph").locator("g.node")).not_to_have_count(0)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            boxes = page.evaluate(GRAPH_BOXES)
            assert boxes["style"][0].endswith("px") and boxes["style"][1].endswith("px"), (width, boxes)
            assert boxes["svg"] == pytest.approx(boxes["canvas"], abs=0.5), (width, boxes)
        page.set_viewport_size({"width": 1400, "height": 860})
        before = page.evaluate(GRAPH_BOXES)
        playground.testid("graph").locator("g.node.node-tensor").first.click()
        expect(playground.testid("node-details")).to_be_visible()
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        after = page.evaluate(GRAPH_BOXES)
        assert after["canvas"][0] < before["canvas"][0], (before, after)
        assert after["svg"] == pytest.approx(after["canvas"], abs=0.5), after
    finally:
        page.set_viewport_size({"width": 1400, "height": 860})
        playground.set_code(original)  # no draft left behind for the other tests


FORWARD_BOXES = GRAPH_BOXES.replace("#graph .graph-canvas", "#forward-graph .graph-canvas")


def test_the_forward_view_fills_its_canvas_in_px(playground):
    """The forward-mode view's drawing is pinned in px as the graph's is (a forward-mode lesson's
    view of a few hundred ops had its every text laid out again by each layout of the pane)."""
    page = playground.page
    original = playground.get_code()
    try:
        assert playground.run("import torch\nimport torch.autograd.forward_ad as fwAD\n"
                              "with fwAD.dual_level():\n"
                              "    y = fwAD.make_dual(torch.ones(2), torch.ones(2)).sin() * 2\n")["ok"]
        expect(playground.testid("forward-graph")).to_be_visible()
        for width, height in SIZES[:2]:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            boxes = page.evaluate(FORWARD_BOXES)
            assert boxes["style"][0].endswith("px") and boxes["style"][1].endswith("px"), (width, boxes)
            assert boxes["svg"] == pytest.approx(boxes["canvas"], abs=0.5), (width, boxes)
    finally:
        page.set_viewport_size({"width": 1400, "height": 860})
        playground.set_code(original)  # no draft left behind for the other tests
