"""Keyboard-only use of the page: every tab and every button is reached with Tab or Shift+Tab
(the arrow keys inside the tab list) and works with Enter or Space, as a learner without a
mouse would use it. test_learner.py checks the tab list's arrow keys, Ctrl+Enter from anywhere
and Tab indenting in the editor; here the whole page is walked."""

from playwright.sync_api import expect

from playground_helpers import LESSONS
from test_learner import restore_lesson_code

CODE = """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
s = y.sum()
print(s)
"""

IS_FOCUSED = "el => el === document.activeElement"
IN_EDITOR = "() => Boolean(document.activeElement && document.activeElement.closest('.cm-editor'))"
DESCRIBE_FOCUS = """() => {
  const el = document.activeElement;
  return el ? `${el.tagName.toLowerCase()}#${el.id}[${el.dataset.testid || el.getAttribute('aria-label') || ''}]` : 'none';
}"""


def tab_to(page, target, back=False, limit=80):
    """Presses Tab (Shift+Tab) until `target` has the focus; the editor keeps Tab for indenting,
    so from there Escape first, as its label says."""
    path = []
    for _ in range(limit):
        if target.evaluate(IS_FOCUSED):
            return
        if page.evaluate(IN_EDITOR):
            page.keyboard.press("Escape")
        page.keyboard.press("Shift+Tab" if back else "Tab")
        path.append(page.evaluate(DESCRIBE_FOCUS))
    raise AssertionError(f"{target} not reached with {'Shift+' if back else ''}Tab; focus went: {path}")


def press(page, target, key):
    """Presses `key` on `target` (reached already); the control keeps the focus, so a learner
    can press it again and knows where they are (a redrawn panel must give it back)."""
    assert target.evaluate(IS_FOCUSED), target
    page.keyboard.press(key)
    expect(target).to_be_focused()


def start_from_top(page):
    page.evaluate("() => document.activeElement && document.activeElement.blur()")


def graph_scale(playground):
    return playground.testid("graph").locator("g.viewport").get_attribute("transform")


