"""What a learner meets first: fresh runs, lessons that don't leak, a freed graph explained,
runs asked for while Python loads, and an undoable "Original code"."""

import re

from playwright.sync_api import expect

from playground_helpers import LESSONS, LOAD_TIMEOUT_MS, PlaygroundPage


def restore_lesson_code(playground):
    """Puts the current lesson's own code back, so no draft is left for the other tests."""
    lesson_id = playground.testid("lessons").input_value()
    lesson = next(item for item in LESSONS if item["id"] == lesson_id)
    playground.set_code("\n".join(lesson["code"]) + "\n")


def graph_tensor_names(playground):
    names = playground.testid("graph").locator("g.node.node-tensor").evaluate_all(
        "nodes => nodes.map(n => n.dataset.name)")
    return {name for joined in names for name in joined.split(",") if name}


def code_names(code):
    return set(re.findall(r"[A-Za-z_]\w*", code))


def test_lessons_in_a_row_each_show_only_their_own_tensors(playground):
    page = playground.page
    playground.testid("lessons").select_option(LESSONS[-1]["id"])  # so that lesson 1 is a change
    playground.click_run()
    for lesson in LESSONS:
        playground.testid("lessons").select_option(lesson["id"])
        # Picking a lesson starts clean: no output, no graph, no error mark of the last one.
        expect(playground.testid("output")).to_have_text("")
        expect(playground.testid("graph").locator("g.node")).to_have_count(0)
        expect(playground.testid("graph-alert")).to_be_hidden()
        code = "\n".join(lesson["code"])
        if playground.get_code().strip() != code.strip():
            # a draft another test on this shared tab left for the lesson (an edit is kept per
            # lesson, as a learner's is): the lesson's own code runs here
            page.locator("#restore").click()
        playground.click_run()
        shown = graph_tensor_names(playground)
        assert shown <= code_names(code), (lesson["id"], shown - code_names(code))
        # The lessons that end in an error with a place on the graph (a freed graph, a non-scalar).
        error = lesson["expect"]["error"]
        failed = error is not None and any(mark in error["message_prefix"] for mark in ("second time", "scalar outputs"))
        if failed:
            expect(playground.testid("graph-alert")).to_be_visible()
        else:
            expect(playground.testid("graph-alert")).to_be_hidden()
        root = page.get_by_test_id("backward-root")
        if root.count():
            assert root.input_value() in code_names(code), lesson["id"]


def test_run_is_a_fresh_script_and_the_console_continues_it(playground):
    assert playground.run("a = 41\n")["ok"]
    playground.console_eval("a + 1")
    expect(playground.testid("output")).to_contain_text("42")
    result = playground.run("print(a)\n")
    assert result["error"]["type"] == "NameError"
    expect(playground.testid("console-hint")).to_contain_text("fresh")
    restore_lesson_code(playground)


FREED_CODE = """\
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
out = x * x * w
out.sum().backward()
total = out.sum()
"""


def test_backward_panel_explains_a_freed_graph_and_applies_the_fix(playground, results_dir):
    page = playground.page
    playground.run(FREED_CODE.replace("total = out.sum()\n", ""))
    playground.testid("tab-backward").click()
    panel = playground.testid("backward")
    panel.get_by_test_id("backward-root").select_option("out")
    help_box = panel.get_by_test_id("freed-help")
    expect(help_box).to_contain_text("out.sum().backward() at line 5")
    expect(help_box).to_contain_text("retain_graph=True")
    page.screenshot(path=str(results_dir / "learner-freed-help.png"))
    # Pressing Backward anyway shows PyTorch's error once, in the output, and no second copy.
    panel.get_by_test_id("backward-run").click()
    out = playground.testid("output")
    expect(out).to_contain_text("Trying to backward through the graph a second time")
    expect(panel.get_by_test_id("backward-error")).to_have_count(0)
    panel.get_by_test_id("jacobian-build").click()
    expect(playground.testid("status")).to_have_attribute("data-state", "ready")
    expect(panel.get_by_test_id("backward-error")).to_have_count(0)
    # The fix: retain_graph=True on line 5, and the script runs again.
    fix = panel.get_by_test_id("freed-fix")
    expect(fix).to_contain_text("line 5")
    fix.click()
    expect(page.locator("#run-info")).to_have_attribute("data-ok", "true")
    assert playground.get_code().splitlines()[4] == "out.sum().backward(retain_graph=True)"
    panel.get_by_test_id("backward-root").select_option("out")
    expect(panel.get_by_test_id("freed-help")).to_have_count(0)
    panel.get_by_test_id("jacobian-input").select_option("x")
    panel.get_by_test_id("jacobian-build").click()
    expect(panel.get_by_test_id("jacobian-table")).to_have_attribute("data-filled", "3", timeout=10_000)
    playground.testid("tab-grads").click()
    restore_lesson_code(playground)


