"""Forward mode in the page: the graph area's forward view (each value beside its tangent) and
the "Forward vs reverse" panel (one Jacobian built by JVPs and by VJPs, the passes counted), in
the real page (Pyodide + autograd_py), from the mouse and from the keyboard, in both languages."""

import pytest
from playwright.sync_api import expect

from playground_helpers import LESSONS, assert_in_order
from test_accessibility import AXE, violations
from test_keyboard import press, tab_to
from test_learner import restore_lesson_code

DUAL = """\
import torch
import torch.autograd.forward_ad as fwAD
x = torch.tensor([1., 2., 3.])
v = torch.tensor([1., 0., 0.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    y = d.sin() * d
    out, jvp = fwAD.unpack_dual(y)
print(jvp)
"""

# R^3 -> R^2: forward mode needs 3 JVPs (a column each), reverse mode 1 forward + 2 VJPs (a row each).
MODES = """\
import torch
def f(x):
    return x[:2] * x[1:].sin()
def h(x):
    return 3
x = torch.tensor([1., 2., 3.])
k = torch.arange(3)
"""
# d f / d x at x = (1, 2, 3): [[sin 2, cos 2, 0], [0, sin 3, 2 cos 3]], as torch prints it
JACOBIAN = [["0.9093", "-0.4161", "0."], ["0.", "0.1411", "-1.98"]]


def lesson(lesson_id):
    return next(item for item in LESSONS if item["id"] == lesson_id)


def cells(table):
    return [row.locator("td").all_inner_texts() for row in table.locator("tbody tr").all()]


def open_modes(playground):
    playground.testid("modes-tab").click()
    expect(playground.testid("modes")).to_be_visible()
    return playground.testid("modes")


def build(panel, function, tensor):
    panel.get_by_test_id("modes-function").select_option(function)
    panel.get_by_test_id("modes-input").select_option(tensor)
    panel.get_by_test_id("modes-build").click()


@pytest.fixture
def clean(playground):
    yield playground
    playground.testid("tab-grads").click()
    playground.page.locator('[data-lang="en"]').click()
    restore_lesson_code(playground)  # no draft left under a lesson for the other tests


def test_forward_view_shows_each_value_beside_its_tangent(clean):
    playground = clean
    playground.set_code(DUAL)
    assert "tensor([1.3818, 0.0000, 0.0000])" in playground.click_run()
    # No grad_fn anywhere: the graph area opens on the forward view.
    view = playground.testid("forward-graph")
    expect(view).to_be_visible()
    expect(playground.testid("graph")).to_be_hidden()
    expect(playground.testid("graph-mode-forward")).to_have_attribute("aria-selected", "true")
    y = view.locator('g.node[data-name="y"]')
    expect(y.locator('[data-part="value"]')).to_have_text("[0.8415, 1.8186, 0.4234]")
    expect(y.locator('[data-part="tangent"]')).to_have_text("ṫ [1.3818, 0.0000, 0.0000]")
    d = view.locator('g.node[data-name="d"]')
    expect(d.locator('[data-part="tangent"]')).to_have_text("ṫ [1., 0., 0.]")
    # The ops in the order they ran, each JVP derived from its backward formula (elementwise).
    ops = view.locator("g.node-fop")
    expect(ops).to_have_count(2)
    assert [ops.nth(i).get_attribute("data-name") for i in range(2)] == ["Sin", "Mul"]
    expect(ops.nth(0)).to_have_class("node node-fop rule-element_wise")
    expect(ops.nth(0).locator(".sub")).to_have_text("JVP from backward")
    # Forward edges: d -> Sin -> sin(d) -> Mul <- d, Mul -> y.
    edges = {(e.get_attribute("data-from"), e.get_attribute("data-to")) for e in view.locator("g.edge").all()}
    ids = {node.get_attribute("data-name"): node.get_attribute("data-id") for node in view.locator("g.node").all()}
    assert (ids["d"], ids["Sin"]) in edges and (ids["d"], ids["Mul"]) in edges and (ids["Mul"], ids["y"]) in edges
    # A click shows the whole value and tangent; the language switch translates the view.
    y.click()
    details = view.get_by_test_id("forward-details")
    expect(details.locator(".tangent-block pre")).to_have_text("[1.3818, 0.0000, 0.0000]")
    playground.page.locator('[data-lang="zh"]').click()
    expect(ops.nth(0).locator(".sub")).to_have_text("JVP 由反向公式导出")
    expect(playground.testid("graph-mode-forward")).to_have_text("前向（切向量）")


