"""The "See autograd" views in the real page: graph, gradient panel, failed second backward,
step-through, interactive backward with the Jacobian, detach, language, large graphs."""

import re
import sys

import numpy as np
from playwright.sync_api import expect

from playground_helpers import LESSONS, REPO

sys.path.insert(0, str(REPO / "bench"))
import page_programs  # noqa: E402  (the learners' programs the page benches run)


def fresh(playground):
    """Forgets every variable, so each test sees only its own tensors."""
    playground.testid("reset").click()
    expect(playground.testid("graph").locator(".graph-empty")).to_be_visible()
    expect(playground.testid("status")).to_have_attribute("data-state", "ready")


def run(playground, code):
    playground.set_code(code)
    return playground.click_run()


def graph_node(playground, name):
    return playground.testid("graph").locator(f'g.node[data-name="{name}"]')


def open_tab(playground, name):
    playground.testid(f"tab-{name}").click()
    expect(playground.testid(name)).to_be_visible()


def lesson(lesson_id):
    return "\n".join(next(item for item in LESSONS if item["id"] == lesson_id)["code"]) + "\n"


def test_mm_lesson_shows_mm_backward_and_the_x_grad(playground, results_dir):
    fresh(playground)
    open_tab(playground, "grads")
    playground.testid("lessons").select_option("gradient-weights")
    playground.click_run()
    expect(graph_node(playground, "MmBackward0")).to_have_count(1)
    expect(graph_node(playground, "AccumulateGrad")).to_have_count(2)  # x and x2
    x_grad = playground.testid("grads").locator('tr[data-tensor="x"] .grad-cell pre')
    expect(x_grad).to_have_text(re.compile(r"\[\[10\., 10\., 10\.\],\s*\[26\., 26\., 26\.\]\]"))
    rows = playground.testid("grads")
    expect(rows.locator('tr[data-tensor="a"] .reason')).to_have_text("None — does not require grad")
    expect(rows.locator('tr[data-tensor="out"] .reason')).to_have_text("None — non-leaf, call retain_grad()")
    expect(rows.locator('tr[data-tensor="x"] [data-change="computed"]')).to_have_count(1)
    # Its freed buffers are drawn differently, and a click tells what was saved and the formula.
    mm = graph_node(playground, "MmBackward0")
    expect(mm).to_have_class(re.compile(r"\bfreed\b"))
    mm.click()
    details = playground.testid("node-details")
    expect(details.get_by_test_id("formula")).to_contain_text("def backward")
    expect(details.get_by_test_id("saved-tensors")).to_contain_text("freed after backward")
    playground.page.screenshot(path=str(results_dir / "views-mm-lesson.png"))


def test_second_backward_marks_the_node_that_raised(playground, results_dir):
    fresh(playground)
    playground.testid("lessons").select_option("retain-graph")
    output = playground.click_run()
    assert "Trying to backward through the graph a second time" in output
    failed = playground.testid("graph").locator("g.node.failed")
    expect(failed).to_have_count(1)
    expect(failed).to_have_attribute("data-name", "MulBackward0")
    alert = playground.testid("graph-alert")
    expect(alert).to_contain_text("MulBackward0")
    expect(alert).to_contain_text("retain_graph=True")
    # The failing node is selected: its saved tensors are shown as freed.
    expect(playground.testid("node-details").get_by_test_id("saved-tensors")).to_contain_text("freed after backward")
    playground.page.screenshot(path=str(results_dir / "views-failed-backward.png"))
    # A successful command clears the mark.
    playground.console_eval("z = x * 2")
    expect(failed).to_have_count(0)


STEP_CODE = """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = (x * w).exp()
y.register_hook(lambda g: g * 2)
s = y.sum()
s.backward()
"""


def engine_order(code):
    """The nodes autograd_py's engine runs for the last backward of ``code``, by its own report."""
    import autograd_py
    from autograd_py.playground import trace

    head, last = code.rstrip().rsplit("\n", 1)
    namespace = {"torch": autograd_py}  # not install_as_torch: other tests may use the real torch
    exec(head.replace("import torch\n", ""), namespace)
    with trace.record() as steps:
        exec(last, namespace)
    return [s["name"] if s["event"] == "node" else "AccumulateGrad"
            for s in steps if s["event"] in ("node", "accumulate")]