def test_original_code_can_be_undone(playground):
    lesson = LESSONS[0]
    playground.testid("lessons").select_option(lesson["id"])
    mine = "# my experiment\nprint('mine')\n"
    playground.set_code(mine)
    playground.page.locator("#restore").click()
    assert playground.get_code() == "\n".join(lesson["code"]) + "\n"
    notice = playground.testid("restore-notice")
    expect(notice).to_be_visible()
    notice.get_by_test_id("restore-undo").click()
    assert playground.get_code() == mine
    expect(notice).to_be_hidden()
    playground.set_code("\n".join(lesson["code"]) + "\n")


def test_run_and_ctrl_enter_while_loading_run_once(browser, server_url):
    tab = PlaygroundPage(browser, server_url)
    try:
        tab.page.goto(server_url)
        expect(tab.testid("status")).to_have_attribute("data-state", "loading")
        run = tab.testid("run")
        expect(run).to_have_attribute("title", re.compile("once Python is ready"))
        tab.set_code("print('ran')\n")
        run.click()  # taken while loading: it runs once Python is ready
        expect(run).to_be_disabled()
        assert "your code will run once" in run.get_attribute("title")
        tab.page.locator(".cm-content").click()
        for _ in range(2):
            tab.page.keyboard.press("Control+Enter")
        expect(tab.testid("output")).to_contain_text("your code will run once")
        expect(tab.page.locator("#run-info")).not_to_be_empty(timeout=LOAD_TIMEOUT_MS)
        tab.page.wait_for_timeout(1500)  # a second queued run would have answered by now
        assert tab.output_text().count("ran") == 1
        assert tab.state() == "ready"
        assert run.get_attribute("title").startswith("Run the editor")
    finally:
        tab.close()


VERSION_CODE = """\
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
y.add_(1)
y.sum().backward()
"""


def test_version_counter_error_is_marked_on_the_graph(playground, results_dir):
    playground.set_code(VERSION_CODE)
    output = playground.click_run()
    assert "modified by an inplace operation" in output
    failed = playground.testid("graph").locator("g.node.failed")
    expect(failed).to_have_count(1)
    expect(failed).to_have_attribute("data-name", "ExpBackward0")
    alert = playground.testid("graph-alert")
    expect(alert).to_have_attribute("data-kind", "version")
    expect(alert).to_contain_text("modified in place")
    expect(alert).not_to_contain_text("retain_graph")
    playground.page.screenshot(path=str(results_dir / "learner-version-error.png"))
    # Step-through ends on the error, and does not claim backward() finished.
    playground.testid("tab-steps").click()
    step_next = playground.testid("step-next")
    events = []
    while step_next.is_enabled():
        step_next.click()
        events.append(playground.testid("step-current").get_attribute("data-event"))
    assert events[-2:] == ["error", "end"]
    expect(playground.testid("step-current")).to_have_text("backward() stopped: it raised the error above")
    playground.testid("step-back").click()
    expect(playground.testid("steps")).to_contain_text("modified in place")
    playground.testid("tab-grads").click()
    restore_lesson_code(playground)


def test_keyboard_reaches_every_tab_runs_from_anywhere_and_indents(playground):
    page = playground.page
    tab = playground.testid("tab-grads")
    tab.click()
    tab.focus()
    page.keyboard.press("ArrowRight")
    expect(playground.testid("tab-backward")).to_have_attribute("aria-selected", "true")
    expect(playground.testid("tab-backward")).to_be_focused()
    expect(playground.testid("backward")).to_be_visible()
    page.keyboard.press("End")
    expect(playground.testid("modes")).to_be_visible()
    page.keyboard.press("ArrowRight")  # wraps around
    expect(playground.testid("grads")).to_be_visible()
    expect(playground.testid("tab-grads")).to_be_focused()
    # Ctrl+Enter runs the editor with the focus outside it (here: the empty console line).
    playground.set_code("print('from the keyboard')\n")
    page.evaluate("document.querySelector('#run-info').textContent = ''")
    playground.testid("console-input").focus()
    page.keyboard.press("Control+Enter")
    expect(page.locator("#run-info")).not_to_be_empty()
    expect(playground.testid("output")).to_contain_text("from the keyboard")
    # Tab indents inside the editor instead of leaving it.
    playground.set_code("if True:\n")
    page.locator(".cm-line").nth(1).click()
    page.keyboard.press("Tab")
    page.keyboard.type("pass")
    assert playground.get_code() == "if True:\n    pass"
    restore_lesson_code(playground)


# ---- every autograd error with a place in the graph: marked, explained, a fix on a click ----------

def failed_mark(playground):
    return playground.testid("graph").locator("g.node.failed")


