"""``torch.nn.functional``: activations, ``linear``, losses, dropout and friends.

Ops keep PyTorch's ``grad_fn`` names: ``linear`` records ``AddmmBackward0``, ``cross_entropy``
is ``log_softmax`` followed by ``nll_loss`` (``NllLossBackward0 -> LogSoftmaxBackward0``), and
each loss with a dedicated backward in PyTorch has one here (see ``_loss_ops``).
"""
import warnings

from ..ops import inplace as _inplace
from ..ops import pointwise as _P
from ..ops import softmax as _SM
from ..ops.base import _make, np
from ..ops.linalg import addmm, mm
from ..ops.matmul import matmul
from ..ops.shape import expand, reshape, t
from ._adaptive_pool_ops import adaptive_avg_pool2d
from ._activation_ops import constant_pad_nd, gelu, leaky_relu as _leaky_relu, leaky_relu_ as _leaky_relu_
from ._activation_ops import silu as _silu, softplus
from ._activation_piecewise import (hardshrink, hardsigmoid, hardswish, hardtanh, hardtanh_, relu6, softshrink, threshold,
                               threshold_)
from ._activation_smooth import celu, celu_, logsigmoid, mish, selu, selu_, softsign, tanhshrink
from ._activation_smooth import elu as _elu, elu_
leaky_relu_ = _leaky_relu_
from ._activation_gated import glu, prelu, softmin
from ._conv_ops import conv1d, conv2d
from ._embedding import embedding
from ._norm_ops import batch_norm
from ._layer_norm_ops import layer_norm
from ._normalize import normalize, rms_norm
from ._group_norm_ops import group_norm
from ._instance_norm import instance_norm
from ._losses import (_expect_tensor, binary_cross_entropy, binary_cross_entropy_with_logits, cross_entropy, l1_loss,
                      mse_loss, nll_loss, smooth_l1_loss)
from ._pool1d_ops import adaptive_avg_pool1d, avg_pool1d, max_pool1d
from ._pool_ops import avg_pool2d, max_pool2d, max_pool2d_with_indices

__all__ = ["relu", "relu_", "leaky_relu", "elu", "gelu", "silu", "softplus", "sigmoid", "tanh", "softmax",
           "log_softmax", "linear", "embedding", "dropout", "one_hot", "pad", "mse_loss", "l1_loss", "smooth_l1_loss",
           "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "conv1d", "conv2d",
           "max_pool2d", "max_pool2d_with_indices", "avg_pool2d", "adaptive_avg_pool2d", "max_pool1d", "avg_pool1d",
           "adaptive_avg_pool1d"]
__all__ += ["relu6", "hardtanh", "hardtanh_", "logsigmoid", "selu", "selu_", "celu", "celu_", "mish", "softsign",
            "hardswish", "hardsigmoid", "softmin", "tanhshrink", "softshrink", "hardshrink", "threshold", "threshold_",
            "glu", "prelu", "elu_", "leaky_relu_"]
__all__ += ["batch_norm", "layer_norm", "normalize", "rms_norm", "group_norm", "instance_norm"]


# ---------------------------------------------------------------------------- activations
def relu(input, inplace=False):
    """Applies ``max(0, x)`` elementwise (``grad_fn=<ReluBackward0>``).

    Args:
        input (Tensor): the input.
        inplace (bool, optional): overwrite ``input``. Defaults to ``False``.

    Example::

        >>> F.relu(torch.tensor([-1., 2.]))
        tensor([0., 2.])
    """
    _expect_tensor(input, "relu", "input", 1)
    return input.relu_() if inplace else _P.relu(input)


