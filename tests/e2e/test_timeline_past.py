"""Time travel (issue 12): a node's details at a past timeline step (saved tensors' states, grads)."""

from playwright.sync_api import expect
from test_timeline import TEN_LINES


def test_node_details_follow_the_timelines_step(playground):
    tab = playground
    assert tab.run(TEN_LINES)["ok"]
    slider = tab.testid("timeline")
    graph = tab.page.locator("[data-testid=graph]")
    details = tab.testid("node-details")
    at = details.locator("[data-testid=details-at]")
    # Step 6 is line 6 before its pass: line 4's MulBackward0 still holds its saved tensors.
    slider.fill("6")
    graph.locator("g.node[data-line='4'][data-name=MulBackward0]").click()
    expect(at).to_have_text("as at step 6 of the timeline")
    saved = details.locator("[data-testid=saved-tensors] li")
    expect(saved).to_have_count(2)
    expect(details.locator("li.saved-alive")).to_have_count(2)
    # The details follow the slider: step 7 is the pass, which frees them.
    slider.fill("7")
    expect(at).to_have_text("as at step 7 of the timeline")
    expect(details.locator("li.saved-freed")).to_have_count(2)
    # x's AccumulateGrad: no .grad before the pass, x.grad after it, zeroed by line 7.
    slider.fill("6")
    graph.locator("g.node[data-name=AccumulateGrad][data-line='2']").click()
    grad = details.locator("[data-testid=details-grad]")
    expect(grad).to_have_text("None")
    slider.fill("7")
    expect(grad).to_have_text("[3., 4.]")
    slider.fill("8")
    expect(grad).to_have_text("[0., 0.]")
    # A tensor: its value and .grad as recorded then.
    graph.locator("g.node[data-name=x]").click()
    expect(at).to_have_text("as at step 8 of the timeline")
    expect(grad).to_have_text("[0., 0.]")
    slider.fill("6")
    expect(grad).to_contain_text("None")
    # A node the step does not draw yet: said so, the selection kept for later steps.
    graph.locator("g.node[data-name=MulBackward0][data-line='4']").click()
    slider.fill("3")
    expect(details.locator("[data-testid=details-absent]")).to_be_visible()
    # The run's last step: the details as the run ends, without a step note.
    slider.fill("12")
    expect(at).to_have_count(0)
    expect(details.locator("li.saved-freed")).to_have_count(2)
    try:
        tab.page.locator("[data-lang=zh]").click()
        slider.fill("6")
        expect(at).to_have_text("时间线第 6 步时的状态")
    finally:
        tab.page.locator("[data-lang=en]").click()


NESTED = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(30):
    for j in range(2):
        h = x * (i * 10 + j)
