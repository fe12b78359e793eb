"""The NumPy floors of bench/web_workloads.py compute what the autograd_py workloads compute.

A floor (bench/floors.py) is the hand-written forward + backward autograd_py is timed against in
the browser: a floor that computed something else, or less, would make the ratio meaningless.
Each one is compared with autograd_py's own result and with the hand-derived reference of
bench/problems.py (itself checked by finite differences in test_bench_smoke.py), at the tiny
sizes and, for the rows cheap enough, at the sizes that are timed. No browser here.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

import floor_timing  # noqa: E402
import floors  # noqa: E402
import problems  # noqa: E402
import least_graph  # noqa: E402
import web_workloads  # noqa: E402

import autograd_py  # noqa: E402

TIMED_SIZE = ("W1", "W3-loop", "W4", "W5")  # fast enough at full size; W2 and W3-vec reuse the references


@pytest.mark.parametrize("row", list(floor_timing.ROWS))
@pytest.mark.parametrize("size", ["tiny", "full"])
def test_floor_agrees_with_autograd_py_and_the_reference(row, size):
    if size == "full" and row not in TIMED_SIZE:
        pytest.skip("the floor is problems.reference itself; checked at the tiny size")
    errors = floor_timing.check(row, size)
    assert errors["floor"] <= floor_timing.TOLERANCE, errors
    assert errors["autograd_py_vs_floor"] <= floor_timing.TOLERANCE, errors


def test_floor_repeats_give_the_same_result():
    """run() is timed many times in a row: W4's accumulated gradients must start afresh each call."""
    run, to_numpy = floors.w4(problems.make_data("W4", "tiny"))
    first, second = to_numpy(run()), to_numpy(run())
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_a_wrong_floor_is_caught(monkeypatch):
    """check() sees a floor that forgets a factor of its chain rule (here tanh's slope)."""
    monkeypatch.setitem(floors.FLOORS, "W3-vec", lambda d: ((lambda: d["W"]), lambda J: (J,)))
    errors = floor_timing.check("W3-vec", "tiny")
    assert errors["floor"] > floor_timing.TOLERANCE and errors["autograd_py_vs_floor"] > floor_timing.TOLERANCE
    assert errors["autograd_py"] <= floor_timing.TOLERANCE


def test_measure_times_both_sides_and_checks_them():
    result = floor_timing.measure("W5", repeats=2, min_time=0.001)
    assert result["ok"] and set(result["errors"]) == {"autograd_py", "floor", "autograd_py_vs_floor"}
    for side in ("autograd_py", "floor"):
        assert result[side]["median"] > 0 and result[side]["calls"] >= 1
    assert result["ratio"] == pytest.approx(result["autograd_py"]["median"] / result["floor"]["median"])
    assert len(result["pair_ratios"]) == 2


def test_the_least_graph_differentiates_as_autograd_py_does():
    """least_graph (the least a recording autograd does) must compute W4's gradients, not less."""
    for T in (least_graph, autograd_py):
        a = T.tensor(0.5, dtype=T.float64, requires_grad=True)
        b = T.tensor(-1.25, dtype=T.float64, requires_grad=True)
        y = ((a * b + 2.0).tanh() - 0.3) ** 2 / 4 + a * a  # a used three times: its gradients add
        y.backward()
        if T is least_graph:
            got = (y.item(), a.grad.item(), b.grad.item())
        else:
            want = (y.item(), a.grad.item(), b.grad.item())
    np.testing.assert_allclose(got, want, rtol=1e-14)


@pytest.mark.parametrize("size", ["tiny", "full"])
def test_w4_is_also_checked_and_timed_on_the_least_graph(size):
    assert floor_timing.check("W4", size)["least_graph"] <= floor_timing.TOLERANCE
    result = floor_timing.measure("W4", repeats=3, min_time=0.001) if size == "tiny" else None
    if result is not None:
        assert result["ok"] and result["least_graph"]["median"] > 0
        assert result["least_graph_ratio"] == pytest.approx(result["least_graph"]["median"] / result["floor"]["median"])
        assert "least_graph" not in floor_timing.measure("W5", repeats=2, min_time=0.001)


def test_profile_lists_autograd_py_functions_by_own_time():
    prof = floor_timing.profile("W5", calls=2, top=5)
    own = [e["tottime_ms"] for e in prof["entries"]]
    assert len(own) == 5 and own == sorted(own, reverse=True)
    assert any(e["function"].startswith("autograd_py/") for e in prof["entries"])


def test_report_marks_targets_and_wrong_results():
    side = {"autograd_py": {"median": 0.004}, "floor": {"median": 0.001}, "ratio": 4.0, "ratio_best": 3.5, "ok": True,
            "errors": {"autograd_py": 0.0, "floor": 0.0, "autograd_py_vs_floor": 0.0},
            "python": "3.12.7", "numpy": "2.0.2"}
    bad = dict(side, ok=False, errors={"autograd_py": 0.5, "floor": 0.0, "autograd_py_vs_floor": 0.5})
    env = {"pyodide": "0.27.7", "browser": "Chromium", "isolated": True, "git_commit": "abc", "built_at": "now",
           "repeats": 3, "min_time": 0.1, "load_before": 1.0, "load_after": 1.0}
    text = web_workloads.report({"rows": [{"row": "W1", "pyodide": side}, {"row": "W4", "pyodide": bad}],
                                 "environment": env})
    w1, w4 = (line for line in text.splitlines() if line.startswith(("| W1 ", "| W4 ")))
    assert "**4.00×** (3.50×)" in w1 and "≤ 3× missed" in w1 and "ok" in w1
    assert "≤ 6× met" in w4 and "WRONG (5.0e-01)" in w4
    least = dict(side, least_graph={"median": 0.002}, least_graph_ratio=2.0)
    text = web_workloads.report({"rows": [{"row": "W4", "pyodide": least}], "environment": env})
    assert "W4's least graph" in text and "**2.00×** the floor" in text and "autograd_py is 2.00× it" in text
