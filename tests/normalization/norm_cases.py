"""Learner-style batch/layer norm scenarios, written against a torch-like namespace ``T``: ``record.py``
runs them under real PyTorch, ``tests/test_normalization.py`` under autograd_py, and the two must agree
bit for bit (float32) or to float64 rounding (double backward)."""
import numpy as np


def arr(shape, seed, lo=-2.0, hi=2.0, dtype=np.float32):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(dtype)


def _set(T, param, values):
    with T.no_grad():
        param.copy_(T.tensor(values))


def batchnorm1d_steps(T):
    """Three training steps (running stats by momentum), then eval, with gradients."""
    bn = T.nn.BatchNorm1d(5)
    _set(T, bn.weight, arr(5, 1))
    _set(T, bn.bias, arr(5, 2))
    out = {}
    for step in range(3):
        x = T.tensor(arr((8, 5), 10 + step), requires_grad=True)
        y = bn(x)
        (y * T.tensor(arr((8, 5), 20 + step))).sum().backward()
    out.update(y=y, rm=bn.running_mean, rv=bn.running_var, gx=x.grad, gw=bn.weight.grad, gb=bn.bias.grad,
               nbt=bn.num_batches_tracked)
    bn.eval()
    x = T.tensor(arr((8, 5), 30), requires_grad=True)
    y = bn(x)
    (y * T.tensor(arr((8, 5), 31))).sum().backward()
    out.update(eval_y=y, eval_gx=x.grad)
    return out


def batchnorm2d_train_eval(T):
    """A 4-D input: planes of 15 values (one 8-lane vector and a tail) in train and eval mode."""
    bn = T.nn.BatchNorm2d(3)
    _set(T, bn.weight, arr(3, 3))
    _set(T, bn.bias, arr(3, 4))
    x = T.tensor(arr((4, 3, 3, 5), 40), requires_grad=True)
    y = bn(x)
    (y * T.tensor(arr((4, 3, 3, 5), 41))).sum().backward()
    out = dict(y=y, rm=bn.running_mean, rv=bn.running_var, gx=x.grad, gw=bn.weight.grad, gb=bn.bias.grad)
    bn.eval()
    bn.weight.grad = bn.bias.grad = None
    x = T.tensor(arr((2, 3, 3, 5), 42), requires_grad=True)
    y = bn(x)
    (y * T.tensor(arr((2, 3, 3, 5), 43))).sum().backward()
    out.update(eval_y=y, eval_gx=x.grad, eval_gw=bn.weight.grad, eval_gb=bn.bias.grad)
    return out


def cumulative_average(T):
    """momentum=None: the running stats are the plain average over the batches seen (3-D input)."""
    bn = T.nn.BatchNorm1d(4, momentum=None, affine=False)
    for step in range(3):
        bn(T.tensor(arr((3, 4, 7), 50 + step)))
    return dict(rm=bn.running_mean, rv=bn.running_var)


def wide_batch(T):
    """40 rows and 20 channels: rows split between threads, channels past the 8-lane vectors."""
    x = T.tensor(arr((40, 20), 70, -3, 5), requires_grad=True)
    rm, rv = T.zeros(20), T.ones(20)
    y = T.nn.functional.batch_norm(x, rm, rv, training=True, momentum=0.3)
    (y * T.tensor(arr((40, 20), 71))).sum().backward()
    return dict(y=y, rm=rm, rv=rv, gx=x.grad)


def two_rows(T):
    """A batch of 2 (no more rows than threads): float tiles for 12 channels, double sums for 20."""
    out = {}
    for c in (12, 20):
        x = T.tensor(arr((2, c), 72 + c, -3, 5), requires_grad=True)
        rm, rv = T.zeros(c), T.ones(c)
        y = T.nn.functional.batch_norm(x, rm, rv, training=True)
        (y * T.tensor(arr((2, c), 73 + c))).sum().backward()
        out.update({f"y{c}": y, f"rm{c}": rm, f"rv{c}": rv, f"gx{c}": x.grad})
    return out


def double_backward(T):
    """Gradients of gradients (float64): create_graph=True through the batch statistics."""
    x = T.tensor(arr((6, 3), 60, dtype=np.float64), requires_grad=True)
    w = T.tensor(arr(3, 61, dtype=np.float64), requires_grad=True)
    y = T.nn.functional.batch_norm(x, None, None, w, None, True)
    gx, gw = T.autograd.grad((y ** 3).sum(), (x, w), create_graph=True)
    hx, hw = T.autograd.grad((gx ** 2).sum() + gw.sum(), (x, w))
    return dict(hx=hx, hw=hw)


