"""Record the repr (or the error) of each expression in ``exprs.py`` under real PyTorch.

Usage (torch==2.13.0 installed, from the repository root)::

    python tests/api_parity/record.py

Writes ``expected.json``: ``{expression: [outcome, text]}`` where outcome is ``"ok"`` (text is the
``repr`` of the value) or the exception's type name (text is its message).
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from exprs import EXPRESSIONS  # noqa: E402


def evaluate(torch, expression):
    """The outcome of one expression: ``["ok", repr]`` or ``[error type, message]``."""
    try:
        return ["ok", repr(eval(expression, {"torch": torch}))]
    except Exception as e:  # what the learner would see
        return [type(e).__name__, str(e)]


def main():
    import torch

    assert torch.__version__.startswith("2.13.0"), torch.__version__
    results = {e: evaluate(torch, e) for e in EXPRESSIONS}
    (HERE / "expected.json").write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {len(results)} expressions")


if __name__ == "__main__":
    main()