def relu_(input):
    return input.relu_()


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """Applies ``x if x > 0 else negative_slope * x`` (``grad_fn=<LeakyReluBackward0>``).

    Example::

        >>> F.leaky_relu(torch.tensor([-2., 3.]), 0.1)
        tensor([-0.2000,  3.0000])
    """
    _expect_tensor(input, "leaky_relu", "input", 1)
    return _leaky_relu_(input, negative_slope) if inplace else _leaky_relu(input, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    """Applies ``x if x > 0 else alpha * (exp(x) - 1)`` (``grad_fn=<EluBackward0>``; in place ``EluBackward1``)."""
    _expect_tensor(input, "elu", "input", 1)
    return _elu(input, alpha, inplace)


def silu(input, inplace=False):
    """Applies ``x * sigmoid(x)`` (``grad_fn=<SiluBackward0>``)."""
    _expect_tensor(input, "silu", "input", 1)
    if inplace:
        return _inplace.apply(input, _silu)
    return _silu(input)


def sigmoid(input):
    """Applies ``1 / (1 + exp(-x))`` (``grad_fn=<SigmoidBackward0>``)."""
    return _P.sigmoid(input)


def tanh(input):
    """Applies ``tanh(x)`` (``grad_fn=<TanhBackward0>``)."""
    return _P.tanh(input)


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                  "dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``exp(x) / exp(x).sum(dim)`` along ``dim`` (``grad_fn=<SoftmaxBackward0>``).

    Args:
        input (Tensor): the input.
        dim (int): the dimension that sums to 1. Omitting it is deprecated and warns.
        dtype (torch.dtype, optional): cast ``input`` to this type first.

    Example::

        >>> F.softmax(torch.tensor([1., 2., 3.]), dim=0)
        tensor([0.0900, 0.2447, 0.6652])
    """
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return _SM.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    """``log(softmax(x))`` computed stably (``grad_fn=<LogSoftmaxBackward0>``)."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return _SM.log_softmax(input, dim, dtype=dtype)


# ---------------------------------------------------------------------------- linear
def linear(input, weight, bias=None):
    """``input @ weight.T + bias``, recorded as PyTorch records it.

    A 2-D input with a bias is one ``addmm`` (``grad_fn=<AddmmBackward0>`` whose inputs are
    bias, input and ``weight.t()``); other contiguous inputs are viewed as 2-D around that addmm.

    Args:
        input (Tensor): shape ``(*, in_features)``.
        weight (Tensor): shape ``(out_features, in_features)``.
        bias (Tensor, optional): shape ``(out_features)``.

    Returns:
        Tensor: shape ``(*, out_features)``.
    """
    _expect_tensor(input, "linear", "input", 1)
    _expect_tensor(weight, "linear", "weight", 2)
    if bias is not None:
        _expect_tensor(bias, "linear", "bias", 3)
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    if input.dim() == 2 and weight.dim() == 2:
        if bias is None:
            return mm(input, t(weight))
        _check_addmm(bias, input, weight)
        return addmm(bias, input, t(weight))
    if bias is not None and weight.dim() == 2 and input.is_contiguous():
        flat = reshape(input, (-1, input.shape[-1]))
        _check_addmm(bias, flat, weight)
        return reshape(addmm(bias, flat, t(weight)), tuple(input.shape[:-1]) + (weight.shape[0],))
    out = matmul(input, t(weight) if weight.dim() == 2 else weight)
    return out + bias if bias is not None else out


def _check_addmm(bias, mat1, weight):
    """addmm's argument checks, in PyTorch's order (dtypes, then shapes, then the bias broadcast)."""
    name = lambda x: x.dtype.legacy_name[:-6]  # noqa: E731
    if bias.dtype is not weight.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {name(bias)} and {name(weight)}")
    if mat1.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {name(mat1)} and {name(weight)}")
    (n, k), (m, k2) = mat1.shape, weight.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    expand(bias.detach(), (n, m))


# ---------------------------------------------------------------------------- dropout, one_hot, pad
def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes each element with probability ``p`` and scales the rest by ``1 / (1 - p)``.

    With ``training=False`` or ``p == 0`` it returns ``input`` itself, as PyTorch does. The mask is
    PyTorch's CPU one: ``empty_like(input).bernoulli_(1 - p)`` divided by ``1 - p``, so after
    ``torch.manual_seed`` the same elements are dropped.

    Example::

        >>> F.dropout(torch.ones(4), p=0.5, training=False)
        tensor([1., 1., 1., 1.])
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0 or input.numel() == 0:
        return input
    if p == 1:
        noise = _make(np.zeros((), dtype=input._data.dtype))
    else:
        noise = _make(np.empty_like(input._data)).bernoulli_(1 - p)
        noise = _make(noise._data / np.asarray(1 - p, dtype=input._data.dtype))
    return input.mul_(noise) if inplace else _P.mul(input, noise)


def one_hot(tensor, num_classes=-1):
    """Turns class indices of shape ``(*)`` into a ``(*, num_classes)`` int64 tensor of 0s and 1s.

    Example::

        >>> F.one_hot(torch.tensor([0, 2]), 3)
        tensor([[1, 0, 0],
                [0, 0, 1]])
    """
    data = tensor._data
    if data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if data.size and data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(data.max()) + 1 if data.size else 0
    elif data.size and data.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return _make((data[..., None] == np.arange(num_classes)).astype(np.int64))


def pad(input, pad, mode="constant", value=None):
    """Pads the last dims of ``input``; ``pad`` is ``(left, right, top, bottom, ...)`` from the last dim.

    Only ``mode='constant'`` is implemented (``grad_fn=<ConstantPadNdBackward0>``); negative
    amounts crop.

    Example::

        >>> F.pad(torch.ones(1, 2), (1, 0), value=5.)
        tensor([[5., 1., 1.]])
    """
    if mode == "constant":
        return constant_pad_nd(input, pad, 0.0 if value is None else value)
    if mode in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"autograd_py implements only mode='constant' padding, not '{mode}'")
    raise NotImplementedError(f"Unrecognised padding mode {mode}")
