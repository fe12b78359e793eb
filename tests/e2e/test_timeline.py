"""Time travel (issue 12): the timeline slider, graph <-> editor links, the hover inspector, gradient flow."""

import re
import time

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import page_programs  # noqa: E402  (the learners' programs the page benches run)

TEN_LINES = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
z = y.sum()
z.backward()
x.grad.zero_()
q = (x * x).sum()
q.backward()
print(x.grad)
"""

# After each step: (line, kind, graph nodes drawn, x.grad, w.grad). Drawn nodes: what is reachable
# from the names bound by then (a leaf's AccumulateGrad once an op uses it); the intermediate x * x
# of line 8 has no name, so only its MulBackward0 and SumBackward0 show.
EXPECTED = [
    (1, "line", 0, None, None),
    (2, "line", 1, None, None),
    (3, "line", 2, None, None),
    (4, "line", 6, None, None),
    (5, "line", 8, None, None),
    (6, "line", 8, None, None),
    (6, "backward", 8, "[3., 4.]", "[1., 2.]"),
    (7, "line", 8, "[0., 0.]", "[1., 2.]"),
    (8, "line", 11, "[0., 0.]", "[1., 2.]"),
    (9, "line", 11, "[0., 0.]", "[1., 2.]"),
    (9, "backward", 11, "[2., 4.]", "[1., 2.]"),
    (10, "line", 11, "[2., 4.]", "[1., 2.]"),
]
FREED = re.compile(r"(^|\s)freed(\s|$)")


@pytest.fixture(scope="module")
def ten(playground):
    result = playground.run(TEN_LINES)
    assert result["ok"], result
    return playground


def drawn(tab):
    return tab.page.locator("[data-testid=graph] g.node:not(.tl-hidden)")


def expect_grad(tab, name, text):
    """The gradient panel's .grad of ``name``: its text, None (a reason instead) or "absent" (no row)."""
    row = tab.page.locator(f"[data-testid=grads] tr[data-tensor={name}]")
    if text == "absent":
        expect(row).to_have_count(0)
        return
    expect(row).to_have_count(1)
    pre = row.locator(".grad-cell > pre")
    if text is None:
        expect(pre).to_have_count(0)
        expect(row.locator(".grad-cell .reason")).to_have_count(1)
    else:
        expect(pre).to_have_text(text)


def test_scrubbing_shows_the_graph_and_grads_of_each_step(ten):
    slider = ten.testid("timeline")
    assert slider.get_attribute("max") == str(len(EXPECTED))
    assert slider.input_value() == str(len(EXPECTED))  # a run ends on its last step
    for number, (line, kind, nodes, x_grad, w_grad) in enumerate(EXPECTED, start=1):
        slider.fill(str(number))
        where = ten.testid("timeline-step")
        expect(where).to_have_attribute("data-step", str(number))
        assert where.get_attribute("data-line") == str(line)
        assert ("backward()" in where.inner_text()) == (kind == "backward")
        expect(drawn(ten)).to_have_count(nodes)
        marked = ten.page.locator(".cm-step-line")
        expect(marked).to_have_count(1)
        # The editor's step line follows once a frame: wait for it rather than read it at once.
        expect(marked).to_have_text(TEN_LINES.splitlines()[line - 1], use_inner_text=True)
        # x is bound from step 2 on, w from step 3 on.
        expect_grad(ten, "x", x_grad if number >= 2 else "absent")
        expect_grad(ten, "w", w_grad if number >= 3 else "absent")
    # The run's .grad history shows at its last step only (before it, it would tell the future).
    history = ten.page.locator("[data-testid=grads] tr[data-tensor=x] [data-testid=grad-history]")
    expect(history).to_have_count(1)
    slider.fill("7")
    expect(history).to_have_count(0)
    # Saved tensors at a step: line 4's MulBackward0 is freed by the first backward, not before.
    mul = ten.page.locator("[data-testid=graph] g.node[data-line='4'][data-name=MulBackward0]")
    slider.fill("6")
    expect(mul).not_to_have_class(FREED)
    slider.fill("7")
    expect(mul).to_have_class(FREED)


