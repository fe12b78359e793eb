"""The workloads written once in PyTorch's API, run on ``torch`` and on ``autograd_py``.

autograd_py promises to be PyTorch, so the idiomatic code is the same source for both: any
speed difference then comes from the library, not from the benchmark code.

Each ``w*`` function takes the module (``torch`` or ``autograd_py``) and the workload's data
from :func:`problems.make_data`, and returns ``(run, to_numpy)``: ``run()`` does one timed
forward + backward; ``to_numpy(run())`` gives the results in :func:`problems.reference` order.
"""
import numpy as np

from problems import W1_ADD, W1_MUL


def _np(t):
    return t.detach().numpy()


def w1(T, d):
    """1000 elementwise ops on a 4-element tensor, then ``sum().backward()``."""
    x0 = T.tensor(d["x"], requires_grad=True)
    n_cycles = d["n_cycles"]

    def run():
        x0.grad = None
        x = x0
        for _ in range(n_cycles):
            x = x * W1_MUL
            x = x + W1_ADD
            x = T.sin(x)
            x = T.tanh(x)
            x = T.exp(x)
        x.sum().backward()
        return x0.grad

    return run, lambda g: (_np(g),)


def w2(T, d):
    """One MLP training step: tanh hidden layer, log_softmax, NLL by indexing, backward."""
    X, y = T.tensor(d["X"]), T.tensor(d["y"])
    params = [T.tensor(d[k], requires_grad=True) for k in ("W1", "b1", "W2", "b2")]
    rows = T.arange(X.shape[0])

    def run():
        W1, b1, W2, b2 = params
        for p in params:
            p.grad = None
        h = T.tanh(X @ W1 + b1)
        logp = T.log_softmax(h @ W2 + b2, dim=1)
        loss = -logp[rows, y].mean()
        loss.backward()
        return loss, [p.grad for p in params]

    return run, lambda out: (_np(out[0]),) + tuple(_np(g) for g in out[1])


def w3_loop(T, d):
    """The Jacobian of tanh(W @ x): one forward, then one ``autograd.grad`` per output row."""
    W = T.tensor(d["W"])
    x = T.tensor(d["x"], requires_grad=True)
    n = W.shape[0]

    def run():
        y = T.tanh(W @ x)
        eye = T.eye(n, dtype=y.dtype)
        rows = [T.autograd.grad(y, x, eye[i], retain_graph=True)[0] for i in range(n)]
        return T.stack(rows)

    return run, lambda J: (_np(J),)


def w3_vectorized(T, d):
    """The same Jacobian by ``autograd.functional.jacobian(f, x, vectorize=True)``."""
    W = T.tensor(d["W"])
    x = T.tensor(d["x"])

    def f(v):
        return T.tanh(W @ v)

    def run():
        return T.autograd.functional.jacobian(f, x, vectorize=True)

    return run, lambda J: (_np(J),)


def w4(T, d):
    """micrograd's MLP: one 0-d tensor per weight, Python loops over neurons and samples."""
    layers = [[([T.tensor(w, dtype=T.float64, requires_grad=True) for w in W[j]],
                T.tensor(b[j], dtype=T.float64, requires_grad=True)) for j in range(len(b))]
              for W, b in d["layers"]]
    params = [p for layer in layers for w, b in layer for p in (*w, b)]
    xs = [list(map(float, row)) for row in d["xs"]]
    ys = [float(v) for v in d["ys"]]
    last = len(layers) - 1

    def run():
        for p in params:
            p.grad = None
        total = None
        for x, target in zip(xs, ys):
            act = x
            for i, layer in enumerate(layers):
                nxt = []
                for w, b in layer:
                    s = b
                    for wi, xi in zip(w, act):
                        s = s + wi * xi
                    nxt.append(s.tanh() if i < last else s)
                act = nxt
            term = (act[0] - target) ** 2
            total = term if total is None else total + term
        loss = total / len(xs)
        loss.backward()
        return loss, layers

    def to_numpy(out):
        loss, layers_ = out
        flat = [_np(loss)]
        for layer in layers_:
            flat.append(np.array([[p.grad.item() for p in w] for w, _ in layer]))
            flat.append(np.array([b.grad.item() for _, b in layer]))
        return tuple(flat)

    return run, to_numpy


def w5(T, d):
    """Second derivative of sum(x**3 * sin(x)): grad with create_graph, then grad of its sum."""
    x = T.tensor(d["x"], requires_grad=True)

    def run():
        y = (x ** 3 * T.sin(x)).sum()
        (g,) = T.autograd.grad(y, x, create_graph=True)
        (h,) = T.autograd.grad(g.sum(), x)
        return h

    return run, lambda h: (_np(h),)


def r1(T, d):
    """``torch.randn(1000, 1000)`` after ``manual_seed``: PyTorch's generator and Box-Muller (no autograd)."""
    def run():
        T.manual_seed(d["seed"])
        return T.randn(d["rows"], d["cols"])

    return run, lambda x: (_np(x).reshape(-1)[:5], _np(x).reshape(-1)[-5:])


def _w3_function(T, d):
    W = T.tensor(d["W"])
    return lambda v: T.tanh(W @ v), T.tensor(d["x"])


def f1_jacfwd(T, d):
    """The W3 Jacobian by ``torch.func.jacfwd``: one JVP per input column."""
    f, x = _w3_function(T, d)
    return (lambda: T.func.jacfwd(f)(x)), lambda J: (_np(J),)


def f2_jacrev(T, d):
    """The W3 Jacobian by ``torch.func.jacrev``: VJPs of the output rows."""
    f, x = _w3_function(T, d)
    return (lambda: T.func.jacrev(f)(x)), lambda J: (_np(J),)


def _f3(T, d):
    X, y, w = T.tensor(d["X"]), T.tensor(d["y"]), T.tensor(d["w"])
    b = T.tensor(d["b"], dtype=w.dtype)

    def loss(w, b, x, t):
        return (x @ w + b - t) ** 2
    return T.func.grad(loss, argnums=(0, 1)), (w, b, X, y)


def f3_vmap(T, d):
    """Per-sample gradients of a linear model: ``vmap(grad(loss), in_dims=(None, None, 0, 0))``."""
    g, (w, b, X, y) = _f3(T, d)
    per_sample = T.func.vmap(g, in_dims=(None, None, 0, 0))
    return (lambda: per_sample(w, b, X, y)), lambda out: (_np(out[0]), _np(out[1]))


def f3_loop(T, d):
    """The same per-sample gradients by a Python loop of ``grad`` calls, one per sample."""
    g, (w, b, X, y) = _f3(T, d)

    def run():
        grads = [g(w, b, X[i], y[i]) for i in range(X.shape[0])]
        return T.stack([dw for dw, _ in grads]), T.stack([db for _, db in grads])
    return run, lambda out: (_np(out[0]), _np(out[1]))


WORKLOADS = {"W1": w1, "W2": w2, "W3-loop": w3_loop, "W3-vec": w3_vectorized, "W4": w4, "W5": w5, "R1": r1,
             "F1-jacfwd": f1_jacfwd, "F2-jacrev": f2_jacrev, "F3-vmap": f3_vmap, "F3-loop": f3_loop}
