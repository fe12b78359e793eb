"""Time travel (issue 12): every backward pass on the timeline opens in the step-through of that pass."""

import re

from playwright.sync_api import expect

LOOP = """import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(3):
    loss = (w * w * (i + 1)).sum()
    loss.backward()
print(w.grad)
"""

# Each pass's gradient into w: d/dw sum(w * w * (i + 1)) = 2 (i + 1) w.
OWN_GRADS = {1: "[2., 4.]", 2: "[4., 8.]", 3: "[ 6., 12.]"}


def go_to_pass(tab, number):
    """Moves the slider to pass ``number``'s step; returns its "step through" button."""
    slider = tab.testid("timeline")
    button = tab.testid("timeline-open-pass")
    for value in range(1, int(slider.get_attribute("max")) + 1):
        slider.fill(str(value))
        if button.is_visible() and button.get_attribute("data-pass") == str(number):
            break
    expect(tab.testid("timeline-step")).to_contain_text("backward()")
    return button


def open_pass(tab, number):
    """Opens pass ``number`` from its timeline step in the step-through."""
    go_to_pass(tab, number).click()
    steps = tab.testid("steps")
    expect(steps).to_be_visible()
    expect(tab.testid("step-pass")).to_have_attribute("data-pass", str(number))
    return steps


def accumulated(steps):
    """The gradient the pass's AccumulateGrad step hands to w (its card, once selected)."""
    steps.locator("[data-testid=step-list] li.ev-accumulate").click()
    card = steps.locator(".step-card.ev-accumulate pre.values")
    return card


def test_each_pass_of_a_loop_opens_with_its_own_grads(playground):
    tab = playground
    assert tab.run(LOOP)["ok"]
    for number in (1, 2, 3, 1):
        steps = open_pass(tab, number)
        expect(tab.testid("step-pass")).to_have_text(f"Backward pass {number}: 6 steps, called at line 5",
                                                     use_inner_text=True)
        expect(accumulated(steps)).to_have_text(OWN_GRADS[number])
        # the step-through's highlight is on the graph the timeline draws at that step
        expect(tab.page.locator("[data-testid=graph] g.node.step-current:not(.tl-hidden)")).to_have_count(1)
        tab.testid("tab-grads").click()
    try:
        tab.page.locator("[data-lang=zh]").click()
        open_pass(tab, 2)
        expect(tab.testid("step-pass")).to_have_text("第 2 次反向传播：6 步，在第 5 行调用", use_inner_text=True)
        tab.testid("tab-grads").click()
    finally:
        tab.page.locator("[data-lang=en]").click()


# 250 passes: the run keeps the steps of its first 200 and its last (timeline_passes.PASS_LIMIT), and
# the timeline shows iterations 1-20 and 250 (the rest folded). Iteration 230 opens by a replay; its
# pass, not kept by that run either, opens by another.
LONG = """import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
for i in range(250):
    loss = (w * w * (i + 1)).sum()
    loss.backward()
print(w.grad)
"""


def test_a_pass_the_run_did_not_keep_opens_by_a_replay(playground):
    tab = playground
    assert tab.run(LONG)["ok"]
    output = tab.output_text()
    expect(accumulated(open_pass(tab, 20))).to_have_text("[40., 80.]")
    tab.testid("tab-grads").click()
    expect(go_to_pass(tab, 20)).to_have_attribute("title", "")
    tab.testid("timeline-open-iteration").fill("230")
    tab.testid("timeline-open-iteration-go").click()
    note = tab.testid("timeline-note")
    expect(note).to_contain_text("iteration 230 opened (the code ran again)")
    # Pass 230 was not kept: its button says it runs the code again, and then it opens.
    button = go_to_pass(tab, 230)
    expect(button).to_have_attribute("title", re.compile("opens by running the code again"))
    button.click()
    expect(note).to_contain_text("pass 230 opened (the code ran again)")
    expect(tab.testid("step-pass")).to_have_text("Backward pass 230: 6 steps, called at line 5", use_inner_text=True)
    expect(accumulated(tab.testid("steps"))).to_have_text("[460., 920.]")
    expect(tab.testid("timeline-step")).to_contain_text("backward()")
    expect(button).to_have_attribute("data-pass", "230")
    assert tab.output_text() == output  # the replays print nothing again
    tab.console_eval("print(w.grad.sum().item())")  # the session goes on from the replay's end
    expect(tab.testid("output")).to_contain_text("188250.0")  # 3 * 250 * 251
