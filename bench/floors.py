"""Hand-written NumPy forward + backward for each workload: the floor autograd_py is measured against.

A floor computes the same values and gradients as the workload in ``fw_torchlike.py``, in plain
NumPy with the chain rule written out, and at the same granularity as the workload's code: W1
runs its 1000 ops one by one on the 4-element array, W3-loop does one vector-Jacobian product per
row, and W4 works on NumPy scalars (``np.float64``) in micrograd's loops, as the 0-d tensors of the
autograd version do. So the ratio autograd_py / floor is what recording and replaying the graph
costs on top of the NumPy work itself, not a comparison with different arithmetic.

W2's and W3-vec's references in ``problems.py`` already are such code (forward, then the chain
rule by hand) and serve as their floors. ``run()`` returns the results; ``to_numpy(run())`` puts
them in :func:`problems.reference` order, as the workloads of ``fw_torchlike.py`` do.
"""
import numpy as np

import problems
from problems import W1_ADD, W1_MUL


def w1(d):
    """W1: the five-op cycle 200 times on the array, each op's derivative applied on the way back."""
    x0, n_cycles = d["x"], d["n_cycles"]

    def run():
        x = x0
        tape = []  # per cycle what the backward needs, as autograd saves it: sin's input, tanh's and exp's results
        for _ in range(n_cycles):
            x = x * W1_MUL
            x = x + W1_ADD
            before_sin = x
            x = np.sin(x)
            x = np.tanh(x)
            after_tanh = x
            x = np.exp(x)
            tape.append((before_sin, after_tanh, x))
        grad = np.ones_like(x)  # d sum / d x
        for before_sin, after_tanh, after_exp in reversed(tape):
            grad = grad * after_exp
            grad = grad * (1 - after_tanh * after_tanh)
            grad = grad * np.cos(before_sin)
            grad = grad * W1_MUL  # the add passes the gradient through unchanged
        return grad

    return run, lambda g: (g,)


def w2(d):
    """W2: the MLP step by hand (``problems``' reference: forward, log-softmax, NLL, backward)."""
    return (lambda: problems.reference("W2", d)), tuple


def w3_loop(d):
    """W3-loop: one forward, then one vector-Jacobian product per output row, stacked."""
    W, x = d["W"], d["x"]
    n = W.shape[0]

    def run():
        t = np.tanh(W @ x)
        slope = 1 - t * t
        eye = np.eye(n)
        # The VJP of row i: the one-hot through tanh (times its slope), then through W @ x (v @ W).
        return np.stack([(eye[i] * slope) @ W for i in range(n)])

    return run, lambda J: (J,)


def w3_vectorized(d):
    """W3-vec: the whole Jacobian at once, diag(1 - tanh²) @ W (``problems``' reference)."""
    return (lambda: problems.reference("W3", d)), tuple


def w4(d):
    """W4: micrograd's MLP on NumPy scalars, the forward's loops run backwards by hand per sample."""
    layers = [[(list(W[j]), b[j]) for j in range(len(b))] for W, b in d["layers"]]
    xs = [list(map(float, row)) for row in d["xs"]]
    ys = [float(v) for v in d["ys"]]
    last = len(layers) - 1
    count = len(xs)

    def run():
        grad_w = [[[0.0] * len(w) for w, _ in layer] for layer in layers]
        grad_b = [[0.0] * len(layer) for layer in layers]
        total = 0.0
        for x, target in zip(xs, ys):
            acts = [x]
            for i, layer in enumerate(layers):
                nxt = []
                for w, b in layer:
                    s = b
                    for wi, xi in zip(w, acts[-1]):
                        s = s + wi * xi
                    nxt.append(np.tanh(s) if i < last else s)
                acts.append(nxt)
            err = acts[-1][0] - target
            total = total + err ** 2
            delta = [2 * err / count]  # d loss / d output of this sample
            for i in range(last, -1, -1):
                inputs = acts[i]
                back = [0.0] * len(inputs)
                for j, (w, _) in enumerate(layers[i]):
                    dj = delta[j]
                    grad_b[i][j] += dj
                    row = grad_w[i][j]
                    for k, wk in enumerate(w):
                        row[k] += dj * inputs[k]
                        back[k] += dj * wk
                if i:  # the inputs of layer i are tanh outputs of layer i - 1
                    delta = [g * (1 - a * a) for g, a in zip(back, inputs)]
        return total / count, grad_w, grad_b

    def to_numpy(out):
        loss, grad_w, grad_b = out
        flat = [np.asarray(loss)]
        for gw, gb in zip(grad_w, grad_b):
            flat += [np.array(gw), np.array(gb)]
        return tuple(flat)

    return run, to_numpy


def w5(d):
    """W5: y = Σ x³ sin x, its gradient, and the gradient of that gradient's sum, by hand."""
    x = d["x"]

    def run():
        x2 = x * x
        x3 = x2 * x
        s, c = np.sin(x), np.cos(x)
        y = (x3 * s).sum()  # the forward, which the workload computes too
        g = 3 * x2 * s + x3 * c  # dy/dx, which the workload differentiates again
        return y, g, 6 * x * s + 6 * x2 * c - x3 * s  # ..., d(Σ g)/dx

    return run, lambda out: (out[2],)


FLOORS = {"W1": w1, "W2": w2, "W3-loop": w3_loop, "W3-vec": w3_vectorized, "W4": w4, "W5": w5}
