"""``Conv1d`` and ``Conv2d``, initialised and printed as PyTorch's."""
import math

from ... import creation
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module

_PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def _ntuple(value, n):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


class _ConvNd(Module):
    """What Conv1d and Conv2d share: the checks, the parameters, their init and the repr."""

    _dim = 0

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        n = self._dim
        kernel_size, stride, dilation = _ntuple(kernel_size, n), _ntuple(stride, n), _ntuple(dilation, n)
        padding = padding if isinstance(padding, str) else _ntuple(padding, n)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                # PyTorch prints a set here, so the order of the two names varies between runs.
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError("padding_mode must be one of {'zeros', 'reflect', 'replicate', 'circular'}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels, self.kernel_size = in_channels, out_channels, kernel_size
        self.stride, self.padding, self.dilation = stride, padding, dilation
        self.transposed, self.output_padding, self.groups = False, (0,) * n, groups
        self.padding_mode = padding_mode
        self.weight = Parameter(creation.empty((out_channels, in_channels // groups) + kernel_size, dtype=dtype))
        if bias:
            self.bias = Parameter(creation.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        # kaiming_uniform_ with a=sqrt(5) makes the weight uniform in +-1/sqrt(fan_in), as the bias.
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def _pad_for_mode(self, input):
        amounts = []
        if self.padding == "same":
            for d, k in zip(reversed(self.dilation), reversed(self.kernel_size)):
                total = d * (k - 1)
                amounts += [total // 2, total - total // 2]
        elif self.padding != "valid":
            for p in reversed(self.padding):
                amounts += [p, p]
        return F.pad(input, amounts, mode=self.padding_mode)

    def _conv_forward(self, input, weight, bias):
        conv = F.conv1d if self._dim == 1 else F.conv2d
        if self.padding_mode != "zeros":
            return conv(self._pad_for_mode(input), weight, bias, self.stride, 0, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """A 1-D convolution layer over ``(N, C_in, L)`` inputs (see ``F.conv1d``).

    The weight ``(out_channels, in_channels / groups, kernel_size)`` starts with
    ``kaiming_uniform_(a=sqrt(5))`` and the bias uniform in ``+-1/sqrt(fan_in)``, PyTorch's init,
    so after ``torch.manual_seed`` the values are PyTorch's.

    Args:
        in_channels (int): channels of the input.
        out_channels (int): channels of the output.
        kernel_size (int or tuple): the kernel length.
        stride, padding, dilation, groups: as in ``F.conv1d``.
        bias (bool, optional): learn an additive bias. Defaults to ``True``.
        padding_mode (str, optional): ``'zeros'``; the other modes need ``F.pad`` modes not implemented here.

    Example::

        >>> nn.Conv1d(1, 6, 5)
        Conv1d(1, 6, kernel_size=(5,), stride=(1,))
    """

    _dim = 1


class Conv2d(_ConvNd):
    """A 2-D convolution layer over ``(N, C_in, H, W)`` inputs (see ``F.conv2d``).

    The weight ``(out_channels, in_channels / groups, kH, kW)`` starts with
    ``kaiming_uniform_(a=sqrt(5))`` and the bias uniform in ``+-1/sqrt(fan_in)``, PyTorch's init,
    so after ``torch.manual_seed`` the values are PyTorch's.

    Args:
        in_channels (int): channels of the input.
        out_channels (int): channels of the output.
        kernel_size (int or tuple): the kernel size.
        stride, padding, dilation, groups: as in ``F.conv2d``.
        bias (bool, optional): learn an additive bias. Defaults to ``True``.
        padding_mode (str, optional): ``'zeros'``; the other modes need ``F.pad`` modes not implemented here.

    Example::

        >>> nn.Conv2d(1, 6, 5)
        Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
    """

    _dim = 2