def test_step_through_visits_the_nodes_in_engine_order(playground, results_dir):
    fresh(playground)
    run(playground, STEP_CODE)
    open_tab(playground, "steps")
    page = playground.page
    current = playground.testid("graph").locator("g.node.step-current")
    step_next = playground.testid("step-next")
    visited = []
    shot = False
    while step_next.is_enabled():
        step_next.click()
        event = playground.testid("step-current").get_attribute("data-event")
        if event in ("node", "accumulate"):
            expect(current).to_have_count(1)
            visited.append(current.get_attribute("data-name"))
            if event == "node":
                # The gradient flows back along the edges into the running node.
                assert page.locator('[data-testid="graph"] g.edge.edge-active').count() >= 1
            if not shot and visited[-1] == "MulBackward0":
                page.screenshot(path=str(results_dir / "views-step-through.png"))
                shot = True
    assert visited == engine_order(STEP_CODE)
    assert visited == ["SumBackward0", "ExpBackward0", "MulBackward0", "AccumulateGrad", "AccumulateGrad"]
    # Back returns one step; the hook that doubled the gradient is one of the steps.
    playground.testid("step-back").click()
    expect(playground.testid("step-current")).to_have_attribute("data-event", "accumulate")
    expect(playground.testid("step-list")).to_contain_text("hook on output 0 fired")
    # Leaving the tab removes the highlight.
    open_tab(playground, "grads")
    expect(current).to_have_count(0)


JACOBIAN_CODE = """\
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = x * x * w
"""


def test_one_hot_backward_fills_row_k_of_the_jacobian(playground, results_dir):
    fresh(playground)
    run(playground, JACOBIAN_CODE)
    graph_node(playground, "y").click()  # pick the root in the graph
    expect(graph_node(playground, "y")).to_have_class(re.compile(r"\broot-pick\b"))
    open_tab(playground, "backward")
    panel = playground.testid("backward")
    expect(panel.get_by_test_id("backward-root")).to_have_value("y")
    panel.get_by_test_id("jacobian-input").select_option("x")
    panel.get_by_test_id("gradient-onehot").check(force=True)
    k = 2
    panel.get_by_test_id("onehot-grid").locator(f'[data-index="{k}"]').click()
    panel.get_by_test_id("backward-run").click()
    echo = "y.backward(gradient=torch.tensor([0., 0., 1.]), retain_graph=True)"
    expect(playground.testid("output")).to_contain_text(f">>> {echo}")
    expect(panel.get_by_test_id("backward-echo")).to_have_text(echo)
    table = panel.get_by_test_id("jacobian-table")
    expect(table).to_have_attribute("data-filled", "1")
    x, w = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0])
    row = table.locator(f'tbody tr[data-row="{k}"] td')
    expected_row = np.where(np.arange(3) == k, 2 * x * w, 0.0)
    assert [float(v) for v in row.all_inner_texts()] == expected_row.tolist()
    assert table.locator('tbody tr[data-row="0"] td').all_inner_texts() == ["", "", ""]
    # x.grad got exactly that row (-0. as PyTorch prints it: the zero gradient was scaled by w = -1).
    expect(playground.testid("grads").locator('tr[data-tensor="x"] .grad-cell pre')).to_have_text(
        re.compile(r"^\[ 0\., +-?0\., 12\.\]$"))

    # A bad custom vector: a clear message, nothing runs, and the typed text stays.
    panel.get_by_test_id("gradient-custom").check(force=True)
    box = panel.get_by_test_id("custom-gradient")
    box.fill("1, 2")
    panel.get_by_test_id("backward-run").click()
    expect(panel.get_by_test_id("backward-error")).to_have_text("Expected 3 number(s) for shape (3), got 2.")
    expect(box).to_have_value("1, 2")

    # The whole Jacobian, then a weighted backward equals vᵀJ.
    panel.get_by_test_id("jacobian-build").click()
    expect(table).to_have_attribute("data-filled", "3", timeout=10_000)
    box.fill("1, 2, 3")
    panel.get_by_test_id("backward-run").click()
    check = panel.get_by_test_id("vjp-check")
    expect(check).to_contain_text("equal", timeout=15_000)  # one backward in Python: slow on a loaded machine
    expect(check).to_have_class(re.compile(r"\bok\b"))
    expect(check).to_contain_text(f"[{', '.join(f'{v:g}.' for v in np.array([1, 2, 3]) * 2 * x * w)}]")
    playground.page.screenshot(path=str(results_dir / "views-jacobian.png"))

    # A Run keeps the learner's gradient choice; a lesson picked starts clean, as a fresh page does.
    panel.get_by_test_id("retain-graph").uncheck()
    playground.click_run()
    expect(panel.get_by_test_id("gradient-custom")).to_be_checked()
    expect(panel.get_by_test_id("retain-graph")).not_to_be_checked()
    playground.choose_lesson(LESSONS[0]["id"])
    playground.click_run()
    expect(panel.get_by_test_id("gradient-ones")).to_be_checked()
    expect(panel.get_by_test_id("retain-graph")).to_be_checked()
    expect(panel.get_by_test_id("create-graph")).not_to_be_checked()
    panel.get_by_test_id("gradient-custom").check(force=True)
    expect(panel.get_by_test_id("custom-gradient")).to_have_value("")
    panel.get_by_test_id("gradient-ones").check(force=True)