def test_back_forward_and_arrow_keys_move_the_step(ten):
    slider = ten.testid("timeline")
    slider.fill("5")
    ten.testid("timeline-back").click()
    expect(slider).to_have_value("4")
    ten.testid("timeline-forward").click()
    ten.testid("timeline-forward").press("ArrowRight")  # the arrows work from the buttons too
    expect(slider).to_have_value("6")
    slider.focus()
    slider.press("ArrowRight")
    expect(slider).to_have_value("7")
    expect(ten.testid("timeline-step")).to_contain_text("backward()")
    # A backward step opens into the step-through of its own pass (tests/e2e/test_timeline_passes.py).
    open_pass = ten.testid("timeline-open-pass")
    expect(open_pass).to_have_text("Step through pass 1")
    open_pass.click()
    expect(ten.testid("steps")).to_be_visible()
    expect(ten.testid("steps")).to_contain_text("called at line 6")
    ten.testid("tab-grads").click()
    slider.fill("11")
    expect(open_pass).to_have_text("Step through pass 2")
    open_pass.click()
    expect(ten.testid("steps")).to_be_visible()
    expect(ten.testid("steps")).to_contain_text("called at line 9")
    ten.testid("tab-grads").click()
    slider.fill("7")
    slider.press("ArrowLeft")
    expect(slider).to_have_value("6")
    expect(open_pass).to_be_hidden()


def test_every_node_carries_its_line_and_a_click_marks_it_in_the_editor(ten):
    ten.testid("timeline").fill(str(len(EXPECTED)))
    nodes = ten.page.locator("[data-testid=graph] g.node")
    lines = {nodes.nth(i).get_attribute("data-name"): nodes.nth(i).get_attribute("data-line") for i in range(nodes.count())}
    assert lines["x"] == "2" and lines["w"] == "3" and lines["y"] == "4" and lines["z"] == "5" and lines["q"] == "8"
    assert ten.page.locator("[data-testid=graph] g.node:not([data-line])").count() == 0
    ten.page.locator("[data-testid=graph] g.node[data-name=SumBackward0][data-line='8']").click()
    linked = ten.page.locator(".cm-linked-line")
    expect(linked).to_have_count(1)
    expect(linked).to_have_text("q = (x * x).sum()", use_inner_text=True)
    ten.page.locator("[data-testid=graph] g.node[data-name=w]").click()
    expect(linked).to_have_text("w = torch.tensor([3.0, 4.0], requires_grad=True)")


def test_gradient_flow_of_a_selected_node(ten):
    ten.testid("timeline").fill(str(len(EXPECTED)))
    graph = ten.page.locator("[data-testid=graph]")
    graph.locator("g.node[data-name=MulBackward0][data-line='4']").click()
    up = graph.locator("g.node.flow-up")
    down = graph.locator("g.node.flow-down")
    # Its gradient comes from z (through SumBackward0; y is its output) and reaches x and w through
    # their AccumulateGrads.
    expect(up).to_have_count(4)
    assert sorted(up.evaluate_all("els => els.map(e => e.dataset.name)")) == ["MulBackward0", "SumBackward0", "y", "z"]
    expect(down).to_have_count(5)
    assert sorted(down.evaluate_all("els => els.map(e => e.dataset.name)")) == [
        "AccumulateGrad", "AccumulateGrad", "MulBackward0", "w", "x"]
    graph.locator("svg").click(position={"x": 5, "y": 5})
    expect(up).to_have_count(0)


