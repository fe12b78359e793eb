"""Unit tests for the playground's Python bridge (autograd_py.playground), run in CPython."""

import json
import sys
from pathlib import Path

import pytest

from autograd_py.playground import session as playground
from autograd_py.playground import Session


@pytest.fixture
def session():
    return Session()


def test_each_run_is_a_fresh_script_and_the_console_continues_it(session):
    assert session.run("a = 41")["ok"]
    assert session.eval_line("a += 1")["ok"]
    assert session.eval_line("a * 2")["stdout"] == "84\n"
    result = session.run("b = 2\nprint(a)")  # a new run forgets the last run's and console's names
    assert result["error"]["type"] == "NameError" and result["error"]["lineno"] == 2
    assert session.eval_line("b * 20")["stdout"] == "40\n"
    assert session.run("a = 1\nprint(a)", fresh=False)["stdout"] == "1\n"
    assert session.eval_line("a + b")["stdout"] == "3\n"  # fresh=False kept b


def test_a_fresh_run_forgets_grad_mode_and_accumulated_grads(session):
    code = "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\nprint(x.grad)"
    assert session.run(code)["stdout"] == "tensor([2., 2.])\n"
    assert session.run(code)["stdout"] == "tensor([2., 2.])\n"  # not 4: a new x
    session.eval_line("torch.set_grad_enabled(False)")
    assert session.run("import torch\nprint(torch.is_grad_enabled())")["stdout"] == "True\n"


def test_reset_forgets_user_names(session):
    session.run("a = 1")
    session.reset()
    result = session.run("print(a)")
    assert not result["ok"]
    assert result["error"]["type"] == "NameError"
    assert result["error"]["lineno"] == 1


def test_import_torch_is_autograd_py(session):
    result = session.run("import torch\nimport autograd_py\nprint(torch.Tensor is autograd_py.Tensor)")
    assert result["ok"], result["error"]
    assert result["stdout"] == "True\n"


def test_console_prints_repr_of_expressions_only(session):
    assert session.eval_line("'hi'")["stdout"] == "'hi'\n"
    assert session.eval_line("None")["stdout"] == ""
    assert session.eval_line("print('x')")["stdout"] == "x\n"
    assert session.eval_line("x = 3; x + 1")["stdout"] == "4\n"


def test_error_reports_editor_line_and_only_user_frames(session):
    code = "def f(v):\n    return 1 / v\n\nprint('before')\nf(0)\n"
    result = session.run(code)
    error = result["error"]
    assert not result["ok"]
    assert result["stdout"] == "before\n"
    assert error["type"] == "ZeroDivisionError"
    assert error["message"] == "division by zero"
    # The innermost editor line is the one to mark: where the error happened.
    assert error["lineno"] == 2
    tb = error["traceback"]
    assert tb.startswith("Traceback (most recent call last):\n")
    assert 'File "<editor>", line 5, in <module>' in tb
    assert 'File "<editor>", line 2, in f' in tb
    assert "    return 1 / v" in tb
    assert "autograd_py" not in tb
    assert tb.rstrip().endswith("ZeroDivisionError: division by zero")


def test_error_raised_inside_autograd_py_hides_library_frames(session):
    code = (
        "import torch\n"
        "x = torch.ones(2, 3, requires_grad=True)\n"
        "y = x * 2\n"
        "y.backward()\n"
    )
    result = session.run(code)
    error = result["error"]
    assert error["type"] == "RuntimeError"
    assert error["message"] == "grad can be implicitly created only for scalar outputs"
    assert error["lineno"] == 4
    assert "autograd_py" not in error["traceback"]
    assert error["traceback"].count('File "') == 1


def test_backward_twice_message(session):
    code = (
        "import torch\n"
        "x = torch.tensor(2.0, requires_grad=True)\n"
        "y = x * x\n"
        "y.backward()\n"
        "y.backward()\n"
    )
    error = session.run(code)["error"]
    assert error["type"] == "RuntimeError"
    assert error["message"].startswith("Trying to backward through the graph a second time")
    assert error["lineno"] == 5


def test_syntax_error_has_line_and_caret(session):
    result = session.run("x = 1\ny = (2 +\n")
    error = result["error"]
    assert error["type"] == "SyntaxError"
    assert error["lineno"] == 2
    assert 'File "<editor>", line 2' in error["traceback"]


def test_non_leaf_grad_warning_every_time_on_editor_line(session):
    code = (
        "import torch\n"
        "x = torch.ones(2, requires_grad=True)\n"
        "y = x * 2\n"
        "print(y.grad)\n"
        "print(y.grad)\n"
    )
    for _ in range(2):  # a second run must warn again, too
        result = session.run(code)
        assert result["ok"], result["error"]
        assert result["stdout"] == "None\nNone\n"
        lines = [l for l in result["stderr"].splitlines() if "UserWarning" in l]
        assert len(lines) == 2
        assert lines[0].startswith("<editor>:4: UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor")
        assert lines[1].startswith("<editor>:5: UserWarning: ")
        assert "  print(y.grad)\n" in result["stderr"]


def test_user_warnings_keep_their_line_and_stream_as_warning():
    seen = []
    session = Session(on_output=lambda stream, text: seen.append((stream, text)))
    result = session.run("import warnings\nprint('a')\nwarnings.warn('careful')\n")
    assert result["stderr"].startswith("<editor>:3: UserWarning: careful\n")
    assert [s for s, _ in seen] == ["stdout", "warning"]