def test_detach_shows_the_cut(playground, results_dir):
    fresh(playground)
    playground.testid("lessons").select_option("detach")
    playground.click_run()
    cut = playground.testid("graph").locator("g.edge.edge-detached")
    expect(cut).to_have_count(1)
    expect(cut).to_contain_text("detach()")
    rows = playground.testid("grads")
    expect(rows.locator('tr[data-tensor="y_value"] .reason')).to_have_text("None — does not require grad")
    expect(rows.locator('tr[data-tensor="x"] .grad-cell pre')).to_have_text("0.")
    playground.page.screenshot(path=str(results_dir / "views-detach.png"))


def test_views_speak_chinese(playground, results_dir):
    fresh(playground)
    run(playground, lesson("nonleaf-grad"))
    page = playground.page
    page.locator('[data-lang="zh"]').click()
    try:
        expect(playground.testid("graph").locator("h2")).to_have_text("计算图")
        expect(playground.testid("tab-steps")).to_have_text("逐步执行")
        open_tab(playground, "grads")
        expect(playground.testid("grads").locator("th").first).to_have_text("名称")
        open_tab(playground, "steps")
        expect(playground.testid("steps")).to_contain_text("最近一次反向传播")
        page.screenshot(path=str(results_dir / "views-zh.png"))
    finally:
        page.locator('[data-lang="en"]').click()
    expect(playground.testid("graph").locator("h2")).to_have_text("Computation graph")


SPLIT_NUMBERS = """() => {
  const split = [];
  let numbers = 0;
  for (const pre of document.querySelectorAll('[data-testid="grads"] .value-cell pre, [data-testid="grads"] td:nth-child(6) pre')) {
    const node = pre.firstChild;
    if (!node) continue;
    for (const match of node.textContent.matchAll(/-?\\d[\\d.e+-]*/g)) {
      numbers += 1;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) split.push(match[0]);
    }
  }
  return { numbers, split };
}"""


def test_value_column_wraps_between_numbers_never_inside_one(playground, results_dir):
    fresh(playground)
    page = playground.page
    open_tab(playground, "grads")
    run(playground, "import torch\nw = torch.linspace(-123456.789, 98765.4321, 24, requires_grad=True)\n"
                    "big = (w * 1e6).detach()\n")
    try:
        for width in (390, 1024):
            page.set_viewport_size({"width": width, "height": 844})
            page.wait_for_timeout(200)
            measured = page.evaluate(SPLIT_NUMBERS)
            assert measured["numbers"] >= 48, measured
            assert measured["split"] == [], (width, measured["split"])
        page.screenshot(path=str(results_dir / "views-value-column.png"))
    finally:
        page.set_viewport_size({"width": 1400, "height": 860})


