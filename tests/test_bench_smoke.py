"""The benchmark's autograd_py workloads compute the right numbers (no timing here).

Each workload of ``bench/`` runs once on autograd_py at a tiny size and is compared with the
hand-derived NumPy results of ``bench/problems.py``; those references are in turn checked
against finite differences, so neither side is trusted blindly. The browser benchmark
bench/embed_load.py runs once, so that it cannot rot.
"""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

import autograd_py  # noqa: E402
import fw_torchlike  # noqa: E402
import problems  # noqa: E402

ROWS = {"W1": "W1", "W2": "W2", "W3-loop": "W3", "W3-vec": "W3", "W4": "W4", "W5": "W5", "R1": "R1"}


@pytest.mark.parametrize("row", list(ROWS))
def test_autograd_py_workload_matches_numpy(row):
    data = problems.make_data(ROWS[row], "tiny")
    run, to_numpy = fw_torchlike.WORKLOADS[row](autograd_py, data)
    if row == "W3-vec":
        try:
            out = run()
        except (ImportError, NotImplementedError) as exc:
            pytest.xfail(f"jacobian(vectorize=True) not available yet: {exc}")
    else:
        out = run()
    got = to_numpy(out)
    expected = problems.reference(ROWS[row], data)
    assert [np.shape(g) for g in got] == [np.shape(e) for e in expected]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-10, atol=1e-12 * max(1.0, float(np.abs(e).max())))


def test_workload_repeats_give_the_same_result():
    """run() is timed many times in a row: leftover .grad must not accumulate across calls."""
    data = problems.make_data("W2", "tiny")
    run, to_numpy = fw_torchlike.w2(autograd_py, data)
    first = to_numpy(run())
    second = to_numpy(run())
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_max_error_scales_by_the_largest_reference_value():
    tiny = np.array([1e-69, 2e-69])
    assert problems.max_error((tiny,), (tiny,)) == 0.0
    assert problems.max_error((tiny * 1.5,), (tiny,)) == pytest.approx(0.5)
    assert problems.max_error((np.zeros(3),), (np.zeros(2),)) == float("inf")
    assert problems.max_error((np.array([np.nan]),), (np.array([1.0]),)) == float("inf")


# ---------------------------------------------------------------------------- the references themselves
def _numeric_grad(f, x, h=1e-6):
    """Central differences of the scalar function f at every entry of x."""
    x = np.array(x, dtype=np.float64)
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        old = x[i]
        x[i] = old + h
        up = f(x)
        x[i] = old - h
        down = f(x)
        x[i] = old
        grad[i] = (up - down) / (2 * h)
    return grad


def _w1_forward(d, x):
    for _ in range(d["n_cycles"]):
        x = np.exp(np.tanh(np.sin(x * problems.W1_MUL + problems.W1_ADD)))
    return x.sum()


def _w2_forward(d, params):
    W1, b1, W2, b2 = params
    z = np.tanh(d["X"] @ W1 + b1) @ W2 + b2
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -logp[np.arange(len(d["y"])), d["y"]].mean()


def _w4_forward(d, layers):
    act = d["xs"]
    for i, (W, b) in enumerate(layers):
        act = act @ W.T + b
        if i < len(layers) - 1:
            act = np.tanh(act)
    return np.mean((act[:, 0] - d["ys"]) ** 2)


def _close(got, expected, rtol=1e-6):
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * float(np.abs(expected).max()))


def test_reference_w1_matches_finite_differences():
    d = problems.make_data("W1", "tiny")
    _close(problems.reference("W1", d)[0], _numeric_grad(lambda x: _w1_forward(d, x), d["x"]))


def test_reference_w2_matches_finite_differences():
    d = problems.make_data("W2", "tiny")
    names = ("W1", "b1", "W2", "b2")
    ref = problems.reference("W2", d)
    assert float(ref[0]) == pytest.approx(_w2_forward(d, [d[k] for k in names]), rel=1e-12)
    for k, (name, expected) in enumerate(zip(names, ref[1:])):
        def loss_of(p, k=k):
            params = [d[n] for n in names]
            params[k] = p
            return _w2_forward(d, params)
        _close(expected, _numeric_grad(loss_of, d[name]))


def test_reference_w3_matches_finite_differences():
    d = problems.make_data("W3", "tiny")
    jac = problems.reference("W3", d)[0]
    for i in range(jac.shape[0]):
        _close(jac[i], _numeric_grad(lambda x: np.tanh(d["W"] @ x)[i], d["x"]))