print(h.sum().item())
"""


def test_any_iteration_opens_and_nested_loops_group(playground):
    tab = playground
    assert tab.run(NESTED)["ok"]
    output = tab.output_text()
    slider = tab.testid("timeline")
    where = tab.testid("timeline-step")
    group = tab.testid("timeline-group")
    expect(group).to_have_text("loop at line 3: 30 iterations")
    group.click()
    # Inside both loops, each is listed, outer first.
    tab.testid("timeline-forward").click()
    tab.testid("timeline-forward").click()
    names = tab.page.locator("[data-testid=timeline-groups] .tl-group-name")
    expect(names).to_have_count(2)
    assert names.all_inner_texts() == ["loop at line 3: 30 iterations", "loop at line 4: 2 iterations"]
    selects = tab.testid("timeline-iteration")
    assert selects.nth(0).locator("option:checked").inner_text() == "iteration 1"
    assert "iterations 21–29 (folded)" in selects.nth(0).locator("option").all_inner_texts()
    # Open a folded outer iteration: the code runs again, and the slider lands on it.
    number = tab.testid("timeline-open-iteration")
    number.fill("25")
    tab.testid("timeline-open-iteration-go").click()
    expect(tab.testid("timeline-note")).to_contain_text("iteration 25 opened (the code ran again)")
    expect(where).to_have_attribute("data-line", "3")
    expect(selects.nth(0).locator("option:checked")).to_have_text("iteration 25")
    options = selects.nth(0).locator("option").all_inner_texts()
    assert "iterations 21–24 (folded)" in options and "iterations 26–29 (folded)" in options
    assert tab.output_text() == output  # the replay printed nothing again
    tab.testid("timeline-forward").click()
    tab.testid("timeline-forward").click()  # line 5 of iteration 25 (i = 24), its first inner one
    expect(where).to_have_attribute("data-line", "5")
    expect(tab.page.locator("[data-testid=grads] tr[data-tensor=h]")).to_have_count(1)
    expect(names).to_have_count(2)
    from test_accessibility import violations

    assert violations(tab.page) == [], "the open-iteration control, two loops listed"
    # A stored iteration opens without running anything.
    number = tab.testid("timeline-open-iteration")
    number.fill("2")
    number.press("Enter")
    expect(selects.nth(0).locator("option:checked")).to_have_text("iteration 2")
    try:
        tab.page.locator("[data-lang=zh]").click()
        expect(tab.testid("timeline-open-iteration-go")).to_have_text("打开迭代")
    finally:
        tab.page.locator("[data-lang=en]").click()


def test_gradient_flow_in_a_past_steps_own_graph_comes_from_python(playground):
    tab = playground
    tab.choose_lesson("graph-grow")
    tab.click_run()
    slider = tab.testid("timeline")
    graph = tab.page.locator("[data-testid=graph]")
    up = graph.locator("g.node.flow-up:not(.tl-hidden)")
    down = graph.locator("g.node.flow-down:not(.tl-hidden)")
    # Step 11 (line 12, the loop's first iteration) draws a graph the run's end no longer holds.
    slider.fill("11")
    expect(tab.testid("timeline-step")).to_have_attribute("data-line", "12")
    graph.locator("g.node[data-line='12'][data-name=PowBackward0]").click()
    expect(up).to_have_count(3)
    assert sorted(up.evaluate_all("els => els.map(e => e.dataset.name)")) == ["PowBackward0", "SumBackward0", "out"]
    expect(down).to_have_count(4)
    assert sorted(down.evaluate_all("els => els.map(e => e.dataset.name)")) == [
        "AccumulateGrad", "MulBackward0", "PowBackward0", "w"]
    # A step drawn on the run's own graph: its flow, limited to the nodes shown then.
    slider.fill("4")  # y = w * x
    graph.locator("g.node[data-name=MulBackward0]:not(.tl-hidden)").click()
    expect(up).to_have_count(2)  # MulBackward0 and y: loss is not made yet
    expect(down).to_have_count(3)
    tab.testid("lessons").select_option("graph")


def test_an_iteration_of_a_10000_iteration_loop_opens(playground):
    from test_timeline import LOOP

    tab = playground
    assert tab.run(LOOP)["ok"]
    tab.testid("timeline-group").click()
    number = tab.testid("timeline-open-iteration")
    expect(number).to_have_attribute("max", "10000")
    number.fill("5000")
    number.press("Enter")
    expect(tab.testid("timeline-note")).to_contain_text("iteration 5,000 opened", timeout=60_000)
    where = tab.testid("timeline-step")
    expect(where).to_have_attribute("data-line", "3")
    expect(tab.testid("timeline-iteration").locator("option:checked")).to_have_text("iteration 5,000")
    tab.testid("timeline-forward").click()
    expect(where).to_have_attribute("data-line", "4")
    # h = x * i with i = 4999 in the 5,000th iteration.
    expect(tab.page.locator("[data-testid=grads] tr[data-tensor=h]")).to_contain_text("9998.")


GONE = """import torch
a = torch.tensor([1.0, -1.0], requires_grad=True)
for i in range(2):
    c = (a * 1).exp()
    c.sum().backward()
"""


def test_a_gone_nodes_saved_tensor_shows_the_values_it_was_saved_with(playground):
    tab = playground
    assert tab.run(GONE)["ok"]
    slider = tab.testid("timeline")
    details = tab.testid("node-details")
    # Step 4: line 4 of the first iteration; its ExpBackward0 is gone by the run's end (c rebound).
    slider.fill("4")
    tab.page.locator("[data-testid=graph] g.node[data-name=ExpBackward0]").click()
    expect(details.locator("[data-testid=details-at]")).to_have_text("as at step 4 of the timeline")
    alive = details.locator("li.saved-alive")
    expect(alive).to_have_count(1)
    expect(alive.locator("pre.values")).to_have_text("[2.7183, 0.3679]")  # e^1, e^-1, as PyTorch prints them
    slider.fill("6")  # its pass freed it: no values, as for a live node
    expect(details.locator("li.saved-freed")).to_have_count(1)
    expect(details.locator("li.saved-freed pre.values")).to_have_count(0)