def layernorm_tokens(T):
    """LayerNorm(20) over token embeddings (2, 5, 20): two 8-lane vectors and a tail per row."""
    ln = T.nn.LayerNorm(20)
    _set(T, ln.weight, arr(20, 80))
    _set(T, ln.bias, arr(20, 81))
    x = T.tensor(arr((2, 5, 20), 82, -1, 4), requires_grad=True)
    y = ln(x)
    (y * T.tensor(arr((2, 5, 20), 83))).sum().backward()
    return dict(y=y, gx=x.grad, gw=ln.weight.grad, gb=ln.bias.grad)


def layernorm_shapes(T):
    """Two trailing dims without affine parameters, a bias alone, a weight alone."""
    x = T.tensor(arr((3, 4, 5), 90), requires_grad=True)
    y = T.nn.LayerNorm([4, 5], elementwise_affine=False)(x)
    (y * T.tensor(arr((3, 4, 5), 91))).sum().backward()
    b = T.tensor(arr(5, 92), requires_grad=True)
    w = T.tensor(arr(5, 93), requires_grad=True)
    yb = T.nn.functional.layer_norm(x.detach(), (5,), bias=b)
    yw = T.nn.functional.layer_norm(x.detach(), (5,), weight=w)
    (yb * yw).sum().backward()
    return dict(y=y, gx=x.grad, yb=yb, yw=yw, gb=b.grad, gw=w.grad)


def layernorm_wide_rows(T):
    """Rows of 300 values: three Welford chunks merged in the cascade, then a tail of 4."""
    ln = T.nn.LayerNorm(300)
    x = T.tensor(arr((3, 300), 84, -2, 6), requires_grad=True)
    y = ln(x)
    (y * T.tensor(arr((3, 300), 85))).sum().backward()
    return dict(y=y, gx=x.grad, gw=ln.weight.grad, gb=ln.bias.grad)


def rmsnorm_and_normalize(T):
    """RMSNorm (composite: pow, mean, add_, rsqrt, mul) and F.normalize with p=1."""
    rms = T.nn.RMSNorm(12)
    _set(T, rms.weight, arr(12, 86))
    x = T.tensor(arr((2, 3, 12), 87), requires_grad=True)
    y = rms(x)
    z = T.nn.functional.normalize(x, p=1, dim=-1)
    (y * z).sum().backward()
    return dict(y=y, z=z, gx=x.grad, gw=rms.weight.grad)


def _groupnorm_run(T):
    gn = T.nn.GroupNorm(2, 6)
    _set(T, gn.weight, arr(6, 88))
    _set(T, gn.bias, arr(6, 89))
    x = T.tensor(arr((3, 6, 5), 90, -1, 3), requires_grad=True)
    y = gn(x)
    (y * T.tensor(arr((3, 6, 5), 91))).sum().backward()
    return gn, x, y


def groupnorm_forward(T):
    """GroupNorm's output and bias gradient (their sums' order is measured)."""
    gn, x, y = _groupnorm_run(T)
    return dict(y=y, gb=gn.bias.grad)


def groupnorm_gradients(T):
    """GroupNorm's input and weight gradients: the kernel's sum order is not reproduced yet."""
    gn, x, y = _groupnorm_run(T)
    return dict(gx=x.grad, gw=gn.weight.grad)


def layernorm_double_backward(T):
    x = T.tensor(arr((4, 6), 94, dtype=np.float64), requires_grad=True)
    w = T.tensor(arr(6, 95, dtype=np.float64), requires_grad=True)
    y = T.nn.functional.layer_norm(x, (6,), w)
    gx, gw = T.autograd.grad((y ** 3).sum(), (x, w), create_graph=True)
    hx, hw = T.autograd.grad((gx ** 2).sum() + gw.sum(), (x, w))
    return dict(hx=hx, hw=hw)


EXACT = [batchnorm1d_steps, batchnorm2d_train_eval, cumulative_average, wide_batch, two_rows, layernorm_tokens,
         layernorm_shapes, layernorm_wide_rows, rmsnorm_and_normalize, groupnorm_forward]
CLOSE = [double_backward, layernorm_double_backward]
NEAR = [groupnorm_gradients]  # float32 values within a few units in the last place
