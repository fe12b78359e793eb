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


def total(out, a, b):
    """``out = a + b`` or ``a - b``: a zero tensor when both are."""
    if _is_zero(a) and _is_zero(b):
        mark(out)
    return out


def view(out, base):
    """A view (or detached alias) of a zero tensor is one."""
    if "_zerotensor" in base.__dict__:
        out._zerotensor = True
    return out
