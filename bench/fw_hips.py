"""The workloads in HIPS autograd (``import autograd``), written functionally as it is meant to be.

Functions of ``autograd.numpy`` arrays are differentiated with ``grad``, ``value_and_grad``,
``make_vjp`` and ``jacobian``; the micrograd MLP differentiates w.r.t. nested lists of floats.
HIPS ``jacobian`` has no vectorized mode: it loops over VJPs internally, and is timed as HIPS'
answer to W3-vec.

Each ``w*`` function takes the data from :func:`problems.make_data` and returns
``(run, to_numpy)`` like :mod:`fw_torchlike`.
"""
import numpy as np

from problems import W1_ADD, W1_MUL, NotAvailable

NAME = "HIPS"


def version():
    from importlib.metadata import version as dist_version
    return dist_version("autograd")


def w1(d):
    import autograd
    import autograd.numpy as anp
    n_cycles = d["n_cycles"]

    def f(x):
        for _ in range(n_cycles):
            x = x * W1_MUL
            x = x + W1_ADD
            x = anp.sin(x)
            x = anp.tanh(x)
            x = anp.exp(x)
        return anp.sum(x)

    df = autograd.grad(f)
    x0 = d["x"]
    return (lambda: df(x0)), lambda g: (g,)


def w2(d):
    import autograd
    import autograd.numpy as anp
    from autograd.scipy.special import logsumexp
    X, y = d["X"], d["y"]
    rows = np.arange(X.shape[0])
    params = [d[k] for k in ("W1", "b1", "W2", "b2")]

    def loss(params):
        W1, b1, W2, b2 = params
        h = anp.tanh(anp.dot(X, W1) + b1)
        z = anp.dot(h, W2) + b2
        logp = z - logsumexp(z, axis=1, keepdims=True)
        return -anp.mean(logp[rows, y])

    step = autograd.value_and_grad(loss)
    return (lambda: step(params)), lambda out: (np.asarray(out[0]),) + tuple(out[1])


def _w3_function(d):
    import autograd.numpy as anp
    W = d["W"]
    return lambda x: anp.tanh(anp.dot(W, x))


def w3_loop(d):
    import autograd
    f, x = _w3_function(d), d["x"]
    n = d["W"].shape[0]

    def run():
        vjp, _ = autograd.make_vjp(f)(x)
        eye = np.eye(n)
        return np.stack([vjp(eye[i]) for i in range(n)])

    return run, lambda J: (J,)


def w3_vectorized(d):
    import autograd
    jac = autograd.jacobian(_w3_function(d))
    x = d["x"]
    return (lambda: jac(x)), lambda J: (J,)


def w4(d):
    import autograd
    import autograd.numpy as anp
    params = [[(list(map(float, W[j])), float(b[j])) for j in range(len(b))] for W, b in d["layers"]]
    xs = [list(map(float, row)) for row in d["xs"]]
    ys = [float(v) for v in d["ys"]]
    last = len(params) - 1

    def loss(layers):
        total = 0.0
        for x, target in zip(xs, ys):
            act = x
            for i, layer in enumerate(layers):
                nxt = []
                for w, b in layer:
                    s = b
                    for wi, xi in zip(w, act):
                        s = s + wi * xi
                    nxt.append(anp.tanh(s) if i < last else s)
                act = nxt
            total = total + (act[0] - target) ** 2
        return total / len(xs)

    step = autograd.value_and_grad(loss)

    def to_numpy(out):
        value, grads = out
        flat = [np.asarray(value)]
        for layer in grads:
            flat.append(np.array([w for w, _ in layer]))
            flat.append(np.array([b for _, b in layer]))
        return tuple(flat)

    return (lambda: step(params)), to_numpy


def w5(d):
    import autograd
    import autograd.numpy as anp

    def f(x):
        return anp.sum(x ** 3 * anp.sin(x))

    df = autograd.grad(f)
    d2f = autograd.grad(lambda x: anp.sum(df(x)))
    x = d["x"]
    return (lambda: d2f(x)), lambda h: (h,)


def r1(d):
    raise NotAvailable("HIPS autograd has no random generator that reproduces PyTorch's numbers")


def no_func_transforms(data):
    raise NotAvailable("HIPS autograd has no torch.func-style jacfwd/vmap transforms")


WORKLOADS = {"W1": w1, "W2": w2, "W3-loop": w3_loop, "W3-vec": w3_vectorized, "W4": w4, "W5": w5, "R1": r1,
             "F1-jacfwd": no_func_transforms, "F2-jacrev": no_func_transforms, "F3-vmap": no_func_transforms,
             "F3-loop": no_func_transforms}
