"""Activation modules: thin wrappers over ``nn.functional`` with PyTorch's reprs."""
from ... import creation
from .. import functional as F
from ..parameter import Parameter
from .module import Module


class ReLU(Module):
    """``max(0, x)`` elementwise."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """``x`` for positive ``x``, else ``negative_slope * x``."""

    def __init__(self, negative_slope=0.01, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace else "")


class ELU(Module):
    """``x`` for positive ``x``, else ``alpha * (exp(x) - 1)``."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class GELU(Module):
    """``x * Phi(x)``, with ``Phi`` the standard normal CDF (or its tanh approximation)."""

    def __init__(self, approximate="none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self):
        return f"approximate={self.approximate!r}"


class SiLU(Module):
    """``x * sigmoid(x)`` (also called Swish)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Softplus(Module):
    """``log(1 + exp(beta * x)) / beta``, linear above ``threshold``."""

    def __init__(self, beta=1.0, threshold=20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self):
        return f"beta={self.beta}, threshold={self.threshold}"


class Sigmoid(Module):
    """``1 / (1 + exp(-x))`` elementwise."""

    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    """``tanh(x)`` elementwise."""

    def forward(self, input):
        return F.tanh(input)


class Softmax(Module):
    """Softmax along ``dim`` (leaving ``dim`` out is deprecated and warns when called)."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """``log(softmax(x))`` along ``dim``."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class Hardtanh(Module):
    """``clamp(x, min_val, max_val)`` elementwise.

    Args:
        min_val (float): the lower bound. Default: -1.
        max_val (float): the upper bound. Default: 1.
        inplace (bool): overwrite the input. Default: ``False``.

    Example::

        >>> nn.Hardtanh(-2, 2)(torch.tensor([-3., 0.5, 3.]))
        tensor([-2.0000,  0.5000,  2.0000])
    """

    def __init__(self, min_val=-1.0, max_val=1.0, inplace=False):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace
        if self.max_val <= self.min_val:
            raise AssertionError(f"max_val ({max_val}) must be greater than min_val ({min_val})")

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self):
        return f"min_val={self.min_val}, max_val={self.max_val}" + (", inplace=True" if self.inplace else "")


class ReLU6(Hardtanh):
    """``min(max(0, x), 6)`` elementwise (a ``Hardtanh`` from 0 to 6)."""

    def __init__(self, inplace=False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Threshold(Module):
    """``x`` where ``x > threshold``, else ``value``."""

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        return f"threshold={self.threshold}, value={self.value}" + (", inplace=True" if self.inplace else "")


class _Stateless(Module):
    """An activation with no arguments: ``F.<fn>(input)``."""

    def forward(self, input):
        return self._fn(input)


class LogSigmoid(_Stateless):
    """``log(sigmoid(x))`` elementwise."""
    _fn = staticmethod(lambda x: F.logsigmoid(x))


class Softsign(_Stateless):
    """``x / (1 + |x|)`` elementwise."""
    _fn = staticmethod(lambda x: F.softsign(x))


class Tanhshrink(_Stateless):
    """``x - tanh(x)`` elementwise."""
    _fn = staticmethod(lambda x: F.tanhshrink(x))


class _InplaceOnly(Module):
    """An activation whose one argument is ``inplace``."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return self._fn(input, self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class SELU(_InplaceOnly):
    """``scale * (max(0, x) + min(0, alpha * (exp(x) - 1)))`` with SELU's fixed constants."""
    _fn = staticmethod(lambda x, inplace: F.selu(x, inplace))


class Mish(_InplaceOnly):
    """``x * tanh(softplus(x))`` elementwise."""
    _fn = staticmethod(lambda x, inplace: F.mish(x, inplace))


class Hardswish(_InplaceOnly):
    """``x * relu6(x + 3) / 6`` elementwise (its repr never shows ``inplace``, as PyTorch's)."""
    _fn = staticmethod(lambda x, inplace: F.hardswish(x, inplace))

    def extra_repr(self):
        return ""


class Hardsigmoid(Hardswish):
    """``relu6(x + 3) / 6`` elementwise."""
    _fn = staticmethod(lambda x, inplace: F.hardsigmoid(x, inplace))


class CELU(Module):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`` elementwise."""

    def __init__(self, alpha=1.0, inplace=False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self):
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Softshrink(Module):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return F.softshrink(input, self.lambd)

    def extra_repr(self):
        return str(self.lambd)


class Hardshrink(Softshrink):
    """``x`` where ``|x| > lambd``, else 0."""

    def forward(self, input):
        return F.hardshrink(input, self.lambd)


class Softmin(Module):
    """``softmax(-x)`` along ``dim``."""

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class GLU(Module):
    """The gated linear unit ``a * sigmoid(b)``, ``a`` and ``b`` the halves of the input along ``dim``."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class PReLU(Module):
    """``x`` where ``x > 0``, else ``weight * x``, with a learnt slope (one, or one per channel).

    Args:
        num_parameters (int): 1, or the number of channels (the input's dim 1). Default: 1.
        init (float): the slopes' initial value. Default: 0.25.

    Example::

        >>> m = nn.PReLU()
        >>> m(torch.tensor([-2., 3.]))
        tensor([-0.5000,  3.0000], grad_fn=<PreluKernelBackward0>)
    """

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        self.num_parameters = num_parameters
        super().__init__()
        self.init = init
        self.weight = Parameter(creation.empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        self.weight.data.fill_(self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


class Softmax2d(Module):
    """Softmax over the channels (dim -3) of each spatial location of a ``(C, H, W)`` or ``(N, C, H, W)``
    input."""

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)
