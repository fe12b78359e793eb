"""Binds the ops to ``Tensor`` as methods and operators: the one table a new op adds a line to."""

from . import creation as C
from . import devices, dtypes
from .ops import addmv as AMV
from .ops import advanced_indexing as AI
from .ops import binary_math as BM
from .ops import comparison as CMP
from .ops import cumprod as CP
from .ops import diagonal as D
from .ops import indexing as I
from .ops import inplace as IP
from .ops import joining as J
from .ops import linalg as L
from .ops import matmul as MM
from .ops import pointwise as P
from .ops import reduction as R
from .ops import remainders as RM
from .ops import shape as S
from .ops import softmax as SM
from .ops import sorting as SO
from .ops import ternary as T3
from .ops import triangles as TRI
from .ops import unary as U
from .random import factories as RF
from .random import samplers as RS
from ._tensor import Tensor
from .signatures import invalid_combination

_METHODS = {
    # pointwise
    "add": P.add, "sub": P.sub, "subtract": P.sub, "mul": P.mul, "multiply": P.mul, "div": P.div,
    "divide": P.div, "true_divide": P.div, "pow": P.pow, "square": P.square, "neg": P.neg,
    "negative": P.neg, "abs": P.abs, "exp": P.exp, "log": P.log, "log1p": P.log1p, "sqrt": P.sqrt,
    "sin": P.sin, "cos": P.cos, "tan": P.tan, "tanh": P.tanh, "sigmoid": P.sigmoid, "relu": P.relu,
    "reciprocal": P.reciprocal, "sign": P.sign, "sgn": P.sgn, "floor": P.floor, "ceil": P.ceil, "round": P.round,
    "trunc": P.trunc, "clamp": CMP.clamp, "clip": CMP.clamp, "maximum": CMP.maximum, "minimum": CMP.minimum,
    "clone": P.clone, "eq": CMP.eq, "ne": CMP.ne, "lt": CMP.lt, "le": CMP.le, "gt": CMP.gt, "ge": CMP.ge,
    "logical_not": CMP.logical_not, "logical_and": CMP.logical_and, "logical_or": CMP.logical_or,
    "isnan": CMP.isnan, "isinf": CMP.isinf, "isfinite": CMP.isfinite, "allclose": CMP.allclose, "equal": CMP.equal,
    "floor_divide": RM.floor_divide, "remainder": RM.remainder, "fmod": RM.fmod,
    "fmax": BM.fmax, "fmin": BM.fmin, "atan2": BM.atan2, "arctan2": BM.atan2, "frac": U.frac,
    # reductions
    "sum": R.sum, "mean": R.mean, "prod": R.prod, "max": R.max, "min": R.min, "amax": R.amax, "amin": R.amin,
    "argmax": R.argmax, "argmin": R.argmin, "var": R.var, "std": R.std, "norm": R.norm,
    "logsumexp": SM.logsumexp, "softmax": SM.softmax, "log_softmax": SM.log_softmax, "cumsum": R.cumsum, "cumprod": CP.cumprod,
    "all": R.all, "any": R.any, "gather": R.gather, "count_nonzero": R.count_nonzero,
    # shape
    "view": S.view, "view_as": S.view_as, "reshape": S.reshape, "reshape_as": S.reshape_as,
    "flatten": S.flatten, "contiguous": S.contiguous, "transpose": S.transpose, "swapaxes": S.transpose,
    "t": S.t, "permute": S.permute, "squeeze": S.squeeze, "unsqueeze": S.unsqueeze, "expand": S.expand,
    "expand_as": S.expand_as, "repeat": J.repeat, "unbind": J.unbind, "split": J.split, "chunk": J.chunk,
    "flip": J.flip_method, "movedim": S.movedim, "moveaxis": S.movedim,
    "diagonal": D.diagonal, "diag_embed": D.diag_embed, "diag": D.diag, "trace": D.trace,
    # indexing
    "narrow": I.narrow, "select": I.select, "index_select": AI.index_select, "masked_fill": AI.masked_fill,
    "masked_select": AI.masked_select, "nonzero": AI.nonzero, "index_add": AI.index_add,
    # sorting
    "sort": SO.sort, "argsort": SO.argsort, "msort": SO.msort, "topk": SO.topk,
    # products
    "mm": L.mm, "matmul": MM.matmul, "dot": L.dot, "mv": L.mv, "bmm": L.bmm, "outer": L.outer, "addmv": AMV.addmv,
    # in place
    "zero_": IP.zero_, "fill_": IP.fill_, "copy_": IP.copy_,
}
for _name, _fn in _METHODS.items():
    setattr(Tensor, _name, _fn)


def _inplace_method(op):
    def method(self, *args, **kwargs):
        return IP.apply(self, lambda old: op(old, *args, **kwargs), *args)
    method.__name__ = op.__name__ + "_"
    return method