def test_the_cursor_line_highlights_the_nodes_it_made(ten):
    ten.testid("timeline").fill(str(len(EXPECTED)))
    line8 = ten.page.locator(".cm-line").nth(7)
    line8.click()
    linked = ten.page.locator("[data-testid=graph] g.node.line-linked")
    expect(linked).to_have_count(3)
    assert sorted(linked.evaluate_all("els => els.map(e => e.dataset.name)")) == ["MulBackward0", "SumBackward0", "q"]
    ten.page.locator(".cm-line").nth(0).click()
    expect(linked).to_have_count(0)


def test_gutter_marks_lines_that_made_nodes_or_ran_backward(ten):
    marks = ten.page.locator(".cm-tl-gutter .cm-tl-mark")
    expect(marks).to_have_count(7)
    kinds = marks.evaluate_all("els => els.map(e => e.className.split('cm-tl-').pop())")
    assert kinds.count("backward") == 2 and kinds.count("nodes") == 5  # lines 6, 9; lines 2, 3, 4, 5, 8
    tops = marks.evaluate_all("els => els.map(e => e.getBoundingClientRect().top)")
    line_tops = ten.page.locator(".cm-line").evaluate_all("els => els.map(e => e.getBoundingClientRect().top)")
    lines = [min(range(len(line_tops)), key=lambda i: abs(line_tops[i] - top)) + 1 for top in tops]
    assert sorted(zip(lines, kinds)) == [(2, "nodes"), (3, "nodes"), (4, "nodes"), (5, "nodes"), (6, "backward"),
                                         (8, "nodes"), (9, "backward")]


def hover_name(tab, line_index, name):
    """Hovers the first occurrence of ``name`` on an editor line."""
    box = tab.page.locator(".cm-line").nth(line_index).evaluate(
        """(el, name) => {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                const at = n.data.indexOf(name);
                if (at < 0) continue;
                const range = document.createRange();
                range.setStart(n, at);
                range.setEnd(n, at + name.length);
                const r = range.getBoundingClientRect();
                return {x: r.x + r.width / 2, y: r.y + r.height / 2};
            }
            return null;
        }""", name)
    assert box, f"{name} not on line {line_index + 1}"
    tab.page.mouse.move(box["x"] - 30, box["y"] + 40)
    tab.page.mouse.move(box["x"], box["y"], steps=3)


def test_the_inspector_shows_a_tensor_at_the_current_step(ten):
    slider = ten.testid("timeline")
    slider.fill("7")  # after the first backward
    hover_name(ten, 9, "x")  # print(x.grad)
    tip = ten.testid("tensor-inspector")
    expect(tip).to_be_visible()
    expect(tip.locator("[data-field=grad] dd")).to_have_text("[3., 4.]", use_inner_text=True)
    expect(tip.locator("[data-field=shape] dd")).to_have_text("(2,)", use_inner_text=True)
    expect(tip.locator("[data-field=requires_grad] dd")).to_have_text("True", use_inner_text=True)
    expect(tip.locator("[data-field=dtype] dd")).to_have_text("torch.float32", use_inner_text=True)
    ten.page.mouse.move(5, 5)
    expect(tip).to_have_count(0)
    slider.fill("8")
    hover_name(ten, 3, "y")
    expect(tip).to_be_visible()
    expect(tip.locator("[data-field=grad_fn] dd")).to_have_text("<MulBackward0>", use_inner_text=True)
    expect(tip.locator("[data-field=grad] dd")).to_have_text("None", use_inner_text=True)
    expect(tip.locator("[data-field=version] dd")).to_have_text("0", use_inner_text=True)
    ten.page.mouse.move(5, 5)


LOOP = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(10000):
    h = x * i