def step_events(playground):
    """Steps through the last pass from its first step; returns each step's event."""
    playground.testid("tab-steps").click()
    if playground.testid("step-restart").is_enabled():
        playground.testid("step-restart").click()
    events = [playground.testid("step-current").get_attribute("data-event")]
    step_next = playground.testid("step-next")
    while step_next.is_enabled():
        step_next.click()
        events.append(playground.testid("step-current").get_attribute("data-event"))
    return events


LEAF_CODE = """\
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
w -= 0.1 * w.grad
print(w)
"""


def test_inplace_on_a_leaf_is_marked_and_fixed_only_on_a_click_undoably(playground, results_dir):
    page = playground.page
    playground.set_code(LEAF_CODE)
    assert "a leaf Variable that requires grad is being used in an in-place operation" in playground.click_run()
    expect(failed_mark(playground)).to_have_count(1)
    expect(failed_mark(playground)).to_have_attribute("data-name", "w")
    expect(failed_mark(playground)).to_have_class(re.compile(r"\bnode-tensor\b"))
    alert = playground.testid("graph-alert")
    expect(alert).to_have_attribute("data-kind", "leaf_inplace")
    expect(alert.get_by_test_id("graph-alert-text")).to_contain_text("w is a leaf that requires grad")
    fix = alert.locator('[data-testid="graph-fix"][data-fix="no_grad"]')
    expect(fix).to_have_text("Wrap line 5 in torch.no_grad()")
    expect(alert.locator('[data-fix="clone"]')).to_have_count(0)  # an update step: a clone would lose w.grad
    page.screenshot(path=str(results_dir / "learner-leaf-inplace.png"))
    # Nothing changes in the editor until the fix is clicked.
    assert playground.get_code() == LEAF_CODE
    fix.click()
    expect(page.locator("#run-info")).to_have_attribute("data-ok", "true")
    assert playground.get_code().splitlines()[4] == "with torch.no_grad(): w -= 0.1 * w.grad"
    expect(playground.testid("output")).to_contain_text("tensor([0.8000, 1.6000], requires_grad=True)")
    expect(alert).to_be_hidden()
    undo = playground.testid("restore-notice")
    expect(undo).to_contain_text("The fix was applied at line 5")
    undo.get_by_test_id("restore-undo").click()
    assert playground.get_code() == LEAF_CODE
    restore_lesson_code(playground)


NONSCALAR_CODE = """\
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.backward()
print(x.grad)
"""


def test_nonscalar_backward_is_marked_ends_the_steps_and_offers_sum_or_weights(playground, results_dir):
    page = playground.page
    playground.set_code(NONSCALAR_CODE)
    assert "grad can be implicitly created only for scalar outputs" in playground.click_run()
    expect(failed_mark(playground)).to_have_attribute("data-name", "y")
    alert = playground.testid("graph-alert")
    expect(alert).to_have_attribute("data-kind", "nonscalar")
    expect(alert).to_contain_text("y has shape (3,), not a scalar")
    fixes = alert.get_by_test_id("graph-fix")
    expect(fixes).to_have_count(2)
    expect(alert.locator('[data-fix="sum"]')).to_have_text("Use .sum() at line 4")
    expect(alert).to_contain_text("y.backward(gradient=torch.ones_like(y))")
    # Backward raised before it began: the step-through holds the error and says it stopped.
    assert step_events(playground) == ["error", "end"]
    expect(playground.testid("step-current")).to_have_text("backward() stopped: it raised the error above")
    playground.testid("step-back").click()
    expect(playground.testid("steps")).to_contain_text("the output is not a scalar")
    expect(failed_mark(playground)).to_have_class(re.compile(r"\bstep-current\b"))
    playground.testid("tab-grads").click()
    # The same explanation and fixes in Chinese.
    page.locator('[data-lang="zh"]').click()
    try:
        expect(alert).to_contain_text("y 的形状是 (3,)，不是标量")
        expect(alert.locator('[data-fix="sum"]')).to_have_text("在第 4 行改用 .sum()")
        page.screenshot(path=str(results_dir / "learner-nonscalar-zh.png"))
    finally:
        page.locator('[data-lang="en"]').click()
    assert playground.get_code() == NONSCALAR_CODE
    alert.locator('[data-fix="ones_like"]').click()
    expect(page.locator("#run-info")).to_have_attribute("data-ok", "true")
    expect(playground.testid("output")).to_contain_text("tensor([2., 4., 6.])")
    assert playground.get_code().splitlines()[3] == "y.backward(gradient=torch.ones_like(y))"
    # The editor's own undo takes the fix back too: it was one edit.
    page.locator(".cm-content").click()
    page.keyboard.press("Control+z")
    assert playground.get_code() == NONSCALAR_CODE
    restore_lesson_code(playground)


