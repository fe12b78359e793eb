"""Every golden snippet, run in the page's Pyodide, prints what PyTorch printed.

``tests/test_golden.py`` holds autograd_py to the recordings in CPython, but the learner runs
Pyodide: 32-bit WebAssembly (NumPy's index type is int32 there), NumPy without BLAS or SIMD, musl's
libm, Python 3.12 and the playground's session around the code. Each snippet runs through the page
API as a learner's would; its output must match the recording with memory addresses masked, every
digit included, except where ``tests/golden/inexact.json`` (CPython too) or ``PAGE_DIFFERENCES``
below (this runtime only) says why not; those need the numbers within rtol 1e-4.
"""
import importlib.util
import json

import pytest

from playground_helpers import REPO

GOLDEN = REPO / "tests" / "golden"

# Where the page prints otherwise, and why; the first two are the runtime's, not autograd_py's
PAGE_DIFFERENCES = {
    "tut_12_nn_init_schemes": "Python 3.12 prints an OrderedDict (a state_dict) as OrderedDict({...}); "
                              "torch on 3.12 does too",
    "data_03_collate_and_datasets": "NumPy's default integer is int32 on wasm32: np.array([1, 2]) collates "
                                    "to an int32 tensor, which prints its dtype",
    "fixd_01_leaf_accumulator_after_inplace_view": "the page keeps the newest backward pass's steps for "
                                                   "its step-through view (views.PassRecorder), edges included, "
                                                   "so a leaf's old AccumulateGrad outlives `del` and keeps its "
                                                   "shape; a plain run in CPython or Pyodide matches",
    "tut_func_03_neural_tangent_kernels": "Pyodide's NumPy has no BLAS: one einsum adds its products in "
                                          "another order (one digit of 33.9705)",
}


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_golden_prints_pytorchs_output_in_pyodide(playground):
    test_golden = _load("test_golden_in_page", REPO / "tests" / "test_golden.py")
    runner = _load("golden_runner_in_page", GOLDEN / "runner.py")
    expected = json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8"))
    inexact = json.loads((GOLDEN / "inexact.json").read_text(encoding="utf-8"))
    snippets = sorted((GOLDEN / "snippets").glob("*.py"))
    assert len(snippets) > 300
    wrong, every_digit = [], 0
    for path in snippets:
        want = expected[path.stem]
        result = playground.run(path.read_text(encoding="utf-8"))
        got = runner.normalise(result["stdout"] or "").split("\n")
        error = result.get("error")
        raised = {"type": error["type"], "message": runner.normalise(error["message"])} if error else None
        if path.stem in PAGE_DIFFERENCES:  # their reasons say what differs; they must still differ
            if raised == want["exception"] and got == want["stdout"]:
                wrong.append(f"{path.stem} now matches in the page: remove it from PAGE_DIFFERENCES")
            continue
        if raised != want["exception"]:
            wrong.append(f"{path.stem}: raised {raised}, torch {want['exception']}")
            continue
        if got == want["stdout"]:
            every_digit += 1
        elif path.stem not in inexact:
            wrong.append(f"{path.stem}: {test_golden._stdout_report(want['stdout'], got)[:600]}")
        elif not (len(got) == len(want["stdout"]) and all(map(test_golden.lines_match, want["stdout"], got))):
            wrong.append(f"{path.stem} (allowed other last digits, not more): "
                         f"{test_golden._stdout_report(want['stdout'], got)[:600]}")
    assert not wrong, "\n\n".join(wrong)
    assert every_digit >= len(snippets) - len(inexact) - len(PAGE_DIFFERENCES)


@pytest.mark.parametrize("table", ["PAGE_DIFFERENCES"])
def test_page_differences_name_real_snippets(table):
    names = {p.stem for p in (GOLDEN / "snippets").glob("*.py")}
    assert set(PAGE_DIFFERENCES) <= names


BY_ROWS_CHECK = """import numpy as np
from autograd_py.ops import small_products
rng = np.random.default_rng(9)
checked = differ = 0
for trial in range(30):
    dt = (np.float32, np.float64)[trial % 2]
    m, k, n = int(rng.integers(1, 90)), int(rng.integers(20, 400)), int(rng.integers(64, 200))
    a = rng.standard_normal((m, k)).astype(dt) * dt(10.0) ** int(rng.integers(-3, 3))
    b = rng.standard_normal((k, n)).astype(dt)
    if trial % 4 == 0:
        a.flat[:4] = [np.inf, -np.inf, np.nan, -0.0]
        b.flat[:2] = [-0.0, np.inf]
    a = np.asfortranarray(a) if trial % 3 == 1 else a
    b = np.asfortranarray(b) if trial % 5 == 1 else b
    if m * k * n < 100_000:  # (smaller float32 products are spelled out as OpenBLAS adds them)
        continue
    checked += 1
    differ += small_products.product(a, b).tobytes() != (a @ b).tobytes()
print(small_products._NO_BLAS, checked, differ)
"""


def test_large_products_keep_the_bits_of_numpy_without_blas(playground):
    """Pyodide's large products go through ``small_products.by_rows`` (einsum along the rows of
    the second matrix, twice as fast as NumPy's matmul loop there): their bits must stay what
    ``a @ b`` gives in this runtime, layouts, infinities, NaN and signed zeros included."""
    result = playground.run(BY_ROWS_CHECK)
    assert result["ok"], result
    no_blas, checked, differ = result["stdout"].split()
    assert no_blas == "True" and int(checked) >= 12 and differ == "0", result["stdout"]