def test_large_graph_states_the_cut(playground):
    fresh(playground)
    run(playground, "import torch\nx = torch.ones(3, requires_grad=True)\ny = x\n"
                    "for _ in range(3000):\n    y = y * 1.001\n")
    note = playground.testid("graph-truncated")
    expect(note).to_be_visible()
    expect(note).to_contain_text("more than the view's budget of 400")
    expect(playground.testid("graph").locator("g.node-collapsed")).to_have_count(1)
    duration = playground.page.evaluate(
        "Math.max(...performance.getEntriesByName('playground:graph-render').map(e => e.duration))")
    assert duration < 2000


def test_a_jacobian_too_large_to_show_is_stated_not_drawn(playground):
    # W2-sized: a 1 x 100,352 table was 200,000 elements drawn on every run (700 x 700 crashed the tab).
    fresh(playground)
    run(playground, "import torch\nW = torch.randn(784, 128, requires_grad=True)\n"
                    "loss = (W * W).sum()\n")
    open_tab(playground, "backward")
    panel = playground.testid("backward")
    panel.get_by_test_id("backward-root").select_option("loss")
    expect(panel.get_by_test_id("jacobian-too-large")).to_have_text(
        "The Jacobian would be 1 × 100352; the view shows at most 64 × 64.")
    expect(panel.get_by_test_id("jacobian-table")).to_have_count(0)
    expect(panel.get_by_test_id("jacobian-build")).to_be_disabled()
    assert panel.locator("*").count() < 200
    # A one-hot backward of a large root still runs: its row is not drawn, the grads are.
    panel.get_by_test_id("backward-run").click()
    expect(panel.get_by_test_id("backward-echo")).to_have_text("loss.backward(retain_graph=True)")


SHAPED = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
h = (x * w).tanh()
loss = (h * h).sum() / 3
loss.backward()
"""

LAYOUT_STATE = """() => ({
  reused: performance.getEntriesByName('playground:graph-layout').at(-1).detail.reused,
  places: [...document.querySelectorAll('[data-testid="graph"] g.node')].map((g) => g.getAttribute('transform')),
  names: [...document.querySelectorAll('[data-testid="graph"] g.node')].map((g) => g.dataset.name),
})"""


def test_the_same_code_run_again_keeps_its_places_without_dagre(playground):
    """A Run of the same code (another number in it) draws a graph of the same shape: its nodes
    go where dagre put the last one's, without dagre (0.2 s on one micrograd step); a graph
    of another shape is laid out again."""
    fresh(playground)
    playground.page.evaluate("performance.clearMeasures('playground:graph-layout')")
    run(playground, SHAPED)
    first = playground.page.evaluate(LAYOUT_STATE)
    run(playground, SHAPED.replace("0.5, -1.0, 2.0", "0.25, 3.0, -2.0"))
    again = playground.page.evaluate(LAYOUT_STATE)
    assert first["names"] and again["names"] == first["names"]
    assert again["places"] == first["places"]
    assert (first["reused"], again["reused"]) == (False, True)
    run(playground, SHAPED + "z = loss * 2\n")
    other = playground.page.evaluate(LAYOUT_STATE)
    assert other["reused"] is False and len(other["names"]) > len(first["names"])


def test_a_micrograd_step_is_ranked_by_graph_rank(playground):
    """One step of a scalar MLP (bench/page_programs.py's micrograd) is a 348-node graph, under
    SIMPLEX_LIMIT: its layers are ranked by graph_rank.js's network simplex (dagre's choices on
    arrays, checked against dagre's own in tests/test_graph_rank.py; 0.2 s against dagre's 0.6-1.2
    s here), not dagre's own nor the longest-path ranker of larger graphs, and ordered by
    graph_order.js (dagre's crossing reduction on arrays, tests/test_graph_order.py). Its speed is
    measured by bench/page_run.py, not here."""
    fresh(playground)
    playground.page.evaluate("performance.clearMeasures('playground:graph-layout')")
    run(playground, page_programs.MICROGRAD_STEP)
    layout = playground.page.evaluate(
        "(({detail}) => detail)(performance.getEntriesByName('playground:graph-layout').at(-1))")
    expect(playground.testid("graph").locator("g.node")).to_have_count(348)
    assert layout == {"reused": False, "ranker": "graph_rank", "orderer": "graph_order"}, layout
