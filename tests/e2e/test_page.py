"""The playground page as a learner uses it: errors, safety, floods, console, reload."""

import time

from playwright.sync_api import expect

from playground_helpers import LESSONS

CONTRACT_TESTIDS = ["editor", "run", "stop", "reset", "output", "status", "lessons",
                    "console-input", "graph", "grads"]


def run_and_wait(playground, code):
    playground.set_code(code)
    return playground.click_run()


def test_page_has_the_contract_elements(playground):
    for testid in CONTRACT_TESTIDS:
        expect(playground.testid(testid)).to_have_count(1)
    assert playground.state() == "ready"
    # The views are built (their content is tested in test_views.py).
    expect(playground.testid("graph").locator("svg.graph-svg")).to_have_count(1)
    expect(playground.testid("grads")).to_have_attribute("role", "tabpanel")
    options = playground.testid("lessons").locator("option")
    expect(options).to_have_count(len(LESSONS))
    assert "Ready" in playground.testid("status").inner_text()


def test_backward_twice_shows_pytorchs_message_and_marks_the_line(playground):
    output = run_and_wait(playground, (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "loss = (x * x).sum()\n"
        "loss.backward()\n"
        "loss.backward()\n"
    ))
    assert "RuntimeError: Trying to backward through the graph a second time" in output
    assert "Specify retain_graph=True" in output
    error_box = playground.page.locator('[data-testid="output"] .out-error')
    traceback_text = error_box.inner_text()
    assert 'File "<editor>", line 5, in <module>' in traceback_text
    assert "autograd_py" not in traceback_text  # library frames are hidden
    expect(playground.page.locator(".cm-error-line")).to_have_text("loss.backward()")
    # Editing clears the mark.
    playground.set_code(playground.get_code() + "# edited\n")
    expect(playground.page.locator(".cm-error-line")).to_have_count(0)


def test_printed_html_is_shown_as_text(playground):
    payload = "<img src=x onerror=alert(1)>"
    output = run_and_wait(playground, f"print({payload!r})\nprint('<b>bold?</b>')\n")
    assert payload in output
    assert "<b>bold?</b>" in output
    out = playground.testid("output")
    expect(out.locator("img")).to_have_count(0)
    expect(out.locator("b")).to_have_count(0)
    playground.page.wait_for_timeout(300)  # an onerror handler would have fired by now
    assert playground.dialogs == []


def test_a_million_lines_are_capped_and_the_page_stays_responsive(playground):
    playground.set_code("for i in range(10**6):\n    print(i)\nprint('done')\n")
    started = time.monotonic()
    playground.testid("run").click()
    expect(playground.testid("status")).to_have_attribute("data-state", "running")
    # While Python floods, the page's main thread must keep answering.
    slowest = 0.0
    while playground.state() == "running" and time.monotonic() - started < 60:
        t0 = time.monotonic()
        playground.page.evaluate("1 + 1")
        slowest = max(slowest, time.monotonic() - t0)
        playground.page.wait_for_timeout(100)
    expect(playground.testid("status")).to_have_attribute("data-state", "ready", timeout=60_000)
    elapsed = time.monotonic() - started
    output = playground.output_text()
    assert "output truncated" in output
    assert "\n19999\n" in output and "\n20000\n" not in output
    assert "done" not in output.split("output truncated")[0]
    assert slowest < 1.0, f"main thread blocked for {slowest:.2f} s"
    assert elapsed < 30, f"the flood took {elapsed:.1f} s"
    # And the page still works afterwards.
    assert "after the flood" in run_and_wait(playground, "print('after the flood')")


def test_console_input_shares_the_editor_namespace(playground):
    run_and_wait(playground, (
        "import torch\n"
        "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "(x * x).sum().backward()\n"
    ))
    playground.console_eval("x.grad")
    out = playground.testid("output")
    expect(out).to_contain_text(">>> x.grad")
    expect(out).to_contain_text("tensor([2., 4., 6.])")
    playground.console_eval("y = x.grad * 10")
    playground.console_eval("print(y)")
    expect(out).to_contain_text("tensor([20., 40., 60.])")
    playground.console_eval("undefined_name")
    expect(out.locator(".out-error").last).to_contain_text(
        "NameError: name 'undefined_name' is not defined")


def test_reset_forgets_variables(playground):
    run_and_wait(playground, "remember_me = 5\n")
    playground.testid("reset").click()
    expect(playground.testid("output")).to_contain_text("Namespace reset")
    output = run_and_wait(playground, "print(remember_me)\n")
    assert "NameError: name 'remember_me' is not defined" in output


def test_language_switch_translates_the_page(playground):
    page = playground.page
    page.locator('[data-lang="zh"]').click()
    expect(playground.testid("run")).to_contain_text("运行")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hans")
    first = playground.testid("lessons").locator("option").first
    expect(first).to_contain_text(LESSONS[0]["title"]["zh"])
    page.locator('[data-lang="en"]').click()
    expect(playground.testid("run")).to_contain_text("Run")
    expect(first).to_contain_text(LESSONS[0]["title"]["en"])


def test_edited_code_survives_a_reload(playground):
    code = "# my own experiment\nimport torch\nprint(torch.ones(2) * 3)\n"
    playground.set_code(code)
    # A second tab of the same browser profile: reloading it must keep the code.
    other = playground.context.new_page()
    other.goto(playground.url)
    assert other.evaluate("window.playground.getCode()") == code
    other.evaluate("window.playground.setCode('# changed in tab 2\\n')")
    other.reload()
    assert other.evaluate("window.playground.getCode()") == "# changed in tab 2\n"
    other.close()
    playground.set_code(code)


def test_screenshot_of_a_lesson(playground, results_dir):
    lesson = next(lesson for lesson in LESSONS if lesson["id"] == "nonleaf-grad")
    playground.testid("lessons").select_option(lesson["id"])
    playground.testid("run").click()
    expect(playground.testid("output")).to_contain_text("hook sees", timeout=30_000)
    expect(playground.testid("status")).to_have_attribute("data-state", "ready")
    path = results_dir / "playground-lesson.png"
    playground.page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000


def test_no_request_leaves_127_0_0_1(playground):
    assert playground.requests, "no request was recorded at all"
    foreign = [url for url in playground.requests if not url.startswith(playground.url)]
    assert foreign == []
    # The page runs under its own Content-Security-Policy without violating it.
    assert not [line for line in playground.console if "Content Security Policy" in line]