def test_graph_mode_switch_works_from_the_keyboard(clean):
    playground = clean
    page = playground.page
    playground.set_code(DUAL)
    playground.click_run()
    forward_tab = playground.testid("graph-mode-forward")
    tab_to(page, forward_tab)
    page.keyboard.press("ArrowLeft")
    backward_tab = playground.testid("graph-mode-backward")
    expect(backward_tab).to_be_focused()
    expect(backward_tab).to_have_attribute("aria-selected", "true")
    expect(playground.testid("graph")).to_be_visible()
    expect(playground.testid("forward-graph")).to_be_hidden()
    page.keyboard.press("End")
    expect(forward_tab).to_be_focused()
    expect(playground.testid("forward-graph")).to_be_visible()
    # A node is reached with Tab and opened with Enter.
    node = playground.testid("forward-graph").locator('g.node[data-name="y"]')
    tab_to(page, node)
    page.keyboard.press("Enter")
    expect(playground.testid("forward-graph").get_by_test_id("forward-details")).to_be_visible()
    # Code without dual tensors: no switch, the backward graph.
    playground.set_code("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 3).sum()\n")
    playground.click_run()
    expect(forward_tab).to_be_hidden()
    expect(playground.testid("graph")).to_be_visible()


def test_modes_panel_builds_both_jacobians_and_counts_the_passes(clean):
    playground = clean
    playground.set_code(MODES)
    playground.click_run()
    panel = open_modes(playground)
    # Only the user's functions, only floating-point tensors.
    assert panel.get_by_test_id("modes-function").locator("option").all_inner_texts() == ["f", "h"]
    assert panel.get_by_test_id("modes-input").locator("option").all_inner_texts() == ["x"]
    build(panel, "f", "x")
    expect(panel.get_by_test_id("modes-result")).to_have_attribute("data-done", "true", timeout=20_000)
    forward, reverse = panel.get_by_test_id("modes-forward-table"), panel.get_by_test_id("modes-reverse-table")
    expect(forward).to_have_attribute("data-filled", "3")  # columns
    expect(reverse).to_have_attribute("data-filled", "2")  # rows
    assert cells(forward) == JACOBIAN
    assert cells(reverse) == JACOBIAN
    expect(panel.get_by_test_id("modes-forward-passes")).to_have_text("3 / 3 JVP")
    expect(panel.get_by_test_id("modes-reverse-passes")).to_have_text("1 forward + 2 / 2 VJP")
    verdict = panel.get_by_test_id("modes-verdict")
    expect(verdict).to_have_attribute("data-agree", "true")
    expect(verdict).to_contain_text("Forward mode took 3 pass(es), reverse mode 1 + 2.")
    # The calls that ran, folded until asked for.
    calls = panel.get_by_test_id("modes-calls")
    expect(panel.get_by_test_id("modes-forward-calls")).to_be_hidden()
    calls.locator("summary").click()
    expect(panel.get_by_test_id("modes-forward-calls")).to_have_text(
        "\n".join(f"torch.func.jvp(f, (x,), (e_{j},))" for j in range(3)))
    expect(panel.get_by_test_id("modes-reverse-calls")).to_contain_text("y = f(x)\ntorch.autograd.grad(y, x, e_0, retain_graph=True)")
    # In Chinese, the same matrices and the counts in words.
    playground.page.locator('[data-lang="zh"]').click()
    expect(panel.get_by_test_id("modes-reverse-passes")).to_have_text("1 次前向 + 2 / 2 次 VJP")
    assert cells(panel.get_by_test_id("modes-reverse-table")) == JACOBIAN


