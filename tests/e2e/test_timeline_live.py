"""Live mode (issue 12): re-runs after typing stops, keeps the timeline position and the zoom,
keeps the last good view over a half-typed line, and stops an infinite loop."""

import pytest
from playwright.sync_api import expect

from playground_helpers import PlaygroundPage

START = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.sum()
z.backward()
"""


@pytest.fixture(scope="module")
def tab(browser, server_url):
    tab = PlaygroundPage(browser, server_url).open()
    yield tab
    tab.close()


def type_at_end(tab, text):
    content = tab.page.locator(".cm-content")
    content.click()
    tab.page.keyboard.press("Control+End")
    tab.page.keyboard.type(text)


def test_live_mode_is_off_by_default_then_updates_after_typing(tab):
    tab.set_code(START)
    toggle = tab.testid("live-toggle")
    expect(toggle).not_to_be_checked()
    type_at_end(tab, "v = y * 2\n")
    tab.page.wait_for_timeout(1500)
    assert tab.page.locator("[data-testid=graph] g.node").count() == 0  # off: nothing ran
    toggle.check()  # turning it on runs at once
    note = tab.testid("live-note")
    expect(note).to_have_attribute("data-kind", "updated", timeout=30_000)
    graph = tab.page.locator("[data-testid=graph]")
    expect(graph.locator("g.node[data-line='6']")).to_have_count(2)  # v and its MulBackward0
    # The learner moves the timeline back and zooms; a live update keeps both.
    slider = tab.testid("timeline")
    slider.fill("4")
    graph.locator("button[aria-label='Zoom in']").click()
    transform = graph.locator("g.viewport").get_attribute("transform")
    type_at_end(tab, "u = v + 1\n")
    expect(graph.locator("g.node[data-line='7']")).to_have_count(2, timeout=30_000)
    expect(note).to_have_attribute("data-kind", "updated")
    expect(slider).to_have_value("4")
    assert slider.get_attribute("max") == "8"
    assert tab.testid("timeline-step").get_attribute("data-line") == "4"
    assert graph.locator("g.viewport").get_attribute("transform") == transform


def test_a_half_typed_line_keeps_the_last_good_view(tab):
    graph = tab.page.locator("[data-testid=graph]")
    before = graph.locator("g.node").count()
    assert before > 0
    type_at_end(tab, "w = (u *")
    note = tab.testid("live-note")
    expect(note).to_have_attribute("data-kind", "syntax", timeout=30_000)
    expect(note).to_contain_text("line 8")
    assert graph.locator("g.node").count() == before
    assert tab.testid("timeline").get_attribute("max") == "8"
    tab.page.keyboard.type(" 2)\n")
    expect(graph.locator("g.node[data-line='8']")).to_have_count(2, timeout=30_000)
    expect(note).to_have_attribute("data-kind", "updated")


def test_an_infinite_loop_is_stopped_and_live_mode_says_so(tab):
    graph = tab.page.locator("[data-testid=graph]")
    before = graph.locator("g.node").count()
    good = tab.get_code()
    type_at_end(tab, "while True: pass\n")
    note = tab.testid("live-note")
    expect(note).to_have_attribute("data-kind", "stopped", timeout=40_000)
    expect(note).to_contain_text("stopped")
    assert graph.locator("g.node").count() == before  # the last good view stays
    # Python comes back (restarted, or interrupted) and live mode runs the fixed code again.
    tab.wait_ready()
    tab.set_code(good)
    expect(note).to_have_attribute("data-kind", "updated", timeout=40_000)
    expect(graph.locator("g.node[data-line='8']")).to_have_count(2)
    tab.testid("live-toggle").uncheck()
    expect(note).to_have_text("")