def test_every_control_works_from_the_keyboard(playground):
    page = playground.page
    out = playground.testid("output")
    # A lesson picked starts clean (no choice an earlier test made in the shared tab's panels).
    playground.choose_lesson(LESSONS[0]["id"])
    playground.set_code(CODE)
    start_from_top(page)

    # Run, with Enter; then Shift+Tab back up to the lesson text's toggle, with Space.
    tab_to(page, playground.testid("run"))
    page.evaluate("document.querySelector('#run-info').textContent = ''")
    page.keyboard.press("Enter")
    expect(page.locator("#run-info")).not_to_be_empty()
    expect(out).to_contain_text("tensor(5., grad_fn=<SumBackward0>)")
    explain = page.locator("details.explain")
    tab_to(page, page.locator("#lesson-title"), back=True)
    page.keyboard.press("Space")
    expect(explain).not_to_have_attribute("open", "")
    page.keyboard.press("Enter")
    expect(explain).to_have_attribute("open", "")

    # The language switch, both ways.
    tab_to(page, page.locator('[data-lang="zh"]'), back=True)
    page.keyboard.press("Enter")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    tab_to(page, page.locator('[data-lang="en"]'), back=True)
    page.keyboard.press("Space")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    # The graph's zoom buttons and its nodes (buttons inside the SVG).
    graph = playground.testid("graph")
    before = graph_scale(playground)
    tab_to(page, graph.get_by_role("button", name="Zoom in"))
    press(page, graph.get_by_role("button", name="Zoom in"), "Enter")
    zoomed = graph_scale(playground)
    assert zoomed != before
    tab_to(page, graph.get_by_role("button", name="Zoom out"), back=True)
    press(page, graph.get_by_role("button", name="Zoom out"), "Space")
    assert graph_scale(playground) != zoomed
    tab_to(page, graph.get_by_role("button", name="Fit the graph"))
    press(page, graph.get_by_role("button", name="Fit the graph"), "Enter")
    assert graph_scale(playground) == before
    node = graph.locator('g.node.node-tensor[data-name="x"]')
    tab_to(page, node)
    press(page, node, "Enter")
    details = playground.testid("node-details")
    expect(details).to_be_visible()
    # "Use as input" moves to the Backward & Jacobian tab with x picked.
    tab_to(page, details.get_by_role("button", name="Jacobian w.r.t. this"))
    page.keyboard.press("Enter")
    expect(playground.testid("tab-backward")).to_have_attribute("aria-selected", "true")
    expect(playground.testid("jacobian-input")).to_have_value("x")
    # "Backward from here" on y (a vector: its one-hot picker has a cell per element).
    node_y = graph.locator('g.node.node-tensor[data-name="y"]')
    tab_to(page, node_y, back=True)
    press(page, node_y, "Space")
    expect(details.locator("h3")).to_have_text("y")
    tab_to(page, details.get_by_role("button", name="Backward from here"))
    page.keyboard.press("Enter")
    expect(playground.testid("backward-root")).to_have_value("y")
    tab_to(page, details.get_by_role("button", name="Close"), back=True)
    page.keyboard.press("Space")
    expect(details).to_be_hidden()

    # Backward & Jacobian: its buttons, then the arrow keys to Step-through.
    panel = playground.testid("backward")
    tab_to(page, panel.get_by_test_id("gradient-ones"))  # the radio group's checked button
    page.keyboard.press("ArrowRight")
    expect(panel.get_by_test_id("gradient-onehot")).to_be_checked()
    expect(panel.get_by_test_id("gradient-onehot")).to_be_focused()
    cell = panel.locator('.onehot-grid button[data-index="1"]')
    tab_to(page, cell)
    press(page, cell, "Space")
    expect(cell).to_have_attribute("aria-pressed", "true")
    tab_to(page, panel.get_by_test_id("backward-run"))
    press(page, panel.get_by_test_id("backward-run"), "Enter")
    expect(out).to_contain_text(".backward(")
    tab_to(page, panel.get_by_test_id("jacobian-build"))
    press(page, panel.get_by_test_id("jacobian-build"), "Space")
    expect(panel.get_by_test_id("jacobian-table")).to_have_attribute("data-filled", "2", timeout=10_000)
    tab_to(page, playground.testid("tab-backward"), back=True)
    page.keyboard.press("ArrowRight")
    expect(playground.testid("tab-steps")).to_be_focused()
    expect(playground.testid("steps")).to_be_visible()
    steps = playground.testid("steps")
    tab_to(page, steps.get_by_test_id("step-next"))
    position = steps.get_by_test_id("step-pos").inner_text()
    press(page, steps.get_by_test_id("step-next"), "Enter")
    second = steps.get_by_test_id("step-pos").inner_text()
    assert second != position
    press(page, steps.get_by_test_id("step-next"), "Enter")
    tab_to(page, steps.get_by_test_id("step-back"), back=True)
    press(page, steps.get_by_test_id("step-back"), "Space")
    expect(steps.get_by_test_id("step-pos")).to_have_text(second)
    tab_to(page, steps.get_by_test_id("step-restart"), back=True)
    page.keyboard.press("Enter")
    expect(steps.get_by_test_id("step-pos")).to_have_text(position)
    tab_to(page, playground.testid("tab-steps"), back=True)
    page.keyboard.press("Home")
    expect(playground.testid("tab-grads")).to_be_focused()
    expect(playground.testid("grads")).to_be_visible()

    # The console line, Clear and Reset.
    tab_to(page, playground.testid("console-input"), back=True)
    page.keyboard.type("s.item() * 10")
    page.keyboard.press("Enter")
    expect(out).to_contain_text("50.0")
    tab_to(page, page.locator("#clear"), back=True)
    press(page, page.locator("#clear"), "Space")
    expect(out).to_have_text("")
    tab_to(page, playground.testid("reset"), back=True)
    page.keyboard.press("Enter")
    expect(out).to_contain_text("Namespace reset")

    # Copy link.
    tab_to(page, playground.testid("copy-link"))
    press(page, playground.testid("copy-link"), "Enter")
    expect(playground.testid("share-feedback")).not_to_be_empty()

    # Stop: a loop started with Ctrl+Enter, stopped from the keyboard.
    playground.set_code("while True:\n    pass\n")
    page.keyboard.press("Control+Enter")
    expect(playground.testid("stop")).to_be_enabled()
    tab_to(page, playground.testid("stop"), back=True)
    page.keyboard.press("Space")
    expect(playground.testid("status")).to_have_attribute("data-state", "ready", timeout=30_000)

    # Original code, and its undo, after typing in the editor.
    start_from_top(page)
    tab_to(page, page.locator(".cm-content"))
    page.keyboard.press("Control+End")
    page.keyboard.type("# typed")
    typed = playground.get_code()
    tab_to(page, page.locator("#restore"), back=True)
    page.keyboard.press("Enter")
    assert playground.get_code() != typed
    undo = playground.testid("restore-undo")
    tab_to(page, undo)
    page.keyboard.press("Enter")
    assert playground.get_code() == typed
    restore_lesson_code(playground)


def test_embed_controls_work_from_the_keyboard(playground):
    """embed.html by itself: Run, Stop, Expand and the graph's nodes."""
    page = playground.page.context.new_page()
    try:
        page.goto(playground.url + "embed.html")
        run = page.get_by_test_id("run")
        expect(run).to_be_enabled(timeout=90_000)
        page.evaluate("code => window.playground.setCode(code)", CODE)
        start_from_top(page)
        tab_to(page, run)
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("output")).to_contain_text("tensor(5.", timeout=60_000)
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready")
        expand = page.get_by_test_id("expand")
        tab_to(page, expand)
        page.keyboard.press("Space")
        expect(expand).to_have_attribute("aria-expanded", "true")
        node = page.get_by_test_id("graph").locator('g.node.node-tensor[data-name="s"]')
        tab_to(page, node)
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("graph").locator("g.node.selected")).to_have_count(1)
        tab_to(page, expand, back=True)
        page.keyboard.press("Enter")
        expect(expand).to_have_attribute("aria-expanded", "false")
        page.evaluate("code => window.playground.setCode(code)", "while True:\n    pass\n")
        tab_to(page, run, back=True)
        page.keyboard.press("Enter")
        stop = page.get_by_test_id("stop")
        expect(stop).to_be_enabled()
        tab_to(page, stop)
        page.keyboard.press("Space")
        expect(page.get_by_test_id("status")).to_have_attribute("data-state", "ready", timeout=60_000)
    finally:
        page.close()