y = (h * x).sum()
y.backward()
print(x.grad)
"""


def test_a_10000_iteration_loop_stays_responsive_and_is_grouped(playground):
    tab = playground
    tab.set_code(LOOP)
    started = time.monotonic()
    tab.testid("run").click()
    slowest = 0.0
    while tab.state() != "ready" and time.monotonic() - started < 90:
        t0 = time.monotonic()
        tab.page.evaluate("1 + 1")
        slowest = max(slowest, time.monotonic() - t0)
        tab.page.wait_for_timeout(100)
    expect(tab.testid("status")).to_have_attribute("data-state", "ready", timeout=90_000)
    assert "tensor([19998., 39996.])" in tab.output_text()
    assert slowest < 1.0, f"main thread blocked for {slowest:.2f} s"
    slider = tab.testid("timeline")
    stored = int(slider.get_attribute("max"))
    # 20,007 executed steps: the first 20 iterations and the last are kept, the rest fold into one step.
    assert stored < 60
    expect(tab.testid("timeline-step")).to_contain_text("step 20,007 of 20,007")
    group = tab.testid("timeline-group")
    expect(group).to_have_text("loop at line 3: 10,000 iterations")
    group.click()
    iteration = tab.testid("timeline-iteration")
    expect(iteration).to_have_value(iteration.locator("option").first.get_attribute("value"))
    options = iteration.locator("option").all_inner_texts()
    assert options[:2] == ["iteration 1", "iteration 2"] and options[-1] == "iteration 10,000"
    assert "iterations 21–9,999 (folded)" in options
    # Open the last iteration: h = x * 9999 there.
    iteration.select_option(label="iteration 10,000")
    where = tab.testid("timeline-step")
    expect(where).to_have_attribute("data-line", "3")
    tab.testid("timeline-forward").click()
    expect(where).to_have_attribute("data-line", "4")
    hover_name(tab, 3, "h")
    tip = tab.testid("tensor-inspector")
    expect(tip).to_be_visible()
    expect(tip.locator("[data-field=value] dd")).to_have_text("[ 9999., 19998.]", use_inner_text=True)  # as torch prints it
    tab.page.mouse.move(5, 5)
    # Scrubbing every stored step answers at once (the state is folded from checkpoints).
    t0 = time.monotonic()
    for number in range(1, stored + 1):
        slider.fill(str(number))
    expect(where).to_contain_text("line 7")
    assert time.monotonic() - t0 < 20


def test_a_training_loop_past_the_store_ends_on_its_last_statement(playground):
    """20 steps of a micrograd MLP (bench/page_programs.py): 12,829 statements, more than the 5,000
    steps the timeline stores. The recorder rests there; the last step is the run's last statement,
    the training loop still says how many iterations it ran, and its select says which ones were
    only counted."""
    result = playground.run(page_programs.MICROGRAD)
    assert result["ok"], result
    assert playground.testid("timeline").get_attribute("max") == "5001"
    where = playground.testid("timeline-step")
    expect(where).to_contain_text("step 12,829 of 12,829 · line 31 · after 7,188 folded steps")
    expect(playground.testid("timeline-group")).to_have_text("loop at line 10: 20 iterations")
    note = playground.testid("timeline-note")
    expect(note).to_contain_text("12,829 steps: recorded one by one up to step ")
    rested = re.search(r"up to step ([\d,]+);", note.inner_text())[1]
    playground.testid("timeline-back").click()  # the last step recorded one by one, inside the loops
    expect(where).to_contain_text(f"step {rested} of 12,829")
    options = playground.testid("timeline-iteration").first.locator("option").all_inner_texts()
    last = int(options[-2].split()[-1])  # the last iteration recorded
    assert options[-1] == f"iterations {last + 1}–20 (counted, not recorded)", options


def test_the_lesson_watch_the_graph_grow_runs_and_scrubs_in_both_languages(playground):
    tab = playground
    tab.choose_lesson("graph-grow")
    output = tab.click_run()
    assert "tensor([  4., -18.])" in output and "tensor([ 16., -72.])" in output
    slider = tab.testid("timeline")
    where = tab.testid("timeline-step")
    # Comments and blank lines are no steps. Line 5 adds x (no grad); line 6 (y = w * x) adds y,
    # MulBackward0 and w's AccumulateGrad; line 7 adds loss, PowBackward0 and SumBackward0.
    for number, line, nodes in [(2, 4, 1), (3, 5, 2), (4, 6, 5), (5, 7, 8)]:
        slider.fill(str(number))
        expect(where).to_have_attribute("data-line", str(line))
        expect(drawn(tab)).to_have_count(nodes)
    slider.fill("8")  # loss.backward()'s pass
    expect(where).to_contain_text("backward()")
    slider.fill("9")
    expect(where).to_have_attribute("data-line", "10")
    expect_grad(tab, "w", "[4., -18.]")
    expect(tab.testid("timeline-group")).to_have_text("loop at line 11: 3 iterations")
    # The first iteration's graph was freed before the run ended; its step still draws it.
    slider.fill("11")
    expect(where).to_have_attribute("data-line", "12")
    line12 = tab.page.locator("[data-testid=graph] g.node[data-line='12']:not(.tl-hidden)")
    expect(line12).to_have_count(4)  # out, its SumBackward0, PowBackward0 and MulBackward0
    line12.and_(tab.page.locator("[data-name=PowBackward0]")).click()
    expect(tab.page.locator(".cm-linked-line")).to_have_count(1)
    assert "out = ((w * x) ** 2).sum()" in tab.page.locator(".cm-linked-line").inner_text()
    slider.fill("9")
    expect(line12).to_have_count(0)
    try:
        tab.page.locator("[data-lang=zh]").click()
        expect(tab.testid("timeline-group")).to_have_text("第 11 行的循环：3 次迭代")
        expect(where).to_contain_text("第 9 步，共 23 步 · 第 10 行")
        assert "看计算图长出来" in tab.page.locator(".explain").inner_text()
        assert "# 拖动计算图上方的时间线" in tab.get_code()
    finally:
        tab.page.locator("[data-lang=en]").click()
    tab.testid("lessons").select_option("graph")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_time_travel_states_have_no_axe_violations(playground, lang):
    from test_accessibility import violations

    tab = playground
    page = tab.page
    page.locator(f'[data-lang="{lang}"]').click()
    try:
        tab.choose_lesson("graph-grow")
        tab.click_run()
        tab.testid("timeline").fill("12")  # inside the loop: its iteration list shows
        expect(tab.testid("timeline-iteration")).to_be_visible()
        page.locator("[data-testid=graph] g.node[data-name=y]").click()  # a linked line, gradient flow
        expect(page.locator(".cm-linked-line")).to_have_count(1)
        page.locator(".cm-line").nth(9).click()  # the cursor's nodes; a two-digit active line number
        hover_name(tab, 9, "w")
        expect(tab.testid("tensor-inspector")).to_be_visible()
        assert violations(page) == [], "timeline, links, inspector"
        page.mouse.move(5, 5)
        tab.testid("timeline").fill("8")  # a backward step: its step-through button
        expect(tab.testid("timeline-open-pass")).to_be_visible()
        assert violations(page) == [], "a backward step"
    finally:
        page.locator('[data-lang="en"]').click()
        tab.testid("lessons").select_option("graph")


def test_a_console_line_keeps_the_timeline_unless_it_changes_the_graph(playground):
    tab = playground
    assert tab.run(TEN_LINES)["ok"]
    slider = tab.testid("timeline")
    expect(slider).to_have_attribute("max", str(len(EXPECTED)))
    tab.console_eval("print(x.grad)")  # the graph stays as the run left it
    expect(tab.testid("output")).to_contain_text(">>> print(x.grad)")
    expect(tab.testid("status")).to_have_attribute("data-state", "ready")
    expect(slider).to_be_visible()
    slider.fill("7")
    expect(drawn(tab)).to_have_count(8)
    tab.console_eval("r = (w * 2).sum()")  # a new node: the timeline no longer tells this graph's story
    expect(slider).to_be_hidden()
    expect(tab.page.locator("[data-testid=graph] g.node[data-name=r]")).to_have_count(1)
    expect(tab.page.locator(".cm-step-line")).to_have_count(0)
