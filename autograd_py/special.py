"""``torch.special``: the special functions learners reach for under that name (``expit``, ``erf``,
``logit``, ``xlogy``, ...), each the same op and node as its ``torch.*`` twin (``special.expit`` records
``SigmoidBackward0``), naming itself ``special_<name>`` in argument errors, as PyTorch's do.

Example::

    >>> torch.special.expit(torch.tensor([0.0]))
    tensor([0.5000])
"""
from .ops import math_fns as _M
from .ops import softmax as _SM
from .ops import unary as _U
from .ops.base import Tensor as _Tensor

__all__ = ["expit", "erf", "erfc", "expm1", "log1p", "logit", "xlogy", "softmax", "log_softmax", "logsumexp"]


def _special(name, op):
    def fn(input, *args, **kwargs):
        if not isinstance(input, _Tensor):
            raise TypeError(f"special_{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(input).__name__}")
        return op(input, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = "special_" + name
    fn.__doc__ = f"``torch.{op.__name__}`` under ``torch.special``."
    return fn


expit = _special("expit", _U.sigmoid)
erf = _special("erf", _M.erf)
erfc = _special("erfc", _M.erfc)
expm1 = _special("expm1", _M.expm1)
log1p = _special("log1p", _U.log1p)
logit = _special("logit", _M.logit)
softmax = _special("softmax", _SM.softmax)
log_softmax = _special("log_softmax", _SM.log_softmax)
logsumexp = _special("logsumexp", _SM.logsumexp)


def xlogy(input, other):
    """``torch.xlogy`` under ``torch.special``."""
    return _M.xlogy(input, other)


xlogy.__name__ = xlogy.__qualname__ = "special_xlogy"
