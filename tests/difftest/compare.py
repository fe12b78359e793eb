"""Compare two captures block by line by token, and name the first difference's cause.

Numbers compare with a tolerance set by the line's dtype: float64 rtol 1e-10, atol 1e-12 in
programs without float32 data; anything else rtol 1e-5, atol 1e-6 (float32 rounding carried into
float64 by ``.double()`` or type promotion is not a float64 error). The absolute tolerance grows
with the largest number on the line. Every other token compares exactly, whitespace aside.
"""
import math
import re

import numpy as np
from dataclasses import dataclass

_NUM = r"[-+]?(?:(?:nan|inf)\b|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)"
_TOKEN = re.compile(_NUM + r"|[A-Za-z_][A-Za-z_0-9.]*|\S")
_NUMBER = re.compile(_NUM + "$")
_ERROR = re.compile(r"^[A-Z]\w*(?:Error|Exception) ")
_VAR = re.compile(r"\b(?:v|g|gg)\d+\b")
_NUMBERS = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")

# Severity order of the report: wrong numbers first, names last.
CATEGORIES = ["value", "crash", "error", "names", "warning"]
TITLES = {"value": "Wrong values", "crash": "Crashes where PyTorch runs",
          "error": "Wrong or missing errors", "names": "Names, reprs and graph structure",
          "warning": "Warnings"}


@dataclass
class Divergence:
    """The first place two captures differ."""

    category: str
    detail: str      # the cause without program-specific numbers and names
    block: int
    label: str       # the ``# label`` of the block that printed it
    expected: str    # PyTorch's line ('' when it has none)
    actual: str      # autograd_py's line

    def signature(self):
        return self.category, self.detail


def tolerance(line, mixed=False):
    """(rtol, atol) for a line: float64's only in a float64 line of a program without float32 data
    (float32 rounding carried into float64 by ``.double()`` or promotion is not a float64 error)."""
    if "float64" in line and "float32" not in line and not mixed:
        return 1e-10, 1e-12
    return 1e-5, 1e-6


def _same_number(a, b, rtol, atol):
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if x == y:
        return True
    if rtol < 1e-5 and _is_float32(x) and _is_float32(y):
        # a float64 tensor converted from float32 work carries float32 rounding, not float64's
        rtol, atol = 1e-5, 1e-6
    return math.isclose(x, y, rel_tol=rtol, abs_tol=atol)


def _is_float32(x):
    return math.isfinite(x) and float(np.float32(x)) == x


def lines_match(expected, actual, mixed=False):
    """Return (match, only_numbers_differ) for two printed lines.

    The absolute tolerance grows with the line's largest number (times rtol), so a sum whose
    terms are large is compared at the precision its terms allow, not its own.
    """
    if expected == actual:
        return True, False
    a, b = _TOKEN.findall(expected), _TOKEN.findall(actual)
    if len(a) != len(b):
        return False, False
    rtol, atol = tolerance(expected, mixed)
    magnitudes = [abs(float(t)) for t in a + b if _NUMBER.match(t) and math.isfinite(float(t))]
    atol = max([atol] + [rtol * m for m in magnitudes])
    numeric_only = True
    match = True
    for k, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        if _NUMBER.match(x) and _NUMBER.match(y) and not _is_counter(a, k):
            if not _same_number(x, y, rtol, atol):
                match = False
        else:
            return False, False
    return match, numeric_only and not match


def _is_counter(tokens, k):
    """A number that counts (``version 2``) must match exactly and is metadata, not a value."""
    return k > 0 and tokens[k - 1] == "version"


_SHAPES = re.compile(r"\[(?:#(?:, #)*)?\]|\((?:#,?(?: #,?)*)?\)")
_TENSOR_TYPES = re.compile(r"torch\.(?:Float|Double|Long|Int|Bool)Tensor")