for _name in ("add", "sub", "mul", "div", "pow", "clamp", "neg", "abs", "exp", "log", "sqrt", "sin", "cos",
              "tanh", "sigmoid", "relu", "reciprocal", "floor", "ceil", "round", "sign", "masked_fill", "index_add",
              "clip", "divide", "multiply", "subtract", "true_divide", "negative", "square", "sgn", "tan", "trunc",
              "log1p", "fmod", "remainder", "floor_divide", "cumsum", "cumprod", "atan2", "arctan2", "frac", "addmv"):
    setattr(Tensor, _name + "_", _inplace_method(_METHODS[_name]))
for _name in ("t", "squeeze", "unsqueeze", "transpose", "swapaxes"):
    setattr(Tensor, _name + "_", lambda self, *args, _op=_METHODS[_name]: IP.view_(self, _op, *args))
Tensor.masked_fill_ = IP.masked_fill_
Tensor.clamp_min_ = _inplace_method(CMP.clamp_min)
Tensor.clamp_max_ = _inplace_method(CMP.clamp_max)
Tensor.clamp_min = CMP.clamp_min
Tensor.clamp_max = CMP.clamp_max


# ---------------------------------------------------------------------------- three-input ops and random fills
for _name, _fn in (("addcmul", T3.addcmul), ("addcdiv", T3.addcdiv), ("lerp", T3.lerp)):
    setattr(Tensor, _name, _fn)
    setattr(Tensor, _name + "_", _inplace_method(_fn))


# In-place samplers draw from PyTorch's generator algorithm (autograd_py.random).
Tensor.uniform_ = RS.uniform_
Tensor.normal_ = RS.normal_
Tensor.bernoulli_ = RS.bernoulli_
Tensor.random_ = RS.random_
Tensor.exponential_ = RS.exponential_
Tensor.cauchy_ = RS.cauchy_
Tensor.log_normal_ = RS.log_normal_
Tensor.geometric_ = RS.geometric_
Tensor.bernoulli = RF.bernoulli
Tensor.multinomial = RF.multinomial


# ---------------------------------------------------------------------------- triangles (ops.triangles)
Tensor.tril, Tensor.triu, Tensor.tril_, Tensor.triu_ = TRI.tril, TRI.triu, TRI.tril_, TRI.triu_


# ---------------------------------------------------------------------------- operators
# Bound directly (no wrapper): operators are the hottest path in every workload.
Tensor.__add__ = Tensor.__radd__ = P.add
Tensor.__sub__ = P.sub
Tensor.__rsub__ = P.rsub
Tensor.__mul__ = Tensor.__rmul__ = P.mul
Tensor.__truediv__ = P.div
Tensor.__rtruediv__ = lambda self, other: P.mul(P.reciprocal(self), other)
Tensor.__pow__ = P.pow
Tensor.__rpow__ = lambda self, other: P.pow(other, self)
Tensor.__matmul__ = MM.matmul
Tensor.__rmatmul__ = lambda self, other: MM.matmul(other, self)
Tensor.__neg__ = P.neg
Tensor.__pos__ = lambda self: self
Tensor.__abs__ = P.abs
Tensor.__floordiv__ = RM.floor_divide
Tensor.__rfloordiv__ = lambda self, other: RM.floor_divide(other, self)
Tensor.__mod__ = RM.remainder
Tensor.__rmod__ = lambda self, other: RM.remainder(other, self)
Tensor.__eq__ = CMP.eq
Tensor.__ne__ = CMP.ne
Tensor.__lt__ = CMP.lt
Tensor.__le__ = CMP.le
Tensor.__gt__ = CMP.gt
Tensor.__ge__ = CMP.ge
Tensor.__and__ = Tensor.__rand__ = CMP.bitwise_and
Tensor.__or__ = Tensor.__ror__ = CMP.bitwise_or
Tensor.__xor__ = Tensor.__rxor__ = CMP.bitwise_xor
Tensor.__invert__ = CMP.bitwise_not
Tensor.__getitem__ = I.getitem
Tensor.__setitem__ = I.setitem
Tensor.__iadd__ = Tensor.add_
Tensor.__isub__ = Tensor.sub_
Tensor.__imul__ = Tensor.mul_
Tensor.__itruediv__ = Tensor.div_
Tensor.__ipow__ = Tensor.pow_
Tensor.T = property(S.T)
Tensor.mT = property(S.mT)
Tensor.mH = property(S.mH)
Tensor.H = property(S.H)


# ---------------------------------------------------------------------------- dtype conversion
_TO_SIGNATURES = [
    "(torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)",
    "(torch.dtype dtype, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)",
    "(Tensor tensor, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)",
]
_TO_FLAGS = ("non_blocking", "copy")


def _to(self, *args, **kwargs):
    """``to(dtype)``, ``to(device, dtype)``, ``to(other)``: a tensor with that dtype on that device.

    Every device but the CPU fails as in PyTorch without CUDA. Returns this tensor itself when
    nothing changes, unless ``copy=True``.
    """
    device, dtype, flags = _parse_to(args, kwargs)
    if device is not None and devices.as_device(device, allow_meta=True) is devices.META and not self._is_meta:
        return _to_meta(self, dtype or self.dtype)
    if dtype is None or dtype.np == self._data.dtype:
        return P.clone(self) if flags.get("copy") else self
    return P.to_dtype(self, dtype.np)


