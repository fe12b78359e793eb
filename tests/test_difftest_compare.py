"""The difftest comparator and the op-table inliner: what counts as a divergence, and of what kind."""
import numpy as np
import pytest

import autograd_py

import op_table
from difftest import optable_rows
from difftest.compare import classify, compare, lines_match

SHOW = "v1 torch.{dtype} (2,) [{a}, {b}] grad_fn {fn} next None leaf False rg True version {version}"


def show(dtype="float32", a="1.0", b="2.0", fn="MulBackward0", version=0):
    return SHOW.format(dtype=dtype, a=a, b=b, fn=fn, version=version)


def test_float32_values_within_tolerance_match():
    x = np.float32(0.1)
    nearby = float(np.nextafter(x, np.float32(1)))
    assert lines_match(show(a=repr(float(x))), show(a=repr(nearby)))[0]
    assert not lines_match(show(a="0.1"), show(a="0.1001"))[0]


def test_float64_values_compare_tightly_unless_both_are_float32_values():
    assert lines_match(show("float64", a="0.1"), show("float64", a="0.10000000000001"))[0]
    assert not lines_match(show("float64", a="0.1"), show("float64", a="0.1000001"))[0]
    x = np.float32(0.6333333)
    next_up = float(np.nextafter(x, np.float32(1)))
    assert lines_match(show("float64", a=repr(float(x))), show("float64", a=repr(next_up)))[0]


def test_nan_matches_only_nan():
    assert lines_match(show(a="nan"), show(a="nan"))[0]
    assert classify(show(a="0.0"), show(a="nan"), "relu") == ("value", "value")


def test_shape_or_dtype_difference_is_a_wrong_value():
    expected = "v3 torch.float32 () 1.5 grad_fn CumsumBackward0 next None leaf False rg True version 0"
    actual = "v3 torch.float32 (1,) [1.5] grad_fn CumsumBackward0 next None leaf False rg True version 0"
    assert classify(expected, actual, "cumsum") == ("value", "value dtype/shape")


def test_names_errors_and_crashes_are_told_apart():
    assert classify(show(), show(fn="DivBackward0"), "x") == ("names", "grad_fn MulBackward0 vs DivBackward0")
    assert classify(show(), show(version=1), "x") == ("names", "version 0 vs 1")
    assert classify(show(), "ValueError axis 1 is out of bounds", "x")[0] == "crash"
    assert classify("RuntimeError bad shape [2, 3]", show(), "x") == ("error", "missing error: RuntimeError bad shape [*]")
    category, detail = classify("IndexError index 9 is out of bounds", "IndexError invalid index", "x")
    assert (category, detail) == ("error", "IndexError torch: index # is out of bounds | ours: invalid index")
    assert classify("warning UserWarning mT is deprecated", show(), "x") == ("warning", "missing warning UserWarning mT is deprecated")


def test_compare_names_the_first_diverging_block():
    blocks = ["# leaf\nv0 = 1", "# relu\nv1 = 2", "# sum\nv2 = 3"]
    found = compare(["same\n", "v1 torch.float32 (1,) [1.0]\n", "x\n"],
                    ["same\n", "v1 torch.float32 (1,) [2.0]\n", "y\n"], blocks)
    assert (found.block, found.label, found.category) == (1, "relu", "value")
    assert compare(["a 1.0\n"], ["a 1.0000001\n"], ["# x\nx"]) is None


@pytest.mark.parametrize("row", op_table.OPS, ids=lambda row: row.name)
def test_every_op_table_row_is_in_the_generators_vocabulary(row):
    """The inlined source of a row computes what the row's ``op`` computes."""
    lam = {r.name: l for r, l in optable_rows.rows()}[row.name]
    shapes = row.shapes[0]
    names = [f"v{k}" for k in range(len(shapes))]
    source = optable_rows.call_source(lam, names)
    assert source is not None
    arrays = row.make_inputs(np.random.default_rng(0), shapes)
    inputs = [autograd_py.tensor(a) for a in arrays]
    inlined = eval(source, {"torch": autograd_py, **dict(zip(names, inputs))})
    direct = row.op(autograd_py, *inputs)
    if not isinstance(direct, (tuple, list)):
        inlined, direct = [inlined], [direct]
    for x, y in zip(inlined, direct):
        np.testing.assert_array_equal(x.detach().numpy(), y.detach().numpy())


def test_float64_compares_at_float32_tolerance_only_in_programs_with_float32_data():
    blocks = ["# leaf\nv0 = 1", "# add\nv1 = 2"]
    pure = [show("float64", a="1.0"), show("float64", a="2.8133334493637085")]
    ours = [show("float64", a="1.0"), show("float64", a="2.813333330154419")]
    assert compare(pure, ours, blocks).category == "value"
    mixed = [show("float32", a="1.0"), pure[1]]
    assert compare(mixed, [mixed[0], ours[1]], blocks) is None


def test_absolute_tolerance_grows_with_the_lines_largest_number():
    expected = "g torch.float32 (3,) [0.004132270812988281, 121.59442138671875, -453951.9375]"
    actual = "g torch.float32 (3,) [0.004133750684559345, 121.59443664550781, -453951.53125]"
    assert lines_match(expected, actual)[0]