def test_modes_panel_shows_a_translated_request_error(clean):
    playground = clean
    playground.set_code(MODES)
    playground.click_run()
    panel = open_modes(playground)
    build(panel, "h", "x")
    expect(panel.get_by_test_id("modes-error")).to_have_text("h(...) returned int, not a tensor: the panel needs one tensor out.")
    playground.page.locator('[data-lang="zh"]').click()
    expect(panel.get_by_test_id("modes-error")).to_have_text("h(...) 返回的是 int，不是张量：这里需要函数输出一个张量。")
    expect(panel.get_by_test_id("modes-result")).to_have_count(0)


def test_modes_tab_works_from_the_keyboard(clean):
    playground = clean
    page = playground.page
    playground.set_code(MODES)
    playground.click_run()
    playground.testid("tab-steps").click()
    playground.testid("tab-steps").focus()
    page.keyboard.press("ArrowRight")
    tab = playground.testid("modes-tab")
    expect(tab).to_be_focused()
    expect(tab).to_have_attribute("aria-selected", "true")
    expect(playground.testid("modes")).to_be_visible()
    button = playground.testid("modes-build")
    tab_to(page, button)
    press(page, button, "Enter")
    expect(playground.testid("modes-verdict")).to_have_attribute("data-agree", "true", timeout=20_000)
    expect(button).to_be_focused()
    tab_to(page, tab, back=True)
    page.keyboard.press("ArrowRight")  # wraps around to the first tab
    expect(playground.testid("tab-grads")).to_be_focused()


@pytest.mark.parametrize("lesson_id", ["forward-mode", "torch-func"])
def test_lesson_runs_and_feeds_the_modes_panel(clean, lesson_id):
    playground = clean
    item = lesson(lesson_id)
    playground.testid("lessons").select_option(lesson_id)
    output = playground.click_run()
    assert_in_order(output, item["expect"]["stdout"])
    assert playground.page.locator('[data-testid="output"] .out-error').count() == 0
    assert playground.page.locator("#run-info").get_attribute("data-ok") == "true"
    panel = open_modes(playground)
    build(panel, "f", "x")
    expect(panel.get_by_test_id("modes-verdict")).to_have_attribute("data-agree", "true", timeout=20_000)
    assert cells(panel.get_by_test_id("modes-forward-table")) == JACOBIAN
    if lesson_id == "forward-mode":
        expect(playground.testid("graph-mode-forward")).to_be_visible()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_forward_view_and_modes_tab_have_no_axe_violations(clean, lang):
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `npm ci --prefix web`", pytrace=False)
    playground = clean
    page = playground.page
    page.locator(f'[data-lang="{lang}"]').click()
    # The lesson's code under the first lesson's explanation: some lessons' texts scroll at this
    # width (#lesson-text, not focusable: a finding of its own, not of these views).
    playground.testid("lessons").select_option("graph")
    playground.set_code("\n".join(lesson("forward-mode")["code"]) + "\n")
    playground.click_run()
    playground.testid("graph-mode-forward").click()
    playground.testid("forward-graph").locator('g.node[data-name="y"]').click()
    panel = open_modes(playground)
    assert violations(page) == [], "modes tab before a build"
    build(panel, "f", "x")
    expect(panel.get_by_test_id("modes-verdict")).to_be_visible(timeout=20_000)
    panel.get_by_test_id("modes-calls").locator("summary").click()
    assert violations(page) == [], "forward view and a built comparison"
    playground.testid("graph-mode-backward").click()
    assert violations(page) == [], "backward graph with the mode switch"
