"""autograd_py: PyTorch's autograd in pure Python and NumPy.

Use it as ``import autograd_py as torch``, or call :func:`install_as_torch` so that unchanged
PyTorch snippets (``import torch``, ``from torch.autograd import Variable``) run on it.
"""
import numpy as _np

# PyTorch never warns about inf/nan from arithmetic (1/0 gives inf silently); match it.
_np.seterr(divide="ignore", invalid="ignore", over="ignore", under="ignore")

from . import dtypes as _dtypes
from . import tensor_methods as _tensor_methods  # noqa: F401  (binds methods to Tensor)
from .creation import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor,
                       IntTensor, LongTensor, ShortTensor, arange, as_tensor, empty,
                       empty_like, eye, from_numpy, full, full_like, linspace, logspace,
                       ones, ones_like, tensor, zeros, zeros_like)
from .random import (Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed,
                     set_rng_state)
from .random.factories import (bernoulli, multinomial, normal, rand, rand_like, randint, randint_like, randn,
                               randn_like, randperm)
from .dtypes import (bool, double, dtype, float, float16, float32, float64, get_default_dtype, half, int,
                     int8, int16, int32, int64, long, set_default_dtype, short, uint8)
from .formatting import set_printoptions
from .grad_mode import (enable_grad, inference_mode, is_anomaly_enabled, is_grad_enabled,
                        is_inference_mode_enabled, no_grad, set_grad_enabled)
from .ops.advanced_indexing import index_add, index_select, masked_fill, masked_select, nonzero
from .ops.indexing import narrow, select
from .ops.sorting import argsort, msort, sort, topk
from .ops.ternary import addcdiv, addcmul, lerp
from .ops.linalg import addmm, bmm, dot, inner, mm, mv, outer
from .ops.matmul import matmul
from .ops.addmv import addmv
from .ops.binary_math import arctan2, atan2, fmax, fmin
from .ops.unary import frac
from .ops.math_fns import (acos, acosh, arccos, arccosh, arcsin, arcsinh, arctan, arctanh, asin, asinh, atan, atanh,
                           cosh, erf, erfc, expm1, log10, log2, logit, rsqrt, sinh, xlogy)
from .ops.math_more import deg2rad, exp2, hypot, logaddexp, logaddexp2, nan_to_num, rad2deg, sinc
from .ops.comparison import (allclose, clamp, clamp_max, clamp_min, eq, equal, ge, gt, isfinite, isinf, isnan,
                             le, logical_and, logical_not, logical_or, lt, maximum, minimum, ne, where)
from .ops.remainders import floor_divide, fmod, remainder
from .ops.aliases import fix, greater, greater_equal, less, less_equal, not_equal, positive, ravel, swapdims
from .ops.pointwise import (abs, add, ceil, clone, cos, div, exp, floor, log, log1p, mul, neg, pow,
                            reciprocal, relu, round, rsub, sgn, sigmoid, sign, sin, sqrt, square, sub, tan, tanh,
                            trunc)
from .ops.reduction import (all, amax, amin, any, argmax, argmin, count_nonzero, cumsum, gather, max,
                            mean, min, norm, prod, std, sum, var)
from .ops.cumprod import cumprod
from .ops.softmax import logsumexp, log_softmax, softmax
from .ops.joining import cat, chunk, concat, concatenate, flip, split, stack, unbind
from .ops.shape import (broadcast_to, flatten, moveaxis, movedim, permute, reshape, squeeze, swapaxes, t,
                        transpose, unsqueeze)
from .ops.diagonal import diag, diag_embed, diagonal, trace
from .ops.triangles import meshgrid, tril, tril_indices, triu, triu_indices
from ._tensor import Size, Tensor, is_tensor
from ._warn import is_warn_always_enabled, set_warn_always
from .devices import device, get_default_device, set_default_device
from . import autograd  # noqa: E402
from .torch_alias import install_as_torch

clip = clamp
multiply = mul
subtract = sub
divide = true_divide = div
negative = neg
absolute = abs
__version__ = "0.1.0"


def is_floating_point(input):
    return input.is_floating_point()


def numel(input):
    return input.numel()


_LAZY_SUBMODULES = ("nn", "optim", "cuda", "accelerator", "backends", "serialization", "utils", "func")
_LAZY_FUNCTIONS = {"save": "serialization", "load": "serialization", "conv1d": "nn.functional",
                   "conv2d": "nn.functional", "max_pool2d": "nn.functional", "vmap": "batching",
                   "einsum": "ops.einsum"}

_LAZY_SUBMODULES += ("special",)  # torch.special.expit, erf, logit, xlogy, ...
# torch.selu, torch.prelu, ...: the activations torch also exports at the top level (nn loads on use)
_LAZY_FUNCTIONS.update(dict.fromkeys(("selu", "selu_", "celu", "celu_", "hardshrink", "threshold", "threshold_",
                                      "prelu"), "nn.functional"))


def __getattr__(name):
    # nn and optim load on first use (``torch.nn``, ``from torch import nn``): most autograd
    # snippets never touch them, and every module imported costs start-up time in Pyodide.
    if name in _LAZY_SUBMODULES or name in _LAZY_FUNCTIONS:
        import importlib

        module = importlib.import_module(f".{_LAZY_FUNCTIONS.get(name, name)}", __name__)
        return getattr(module, name) if name in _LAZY_FUNCTIONS else module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES) | set(_LAZY_FUNCTIONS))