def test_reference_w4_matches_finite_differences():
    d = problems.make_data("W4", "tiny")
    ref = problems.reference("W4", d)
    layers = [list(pair) for pair in d["layers"]]
    assert float(ref[0]) == pytest.approx(_w4_forward(d, layers), rel=1e-12)
    for li in range(len(layers)):
        for k in range(2):
            def loss_of(p, li=li, k=k):
                changed = [list(pair) for pair in layers]
                changed[li][k] = p
                return _w4_forward(d, changed)
            _close(ref[1 + 2 * li + k], _numeric_grad(loss_of, layers[li][k]))


def test_reference_w5_matches_finite_differences():
    d = problems.make_data("W5", "tiny")
    x, h = d["x"], 1e-4
    f = lambda v: v ** 3 * np.sin(v)  # noqa: E731
    second = (f(x + h) - 2 * f(x) + f(x - h)) / h ** 2
    _close(problems.reference("W5", d)[0], second, rtol=1e-5)


# ---------------------------------------------------------------------------- bench/embed_load.py
def _medians(tree):
    """Every ``median`` figure of a nested summary dict."""
    if isinstance(tree, dict):
        if "median" in tree:
            yield tree["median"]
        for value in tree.values():
            yield from _medians(value)


@pytest.mark.e2e
def test_embed_load_bench_runs_once(tmp_path):
    """One cold repetition of every measurement of bench/embed_load.py in real Chromium + Pyodide.

    A subprocess, because the e2e tests' Playwright may already hold this thread's event loop.
    """
    import subprocess

    if not (ROOT / "web" / "dist" / "examples" / "course.html").is_file():
        pytest.fail("web/dist is not built: run `python web/build/build_site.py`", pytrace=False)
    out = tmp_path / "embed.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "embed_load.py"), "--repeat", "1",
                           "--json", str(out)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert set(figures) >= {"embeds_kept", "first_paint", "first_run", "verdicts"}
    assert set(figures["first_paint"]) == {"normal", "tall"}
    for paint in figures["first_paint"].values():
        for variant in ("with_embeds", "without_embeds"):
            assert set(paint[variant]) == {"fcp_ms", "dcl_ms", "load_ms", "frames"}
            assert paint[variant]["fcp_ms"]["median"] > 0 and paint[variant]["load_ms"]["median"] > 0
        assert paint["without_embeds"]["frames"]["median"] == 0
        assert paint["fcp_ratio"] > 0
    # Only the tall viewport reaches the examples at load.
    assert figures["first_paint"]["tall"]["with_embeds"]["frames"]["median"] > 0
    run = figures["first_run"]
    assert run["bare_pyodide_numpy_ms"]["median"] > 0 and run["ratio"] > 0
    # The first Run cannot be answered before Python is ready, nor Python be ready before the frame asks.
    assert 0 < run["embed_asked_ms"]["median"] <= run["embed_python_ready_ms"]["median"]
    assert run["embed_python_ready_ms"]["median"] <= run["embed_answered_ms"]["median"]
    assert all(value >= 0 for value in _medians(figures))
    assert "| first Run answered" in done.stdout and "Target 2" in done.stdout


@pytest.mark.e2e
def test_web_workloads_bench_runs_one_row_in_pyodide(tmp_path):
    """bench/web_workloads.py times a row in the site's Pyodide, both sides checked against NumPy.

    A subprocess, for the same reason as above.
    """
    import subprocess

    if not (ROOT / "web" / "dist" / "build-info.json").is_file():
        pytest.fail("web/dist is not built: run `python web/build/build_site.py`", pytrace=False)
    out = tmp_path / "workloads.json"
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "web_workloads.py"), "--only", "W5",
                           "--repeats", "3", "--min-time", "0.01", "--no-cpython", "--json", str(out)],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(out.read_text(encoding="utf-8"))
    (row,) = figures["rows"]
    measured = row["pyodide"]
    assert measured["row"] == "W5" and measured["ok"] is True
    assert max(measured["errors"].values()) <= 1e-8
    assert measured["python"].startswith("3.12")  # Pyodide's Python, not this one
    assert 0 < measured["floor"]["median"] < measured["autograd_py"]["median"]
    assert measured["ratio"] == pytest.approx(measured["autograd_py"]["median"] / measured["floor"]["median"])
    assert "| W5 |" in done.stdout