def template(line, limit=160):
    """A line with its numbers, shapes, tensor types and variable names blanked, to group like
    messages together."""
    text = _NUMBERS.sub("#", _VAR.sub("v#", line.strip()))
    text = _TENSOR_TYPES.sub("torch.*Tensor", _SHAPES.sub("[*]", text))
    return text[:limit]


def _first_token_difference(expected, actual):
    a, b = _TOKEN.findall(expected), _TOKEN.findall(actual)
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y and (_is_counter(a, k) or not (_NUMBER.match(x) and _NUMBER.match(y))):
            field = next((t for t in reversed(a[:k]) if t in ("grad_fn", "next", "leaf", "rg", "version")), "")
            return f"{field} {x} vs {y}".strip()
    return template(expected) + " vs " + template(actual)


def classify(expected, actual, label, mixed=False):
    """Name the cause of one differing pair of lines."""
    e_err, a_err = bool(_ERROR.match(expected)), bool(_ERROR.match(actual))
    if e_err and a_err:
        return "error", _message_difference(template(expected, None), template(actual, None))
    if e_err:
        return "error", f"missing error: {template(expected)[:100]}"
    if a_err:
        return "crash", f"{template(actual)[:100]}"
    e_warn, a_warn = expected.startswith("warning "), actual.startswith("warning ")
    if e_warn and a_warn:
        return "warning", _message_difference(template(expected, None), template(actual, None))
    if e_warn:
        return "warning", f"missing {template(expected)[:100]}"
    if a_warn:
        return "warning", f"extra {template(actual)[:100]}"
    match, numeric = lines_match(expected, actual, mixed)
    field = "grad" if ".grad" in expected.split(" ", 1)[0] or expected.startswith(("g", "hook")) else "value"
    if numeric:
        return "value", field
    if _differs_before_graph(expected, actual):
        return "value", field + " dtype/shape"
    return "names", _first_token_difference(expected, actual)


def _message_difference(expected, actual):
    """Two messages as their shared start and where they part: ``start … torch: X | ours: Y``."""
    if expected == actual:
        return (expected[:60] + " …" if len(expected) > 60 else expected) + " (only the numbers differ)"
    n = 0
    while n < min(len(expected), len(actual)) and expected[n] == actual[n]:
        n += 1
    n = expected.rfind(" ", 0, n) + 1 if n < len(expected) else n
    head = expected[:n].rstrip()
    if len(head) > 60:
        head = head[:60] + " …"
    return f"{head} torch: {expected[n:n + 70] or '(ends)'} | ours: {actual[n:n + 70] or '(ends)'}"


def _differs_before_graph(expected, actual):
    """In a ``show`` line, a difference before ``grad_fn`` is in the dtype, shape or values."""
    a, b = _TOKEN.findall(expected), _TOKEN.findall(actual)
    if "grad_fn" not in a:
        return False
    stop = a.index("grad_fn")
    return a[:stop] != b[:stop] and not all(
        x == y or (_NUMBER.match(x) and _NUMBER.match(y)) for x, y in zip(a[:stop], b[:stop])) or (
        len(b) > stop and b[stop] != "grad_fn")


def compare(expected_blocks, actual_blocks, blocks):
    """Return the first :class:`Divergence` between two captures, or ``None`` when they agree."""
    mixed = any("float32" in out for out in expected_blocks)
    for k, (exp, act) in enumerate(zip(expected_blocks, actual_blocks)):
        if exp == act:
            continue
        e_lines, a_lines = exp.splitlines(), act.splitlines()
        for j in range(max(len(e_lines), len(a_lines))):
            e = e_lines[j] if j < len(e_lines) else ""
            a = a_lines[j] if j < len(a_lines) else ""
            if lines_match(e, a, mixed)[0]:
                continue
            label = blocks[k].splitlines()[0].lstrip("# ").strip()
            category, detail = classify(e, a, label, mixed)
            return Divergence(category, detail, k, label, e, a)
    if len(expected_blocks) != len(actual_blocks):
        return Divergence("crash", "block count", min(len(expected_blocks), len(actual_blocks)), "", "", "")
    return None
