"""The benchmark workloads as plain data, plus their results computed by hand in NumPy.

Every framework gets the same NumPy inputs from here (fixed seed) and must reproduce the
reference results below, which are derived analytically rather than by any autograd, so a
wrong implementation cannot pass the check by agreeing with another wrong one.
"""
import numpy as np

# W1 repeats this five-op cycle; the values stay in about [-1, 2.2], so exp never overflows
# and the gradient shrinks by a bounded factor per cycle (no denormals over 1000 ops).
W1_MUL = 1.0001
W1_ADD = 0.001
W1_CYCLE = ("mul", "add", "sin", "tanh", "exp")

SIZES = {
    "full": {
        "W1": {"n_ops": 1000, "width": 4},
        "W2": {"batch": 64, "n_in": 784, "hidden": 128, "n_out": 10},
        "W3": {"n": 64},
        "W4": {"layers": (3, 4, 4, 1), "samples": 4},
        "W5": {"n": 1000},
        "R1": {"rows": 1000, "cols": 1000},
        "F3": {"samples": 64, "features": 32},
    },
    "tiny": {
        "W1": {"n_ops": 10, "width": 3},
        "W2": {"batch": 5, "n_in": 7, "hidden": 6, "n_out": 4},
        "W3": {"n": 5},
        "W4": {"layers": (3, 4, 4, 1), "samples": 4},
        "W5": {"n": 7},
        "R1": {"rows": 4, "cols": 5},
        "F3": {"samples": 5, "features": 3},
    },
}

# torch.manual_seed(0); torch.randn(rows, cols): its first and last five values, recorded from
# PyTorch 2.13.0 (R1 checks reproduction of PyTorch's generator, which no NumPy formula gives).
R1_RECORDED = {
    (1000, 1000): (("-0x1.20370ap+0", "-0x1.270114p+0", "-0x1.0097acp-2", "-0x1.bc4abap-2", "0x1.b28a2ap-1"),
                   ("-0x1.12a88p+1", "0x1.c2bp-6", "-0x1.0d3f32p-1", "-0x1.3113bcp-6", "-0x1.c81b2ep-6")),
    (4, 5): (("-0x1.20370ap+0", "-0x1.270114p+0", "-0x1.0097acp-2", "-0x1.bc4abap-2", "0x1.329b16p-1"),
             ("-0x1.aff666p-1", "0x1.dd186p-1", "0x1.424e6ep+0", "0x1.00a334p+1", "0x1.b83674p-5")),
}


class NotAvailable(Exception):
    """Raised by a framework for a workload it cannot express; the message says why."""


def make_data(workload, size="full", seed=0):
    """The inputs of one workload as NumPy arrays and Python numbers.

    Args:
        workload (str): ``"W1"`` ... ``"W5"``, ``"R1"``.
        size (str): ``"full"`` (what is timed) or ``"tiny"`` (smoke tests).
        seed (int): seed of NumPy's generator.

    Returns:
        dict: the workload's inputs; see the ``_data_w*`` functions.
    """
    rng = np.random.default_rng(seed)
    return _DATA[workload](rng, **SIZES[size][workload])


