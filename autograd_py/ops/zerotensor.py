"""PyTorch's efficient zero tensor (``_efficientzerotensor``), which the real ``sgn``'s backward
returns: zeros without storage. Its own kernels keep it one through a product, a quotient of it, a
sum or difference of two, and a view; every other op sees plain zeros and gives a plain tensor."""
import numpy as np

from .base import Tensor

# Set once the first one is made, so the ops' checks cost nothing in programs that never make one.
made = [False]


def mark(t):
    """Makes ``t`` (a tensor of zeros) an efficient zero tensor. Returns ``t``."""
    made[0] = True
    t._zerotensor = True
    return t


def _is_zero(x):
    return isinstance(x, Tensor) and "_zerotensor" in x.__dict__


def product(out, a, b):
    """``out = a * b``: zeros (even against inf or NaN) when either factor is a zero tensor."""
    if _is_zero(a) or _is_zero(b):
        out._data = np.zeros(out._data.shape, out._data.dtype)
        mark(out)
    return out


def quotient(out, a):
    """``out = a / b``: zeros (even for b = 0 or NaN) when the numerator is a zero tensor."""
    if _is_zero(a):
        out._data = np.zeros(out._data.shape, out._data.dtype)
        mark(out)
    return out


def total(out, a, b, alpha=1):
    """``out = a + alpha * b`` (``a - b`` with alpha -1): a zero tensor when both are; when one is,
    the other's values (times alpha), as PyTorch's ``add_zerotensor`` copies them, so ``-0.0``
    stays (a forward-mode formula adds a missing tangent's zero term)."""
    za, zb = _is_zero(a), _is_zero(b)
    if za and zb:
        mark(out)
    elif za or zb:
        src = a if zb else b
        src = src._data if isinstance(src, Tensor) else np.asarray(src)
        if za and alpha != 1:
            src = np.multiply(src, alpha)
        out._data = np.broadcast_to(src, out._data.shape).astype(out._data.dtype)
    return out


def view(out, base):
    """A view (or detached alias) of a zero tensor is one."""
    if "_zerotensor" in base.__dict__:
        out._zerotensor = True
    return out