def _to_meta(self, dtype):
    """A meta copy (PyTorch's ToCopyBackward0 when it requires grad): shape and dtype, no values."""
    out = P._make(self._data.astype(dtype.np))
    if P.grad_on(self):
        P.record(out, P.ToCopyBackward0(), (self,))
    out._is_meta = True
    return out


def _parse_to(args, kwargs):
    bad = set(kwargs) - {"device", "dtype", "non_blocking", "copy", "memory_format"}
    first = args[0] if args else None
    if isinstance(first, Tensor):
        rest, device, dtype, allowed = args[1:], None, first.dtype, set(_TO_FLAGS)
    elif isinstance(first, dtypes.dtype):
        rest, device, dtype, allowed = args[1:], None, first, set(_TO_FLAGS)
    else:
        device = first if args else kwargs.get("device")
        rest = args[1:]
        dtype = kwargs.get("dtype")
        if rest and (isinstance(rest[0], dtypes.dtype) or rest[0] is None):
            dtype, rest = rest[0], rest[1:]
        allowed = {"device", "dtype", *_TO_FLAGS}
        if args and "device" in kwargs:
            bad.add("device")
    bad |= set(kwargs) - allowed - {"memory_format"}
    flags = dict(zip(_TO_FLAGS, rest))
    if bad or len(rest) > 2 or any(not isinstance(v, bool) for v in flags.values()) or not (
            device is None or isinstance(device, (str, int, devices.device))):
        raise invalid_combination("to", args, kwargs, _TO_SIGNATURES)
    flags.update({k: kwargs[k] for k in _TO_FLAGS if k in kwargs})
    return device, dtype, flags


Tensor.to = _to
Tensor.float = lambda self: P.to_dtype(self, dtypes.float32.np)
Tensor.double = lambda self: P.to_dtype(self, dtypes.float64.np)
Tensor.half = lambda self: P.to_dtype(self, dtypes.float16.np)
Tensor.long = lambda self: P.to_dtype(self, dtypes.int64.np)
Tensor.int = lambda self: P.to_dtype(self, dtypes.int32.np)
Tensor.bool = lambda self: P.to_dtype(self, dtypes.bool.np)
Tensor.type_as = lambda self, other: P.to_dtype(self, other._data.dtype)


def _new_factory(fill):
    def factory(self, *size, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False):
        devices.as_device(device)
        return C._filled(size, fill, dtype or self.dtype, requires_grad)
    return factory


Tensor.new_zeros = _new_factory(0)
Tensor.new_ones = _new_factory(1)
Tensor.new_empty = _new_factory(0)
Tensor.new_tensor = lambda self, data, dtype=None, device=None, requires_grad=False: C.tensor(
    data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)
Tensor.new_full = lambda self, size, fill_value, dtype=None, device=None, requires_grad=False: C.full(
    size, fill_value, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


# ---------------------------------------------------------------------------- activations that are methods
def _nn_functional():
    from .nn import functional  # on first use: nn is not loaded at import
    return functional


Tensor.hardshrink = lambda self, lambd=0.5: _nn_functional().hardshrink(self, lambd)
Tensor.prelu = lambda self, weight: _nn_functional().prelu(self, weight)


# ---------------------------------------------------------------------------- more elementwise math (ops.math_fns)
def _math_methods():
    from .ops import math_fns as MF
    names = ("erf", "erfc", "expm1", "log2", "log10", "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh",
             "atanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "rsqrt", "logit", "xlogy")
    for name in names:
        setattr(Tensor, name, getattr(MF, name))
        setattr(Tensor, name + "_", _inplace_method(getattr(MF, name)))


_math_methods()


def _math_more_methods():
    from .ops import math_more as MM
    for name in ("exp2", "sinc", "deg2rad", "rad2deg", "nan_to_num", "logaddexp", "logaddexp2", "hypot"):
        setattr(Tensor, name, getattr(MM, name))
        if name not in ("logaddexp", "logaddexp2"):  # (torch has no logaddexp_)
            setattr(Tensor, name + "_", _inplace_method(getattr(MM, name)))


_math_more_methods()


# ---------------------------------------------------------------------------- PyTorch's other names (ops.aliases)
def _alias_methods():
    from .ops import aliases as A
    from .ops.comparison import where
    from .ops.linalg import addmm
    from .ops.pointwise import abs
    from .ops.shape import broadcast_to
    for name in ("greater", "greater_equal", "less", "less_equal", "not_equal", "swapdims", "fix", "ravel", "positive"):
        setattr(Tensor, name, getattr(A, name))
    Tensor.fix_ = _inplace_method(A.fix)
    Tensor.absolute = abs
    Tensor.absolute_ = _inplace_method(abs)
    Tensor.broadcast_to = broadcast_to
    Tensor.addmm = addmm
    Tensor.where = lambda self, condition, other: where(condition, self, other)


_alias_methods()