def _data_w1(rng, n_ops, width):
    if n_ops % len(W1_CYCLE):
        raise ValueError(f"n_ops must be a multiple of {len(W1_CYCLE)}")
    return {"x": rng.uniform(-0.5, 0.5, width), "n_cycles": n_ops // len(W1_CYCLE), "n_ops": n_ops}


def _data_w2(rng, batch, n_in, hidden, n_out):
    return {
        "X": rng.standard_normal((batch, n_in)),
        "y": rng.integers(0, n_out, batch),
        "W1": rng.standard_normal((n_in, hidden)) / np.sqrt(n_in),
        "b1": rng.standard_normal(hidden) * 0.1,
        "W2": rng.standard_normal((hidden, n_out)) / np.sqrt(hidden),
        "b2": rng.standard_normal(n_out) * 0.1,
    }


def _data_w3(rng, n):
    return {"W": rng.standard_normal((n, n)) / np.sqrt(n), "x": rng.standard_normal(n)}


def _data_w4(rng, layers, samples):
    # micrograd's demo: weights uniform in [-1, 1], targets of +-1.
    weights = [(rng.uniform(-1, 1, (n_out, n_in)), rng.uniform(-1, 1, n_out))
               for n_in, n_out in zip(layers[:-1], layers[1:])]
    return {"layers": weights, "xs": rng.uniform(-1, 1, (samples, layers[0])),
            "ys": rng.choice([-1.0, 1.0], samples)}


def _data_w5(rng, n):
    return {"x": rng.uniform(-2, 2, n)}


def _data_r1(rng, rows, cols):
    return {"rows": rows, "cols": cols, "seed": 0}


def _data_f3(rng, samples, features):
    return {"X": rng.standard_normal((samples, features)), "y": rng.standard_normal(samples),
            "w": rng.standard_normal(features) / np.sqrt(features), "b": 0.1}


_DATA = {"W1": _data_w1, "W2": _data_w2, "W3": _data_w3, "W4": _data_w4, "W5": _data_w5, "R1": _data_r1,
         "F3": _data_f3}


# ---------------------------------------------------------------------------- references
def reference(workload, data):
    """The expected results of a workload, as a tuple of arrays in each framework's output order.

    W1: (grad of x,). W2: (loss, dW1, db1, dW2, db2). W3: (Jacobian,). W4: (loss, then the
    gradient of each layer's weight matrix and bias, layer by layer). W5: (second derivative,).
    R1: (first five, last five values of the seeded ``randn``), as PyTorch gives them.
    F3: (per-sample gradients of the weights, of the bias).
    """
    return _REFERENCE[workload](data)


def _ref_w1(d):
    x = d["x"]
    # Forward, keeping what each op's derivative needs; then the chain rule from the end.
    factors = []
    for _ in range(d["n_cycles"]):
        x = x * W1_MUL
        factors.append(W1_MUL)
        x = x + W1_ADD
        factors.append(1.0)
        factors.append(np.cos(x))
        x = np.sin(x)
        x = np.tanh(x)
        factors.append(1 - x * x)
        x = np.exp(x)
        factors.append(x)
    grad = np.ones_like(x)
    for f in reversed(factors):
        grad = grad * f
    return (grad,)


def _ref_w2(d):
    X, y, W1, b1, W2, b2 = d["X"], d["y"], d["W1"], d["b1"], d["W2"], d["b2"]
    n = X.shape[0]
    h = np.tanh(X @ W1 + b1)
    z = h @ W2 + b2
    zmax = z.max(axis=1, keepdims=True)
    logp = z - zmax - np.log(np.exp(z - zmax).sum(axis=1, keepdims=True))
    loss = -logp[np.arange(n), y].mean()
    dz = np.exp(logp)
    dz[np.arange(n), y] -= 1
    dz /= n
    da = (dz @ W2.T) * (1 - h * h)
    return (np.asarray(loss), X.T @ da, da.sum(0), h.T @ dz, dz.sum(0))


def _ref_w3(d):
    t = np.tanh(d["W"] @ d["x"])
    return ((1 - t * t)[:, None] * d["W"],)


def _ref_w4(d):
    layers, xs, ys = d["layers"], d["xs"], d["ys"]
    acts = [xs]
    for i, (W, b) in enumerate(layers):
        a = acts[-1] @ W.T + b
        acts.append(np.tanh(a) if i < len(layers) - 1 else a)
    out = acts[-1][:, 0]
    loss = np.mean((out - ys) ** 2)
    delta = (2 * (out - ys) / len(ys))[:, None]
    grads = []
    for i in range(len(layers) - 1, -1, -1):
        W, _ = layers[i]
        grads.append((delta.T @ acts[i], delta.sum(0)))
        if i:
            delta = (delta @ W) * (1 - acts[i] ** 2)
    flat = [np.asarray(loss)]
    for gW, gb in reversed(grads):
        flat += [gW, gb]
    return tuple(flat)


def _ref_w5(d):
    x = d["x"]
    # d2/dx2 of x**3 sin x.
    return (6 * x * np.sin(x) + 6 * x ** 2 * np.cos(x) - x ** 3 * np.sin(x),)


def _ref_r1(d):
    head, tail = R1_RECORDED[d["rows"], d["cols"]]
    return tuple(np.array([float.fromhex(v) for v in part]) for part in (head, tail))


def _ref_f3(d):
    # loss_i = (x_i . w + b - y_i)^2: d/dw = 2 r_i x_i, d/db = 2 r_i, one row per sample
    r = d["X"] @ d["w"] + d["b"] - d["y"]
    return (2 * r[:, None] * d["X"], 2 * r)


_REFERENCE = {"W1": _ref_w1, "W2": _ref_w2, "W3": _ref_w3, "W4": _ref_w4, "W5": _ref_w5, "R1": _ref_r1,
              "F3": _ref_f3}


def max_error(got, expected):
    """The largest elementwise error of ``got``, relative to the largest magnitude in each expected array.

    Scaling per array (not per element) keeps the check meaningful for W1, whose gradient is
    about 1e-69 everywhere, and for entries that happen to be near zero.

    Returns:
        float: ``inf`` when shapes or the number of results differ.
    """
    if len(got) != len(expected):
        return float("inf")
    worst = 0.0
    for g, e in zip(got, expected):
        g, e = np.asarray(g, dtype=np.float64), np.asarray(e, dtype=np.float64)
        if g.shape != e.shape:
            return float("inf")
        if g.size:
            scale = float(np.abs(e).max()) or 1.0
            err = float(np.abs(g - e).max()) / scale
            worst = max(worst, err if err == err else float("inf"))
    return worst
