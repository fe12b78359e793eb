"""The workloads in MyGrad (``import mygrad as mg``), written as its documentation does.

MyGrad is first-order only and frees the graph in ``backward()``: a second ``backward`` on
the same output silently does nothing. So W3 recomputes the forward for each row, and
the higher-order and vectorized workloads are not available. MyGrad runs with its defaults
(memory guarding on), as a learner would.

Each ``w*`` function takes the data from :func:`problems.make_data` and returns
``(run, to_numpy)`` like :mod:`fw_torchlike`.
"""
import numpy as np

from problems import W1_ADD, W1_MUL, NotAvailable

NAME = "MyGrad"


def _module():
    import mygrad
    return mygrad


def version():
    return _module().__version__


def w1(d):
    mg = _module()
    x0 = mg.tensor(d["x"])
    n_cycles = d["n_cycles"]

    def run():
        x = x0
        for _ in range(n_cycles):
            x = x * W1_MUL
            x = x + W1_ADD
            x = mg.sin(x)
            x = mg.tanh(x)
            x = mg.exp(x)
        x.sum().backward()
        return x0.grad

    return run, lambda g: (g,)


def w2(d):
    mg = _module()
    from mygrad.nnet import logsoftmax
    X, y = d["X"], d["y"]
    params = [mg.tensor(d[k]) for k in ("W1", "b1", "W2", "b2")]
    rows = np.arange(X.shape[0])

    def run():
        W1, b1, W2, b2 = params
        h = mg.tanh(X @ W1 + b1)
        logp = logsoftmax(h @ W2 + b2, axis=1)
        loss = -logp[rows, y].mean()
        loss.backward()
        return loss, [p.grad for p in params]

    return run, lambda out: (out[0].data,) + tuple(out[1])


def w3_loop(d):
    mg = _module()
    W = d["W"]
    x = mg.tensor(d["x"])
    n = W.shape[0]

    def run():
        eye = np.eye(n)
        rows = []
        for i in range(n):
            # backward() frees the graph, so each row needs its own forward.
            y = mg.tanh(mg.matmul(W, x))
            y.backward(eye[i])
            rows.append(x.grad)
        return np.stack(rows)

    return run, lambda J: (J,)


def w3_vectorized(d):
    raise NotAvailable("MyGrad has no jacobian / batched backward")


def w4(d):
    mg = _module()
    layers = [[([mg.tensor(w) for w in W[j]], mg.tensor(b[j])) for j in range(len(b))]
              for W, b in d["layers"]]
    xs = [list(map(float, row)) for row in d["xs"]]
    ys = [float(v) for v in d["ys"]]
    last = len(layers) - 1

    def run():
        total = None
        for x, target in zip(xs, ys):
            act = x
            for i, layer in enumerate(layers):
                nxt = []
                for w, b in layer:
                    s = b
                    for wi, xi in zip(w, act):
                        s = s + wi * xi
                    nxt.append(mg.tanh(s) if i < last else s)
                act = nxt
            term = (act[0] - target) ** 2
            total = term if total is None else total + term
        loss = total / len(xs)
        loss.backward()
        return loss, layers

    def to_numpy(out):
        loss, layers_ = out
        flat = [loss.data]
        for layer in layers_:
            flat.append(np.array([[float(p.grad) for p in w] for w, _ in layer]))
            flat.append(np.array([float(b.grad) for _, b in layer]))
        return tuple(flat)

    return run, to_numpy


def w5(d):
    raise NotAvailable("MyGrad computes first-order derivatives only (no create_graph)")


def r1(d):
    raise NotAvailable("MyGrad has no random generator that reproduces PyTorch's numbers")


def no_func_transforms(data):
    raise NotAvailable("MyGrad has no torch.func-style jacfwd/vmap transforms")


WORKLOADS = {"W1": w1, "W2": w2, "W3-loop": w3_loop, "W3-vec": w3_vectorized, "W4": w4, "W5": w5, "R1": r1,
             "F1-jacfwd": no_func_transforms, "F2-jacrev": no_func_transforms, "F3-vmap": no_func_transforms,
             "F3-loop": no_func_transforms}