def test_stream_callback_preserves_order_and_content():
    seen = []
    session = Session(on_output=lambda stream, text: seen.append((stream, text)))
    session.run("import sys\nprint('one')\nprint('two', file=sys.stderr)\nprint('three')\n")
    assert seen == [("stdout", "one\n"), ("stderr", "two\n"), ("stdout", "three\n")]


def test_output_is_capped_with_a_note_and_stays_fast():
    seen = []
    session = Session(on_output=lambda stream, text: seen.append((stream, text)))
    result = session.run("for i in range(10**6):\n    print(i)\nprint('survived')\n")
    assert result["ok"]
    assert result["stdout"].count("\n") == playground.MAX_OUTPUT_LINES
    assert result["stdout"].startswith("0\n1\n2\n")
    assert result["stdout"].endswith(f"\n{playground.MAX_OUTPUT_LINES - 1}\n")  # no partial line
    assert "survived" not in result["stdout"]
    assert "output truncated" in result["stderr"]
    assert result["duration_ms"] < 20_000
    streamed = "".join(text for stream, text in seen if stream == "stdout")
    assert streamed == result["stdout"]
    # Batching: far fewer callback calls than prints.
    assert len(seen) < 1000


def test_single_huge_write_is_cut_to_the_char_cap():
    session = Session(max_chars=1000, max_lines=10**9)
    result = session.run("print('x' * 5000)")
    assert len(result["stdout"]) == 1000
    assert "output truncated" in result["stderr"]


def test_keyboard_interrupt_is_reported_and_state_kept(session):
    result = session.run("kept = 7\nraise KeyboardInterrupt")
    assert result["error"]["type"] == "KeyboardInterrupt"
    assert session.eval_line("print(kept)")["stdout"] == "7\n"


def test_streams_are_restored_after_a_run(session):
    before = sys.stdout, sys.stderr, sys.displayhook
    session.run("print('x')\nraise ValueError('boom')")
    assert (sys.stdout, sys.stderr, sys.displayhook) == before


def test_run_json_round_trips(session):
    data = json.loads(session.run_json("print('<img src=x onerror=alert(1)>')"))
    assert data["ok"] is True
    assert data["stdout"] == "<img src=x onerror=alert(1)>\n"
    assert isinstance(data["duration_ms"], float)
    data = json.loads(session.eval_json("1/0"))
    assert data["error"]["type"] == "ZeroDivisionError"
    assert data["error"]["lineno"] == 1
    assert 'File "<console>", line 1' in data["error"]["traceback"]


LESSONS_FILE = Path(__file__).resolve().parents[1] / "web" / "src" / "app" / "lessons.json"
LESSONS = json.loads(LESSONS_FILE.read_text(encoding="utf-8"))["lessons"]


def assert_in_order(text, expected):
    """Each expected snippet occurs in ``text``, after the previous one."""
    position = 0
    for snippet in expected:
        found = text.find(snippet, position)
        assert found >= 0, f"{snippet!r} not found (in order) in:\n{text}"
        position = found + len(snippet)


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["id"] for lesson in LESSONS])
def test_every_lesson_shows_its_numbers_in_cpython(session, lesson):
    result = session.run("\n".join(lesson["code"]))
    expect = lesson["expect"]
    assert_in_order(result["stdout"], expect["stdout"])
    assert_in_order(result["stderr"], expect["stderr"])
    if expect["error"] is None:
        assert result["ok"], result["error"]
    else:
        assert result["error"]["type"] == expect["error"]["type"]
        assert result["error"]["message"].startswith(expect["error"]["message_prefix"])
        assert result["error"]["lineno"] == len(lesson["code"])  # every lesson fails on its last line


def test_lessons_are_bilingual_and_unique():
    ids = [lesson["id"] for lesson in LESSONS]
    assert len(ids) == len(set(ids)) >= 8
    for lesson in LESSONS:
        for field in ("title", "explain"):
            assert lesson[field]["en"] and lesson[field]["zh"]
            assert lesson[field]["en"] != lesson[field]["zh"] or field == "title"
        assert lesson["expect"]["stdout"], lesson["id"]


def _code_tokens(lines):
    """The lesson's tokens without its comments (and the spacing before them)."""
    import io
    import tokenize

    source = "\n".join(lines) + "\n"
    return [(tok.type, tok.string) for tok in tokenize.generate_tokens(io.StringIO(source).readline)
            if tok.type not in (tokenize.COMMENT, tokenize.NL)]


def _comments(lines):
    import io
    import tokenize

    source = "\n".join(lines) + "\n"
    return [tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline) if tok.type == tokenize.COMMENT]


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson["id"] for lesson in LESSONS])
def test_every_lesson_has_the_same_code_with_chinese_comments(lesson):
    import re

    zh = lesson["code_zh"]
    assert len(zh) == len(lesson["code"])
    assert _code_tokens(zh) == _code_tokens(lesson["code"])
    english, chinese = _comments(lesson["code"]), _comments(zh)
    assert len(english) == len(chinese)
    for en, cn in zip(english, chinese):
        # A comment with words is translated; a bare formula ("dz/dx = 2x = 4") may stay as it is.
        if re.search(r"[A-Za-z]{3,}", en):
            assert re.search(r"[\u4e00-\u9fff]", cn), (lesson["id"], en, cn)