UNUSED_CODE = """\
import torch
x = torch.tensor(2.0, requires_grad=True)
w = torch.tensor(1.0, requires_grad=True)
y = x ** 3
gx, gw = torch.autograd.grad(y, [x, w])
print(gx, gw)
"""


def test_grad_of_an_unused_input_is_marked_and_offers_allow_unused(playground, results_dir):
    page = playground.page
    playground.set_code(UNUSED_CODE)
    assert "appears to not have been used in the graph" in playground.click_run()
    expect(failed_mark(playground)).to_have_attribute("data-name", "w")
    alert = playground.testid("graph-alert")
    expect(alert).to_have_attribute("data-kind", "unused")
    expect(alert).to_contain_text("w (input 1) is not used to compute the output")
    page.screenshot(path=str(results_dir / "learner-unused.png"))
    events = step_events(playground)
    assert events[0] == "begin" and events[-2:] == ["error", "end"]
    expect(playground.testid("step-current")).to_have_text("backward() stopped: it raised the error above")
    playground.testid("tab-grads").click()
    fix = alert.locator('[data-fix="allow_unused"]')
    expect(fix).to_have_text("Add allow_unused=True at line 5")
    fix.click()
    expect(page.locator("#run-info")).to_have_attribute("data-ok", "true")
    expect(playground.testid("output")).to_contain_text("tensor(12.) None")
    assert playground.get_code().splitlines()[4] == "gx, gw = torch.autograd.grad(y, [x, w], allow_unused=True)"
    restore_lesson_code(playground)


def test_second_backward_offers_retain_graph_on_the_graph(playground):
    page = playground.page
    code = "import torch\nx = torch.tensor(3.0, requires_grad=True)\ny = x * x\ny.backward()\ny.backward()\n"
    playground.set_code(code)
    playground.click_run()
    alert = playground.testid("graph-alert")
    expect(alert).to_have_attribute("data-kind", "freed")
    fix = alert.locator('[data-fix="retain_graph"]')
    expect(fix).to_have_text("Add retain_graph=True at line 4")  # where the graph was freed, not line 5
    fix.click()
    expect(page.locator("#run-info")).to_have_attribute("data-ok", "true")
    assert playground.get_code().splitlines()[3] == "y.backward(retain_graph=True)"
    restore_lesson_code(playground)


# ---- the lessons in Chinese ---------------------------------------------------------------------

def test_lesson_comments_follow_the_language_unless_edited(playground, results_dir):
    page = playground.page
    lesson = LESSONS[0]
    english, chinese = ("\n".join(lesson[key]) + "\n" for key in ("code", "code_zh"))
    playground.testid("lessons").select_option(lesson["id"])
    assert playground.get_code() == english
    page.locator('[data-lang="zh"]').click()
    try:
        assert playground.get_code() == chinese
        assert "# 叶子节点：由你亲手创建" in playground.get_code()
        playground.click_run()
        # The graph's tags speak Chinese too: ROOT is 根.
        tags = playground.testid("graph").locator(".root-tag")
        assert set(tags.all_text_contents()) == {"根"}
        page.screenshot(path=str(results_dir / "learner-lesson-zh.png"))
        # "Original code" gives the Chinese version, and an edited lesson keeps its text.
        edited = chinese + "print('mine')\n"
        playground.set_code(edited)
        page.locator('[data-lang="en"]').click()
        assert playground.get_code() == edited
        page.locator('[data-lang="zh"]').click()
        page.locator("#restore").click()
        assert playground.get_code() == chinese
    finally:
        page.locator('[data-lang="en"]').click()
    assert playground.get_code() == english
    assert set(playground.testid("graph").locator(".root-tag").all_text_contents()) == {"ROOT"}


def test_a_fix_applies_after_the_comments_switched_language(playground):
    page = playground.page
    lesson = next(item for item in LESSONS if item["id"] == "non-scalar")
    playground.testid("lessons").select_option(lesson["id"])
    assert "scalar outputs" in playground.click_run()
    last = len(lesson["code"])
    page.locator('[data-lang="zh"]').click()
    try:
        # The code took its Chinese comments; the line that raised is still marked.
        assert playground.get_code() == "\n".join(lesson["code_zh"]) + "\n"
        expect(page.locator(".cm-error-line")).to_have_count(1)
        expect(page.locator(".cm-error-line")).to_contain_text("y.backward()")
        alert = playground.testid("graph-alert")
        alert.locator('[data-fix="sum"]').click()
        expect(page.locator("#run-info")).to_have_attribute("data-ok", "true")
        assert playground.get_code().splitlines()[last - 1] == "y.sum()" + lesson["code_zh"][last - 1][1:]
    finally:
        page.locator('[data-lang="en"]').click()
    playground.set_code("\n".join(lesson["code"]) + "\n")
