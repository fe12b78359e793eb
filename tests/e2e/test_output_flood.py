"""A print flood: the output is drawn a piece per frame and capped, a hint says Stop ends the
run (in both languages), and the page keeps answering: Stop can be pressed during the flood.
How long the page's tasks take is a bench figure (bench/web_load.py), not asserted here."""

from playwright.sync_api import expect

from test_learner import restore_lesson_code

FLOOD = "for i in range(100000):\n    print(i)\n"
ENDLESS = "i = 0\nwhile True:\n    print('line', i)\n    i += 1\n"


def test_a_print_flood_is_capped_and_drawn_whole(playground):
    page = playground.page
    result = playground.run(FLOOD)
    assert result["ok"]
    out = playground.testid("output")
    expect(out).to_contain_text("[output truncated: more than 20,000 lines")
    text = out.evaluate("el => el.textContent")
    lines = text.splitlines()
    # The first 20,000 lines, in order, nothing lost or doubled between the pieces drawn.
    assert lines[:20_000] == [str(i) for i in range(20_000)]
    assert text.startswith(result["stdout"])
    # Drawn in blocks, so that new text never makes the browser lay out the whole log again.
    assert out.locator(".out-chunk").count() > 5
    expect(playground.testid("stop-hint")).to_be_hidden()  # the run is over
    page.evaluate("document.querySelector('#run-info').textContent = ''")
    restore_lesson_code(playground)


def test_stop_hint_shows_during_a_flood_and_stop_works(playground, results_dir):
    page = playground.page
    hint = playground.testid("stop-hint")
    playground.set_code(ENDLESS)
    playground.testid("run").click()
    expect(hint).to_be_visible(timeout=20_000)
    expect(hint).to_have_attribute("data-reason", "flood")
    expect(hint).to_contain_text("press Stop")
    # The page still answers: the language switch redraws the hint, in Chinese and back.
    page.locator('[data-lang="zh"]').click()
    expect(hint).to_contain_text("停止")
    page.screenshot(path=str(results_dir / "flood-hint-zh.png"))
    page.locator('[data-lang="en"]').click()
    expect(hint).to_contain_text("press Stop")
    expect(playground.testid("output")).to_contain_text("line 1000")
    playground.testid("stop").click()
    expect(playground.testid("status")).to_have_attribute("data-state", "ready", timeout=30_000)
    expect(hint).to_be_hidden()
    restore_lesson_code(playground)


def test_stop_hint_shows_when_a_quiet_run_goes_long(playground):
    hint = playground.testid("stop-hint")
    playground.set_code("while True:\n    pass\n")
    playground.testid("run").click()
    expect(hint).to_have_attribute("data-reason", "long", timeout=20_000)
    expect(hint).to_contain_text("Still running")
    playground.testid("stop").click()
    expect(playground.testid("status")).to_have_attribute("data-state", "ready", timeout=30_000)
    expect(hint).to_be_hidden()
    restore_lesson_code(playground)
