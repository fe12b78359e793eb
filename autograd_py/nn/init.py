"""``torch.nn.init``: fill tensors in place (without recording) with standard initial values.

Random fills use autograd_py's generator: seeded runs repeat, but the numbers differ from PyTorch's.
"""
import math
import warnings

from .. import grad_mode
from ..creation import default_generator
from ..ops.base import _make, np


def _fill(tensor, sample):
    """Writes ``sample(shape)`` into ``tensor`` under no_grad (bumping its version). Returns ``tensor``."""
    if tensor.numel() == 0:
        return tensor
    with grad_mode.no_grad():
        tensor.copy_(_make(np.asarray(sample(tensor.shape)).astype(tensor._data.dtype)))
    return tensor


def _rng(generator):
    return (generator or default_generator)._rng


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fills ``tensor`` with values drawn uniformly from ``[a, b)``."""
    return _fill(tensor, lambda shape: _rng(generator).uniform(a, b, tuple(shape)))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fills ``tensor`` with values drawn from ``N(mean, std**2)``."""
    return _fill(tensor, lambda shape: _rng(generator).normal(mean, std, tuple(shape)))


def constant_(tensor, val):
    """Fills ``tensor`` with ``val``."""
    return _fill(tensor, lambda shape: np.full(tuple(shape), val))


def zeros_(tensor):
    """Fills ``tensor`` with zeros."""
    return constant_(tensor, 0.0)


def ones_(tensor):
    """Fills ``tensor`` with ones."""
    return constant_(tensor, 1.0)


def eye_(tensor):
    """Fills a 2-D ``tensor`` with the identity matrix."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, lambda shape: np.eye(shape[0], shape[1]))


def calculate_gain(nonlinearity, param=None):
    """The recommended scale for a nonlinearity: 1 (linear, sigmoid), 5/3 (tanh), sqrt(2) (relu)...

    Example::

        >>> nn.init.calculate_gain('tanh')
        1.6666666666666667
    """
    linear = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
              "conv_transpose3d"]
    if nonlinearity in linear or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot uniform: ``U(-a, a)`` with ``a = gain * sqrt(6 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    a = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot normal: ``N(0, std**2)`` with ``std = gain * sqrt(2 / (fan_in + fan_out))``."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He uniform: ``U(-bound, bound)`` with ``bound = gain * sqrt(3 / fan)``.

    Args:
        a (float): the negative slope of the following leaky_relu (used for the gain).
        mode (str): ``'fan_in'`` (default) keeps forward variances, ``'fan_out'`` backward ones.
        nonlinearity (str): ``'leaky_relu'`` (default) or ``'relu'`` etc., see :func:`calculate_gain`.
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    bound = math.sqrt(3.0) * calculate_gain(nonlinearity, a) / math.sqrt(fan)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He normal: ``N(0, std**2)`` with ``std = gain / sqrt(fan)``."""
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan), generator)
