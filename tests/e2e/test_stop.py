"""Stop ends an infinite loop within 5 s and keeps the code, with and without isolation."""

import time

from playwright.sync_api import expect

LOOP = "while True:\n    pass\n"


def start_loop(playground, code=LOOP):
    playground.set_code(code)
    playground.testid("run").click()
    expect(playground.testid("status")).to_have_attribute("data-state", "running")
    playground.page.wait_for_timeout(500)  # let it really spin


def stop_and_time(playground):
    started = time.monotonic()
    playground.testid("stop").click()
    expect(playground.testid("status")).to_have_attribute("data-state", "ready", timeout=5_000)
    return time.monotonic() - started


def test_stop_interrupts_and_keeps_variables_when_isolated(isolated_playground):
    tab = isolated_playground
    assert tab.page.evaluate("crossOriginIsolated") is True
    # Each Run is a fresh script: the variable is defined by the run that loops.
    start_loop(tab, "kept = 41\n" + LOOP)
    elapsed = stop_and_time(tab)
    assert elapsed < 5
    out = tab.testid("output")
    expect(out).to_contain_text("KeyboardInterrupt")
    expect(out).to_contain_text("Interrupted; your variables are kept.")
    assert tab.get_code() == "kept = 41\n" + LOOP
    tab.console_eval("kept + 1")
    expect(out).to_contain_text("42")
    # The interrupt does not leak into the next run.
    assert tab.run("print('next run')")["stdout"] == "next run\n"


def test_stop_restarts_python_when_not_isolated(playground):
    tab = playground
    assert tab.page.evaluate("crossOriginIsolated") is False
    start_loop(tab, "kept = 41\n" + LOOP)
    elapsed = stop_and_time(tab)
    assert elapsed < 5
    out = tab.testid("output")
    expect(out).to_contain_text("Python was restarted")
    assert tab.get_code() == "kept = 41\n" + LOOP
    tab.console_eval("kept")
    expect(out).to_contain_text("NameError: name 'kept' is not defined")
    result = tab.run("import torch\nprint(torch.ones(2))")
    assert result["ok"], result["error"]
    assert result["stdout"] == "tensor([1., 1.])\n"


def test_isolated_page_made_no_foreign_request(isolated_playground):
    foreign = [u for u in isolated_playground.requests if not u.startswith(isolated_playground.url)]
    assert isolated_playground.requests and foreign == []
