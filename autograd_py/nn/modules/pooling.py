"""Max, average and adaptive average pooling in 1-D and 2-D (see their functions in ``nn.functional``)."""
from .. import functional as F
from .module import Module


class MaxPool2d(Module):
    """2-D max pooling (see ``F.max_pool2d``).

    Args:
        kernel_size (int or tuple): the window size.
        stride (int or tuple, optional): step between windows. Defaults to ``kernel_size``.
        padding (int or tuple, optional): implicit ``-inf`` on both sides. Defaults to 0.
        dilation (int or tuple, optional): spacing between window elements. Defaults to 1.
        return_indices (bool, optional): also return the indices of the maxima. Defaults to False.
        ceil_mode (bool, optional): round the output size up. Defaults to False.

    Example::

        >>> nn.MaxPool2d(2)
        MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    """

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class AvgPool2d(Module):
    """2-D average pooling (see ``F.avg_pool2d``).

    Args:
        kernel_size (int or tuple): the window size.
        stride (int or tuple, optional): step between windows. Defaults to ``kernel_size``.
        padding (int or tuple, optional): implicit zeros on both sides. Defaults to 0.
        ceil_mode (bool, optional): round the output size up. Defaults to False.
        count_include_pad (bool, optional): count the padding in the divisor. Defaults to True.
        divisor_override (int, optional): divide every window by this instead.

    Example::

        >>> nn.AvgPool2d(2)
        AvgPool2d(kernel_size=2, stride=2, padding=0)
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input):
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed output size (see ``F.adaptive_avg_pool2d``).

    Args:
        output_size (int or tuple): ``(H_out, W_out)``; ``None`` keeps that input size.

    Example::

        >>> nn.AdaptiveAvgPool2d((5, 7))
        AdaptiveAvgPool2d(output_size=(5, 7))
    """

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class MaxPool1d(MaxPool2d):
    """1-D max pooling (see ``F.max_pool1d``); the arguments are ``MaxPool2d``'s, as single ints.

    Example::

        >>> nn.MaxPool1d(2)
        MaxPool1d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    """

    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


def _single(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class AvgPool1d(AvgPool2d):
    """1-D average pooling (see ``F.avg_pool1d``); the arguments are ``AvgPool2d``'s but ``divisor_override``.

    Example::

        >>> nn.AvgPool1d(3)
        AvgPool1d(kernel_size=(3,), stride=(3,), padding=(0,))
    """

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(_single(kernel_size), _single(stride if stride is not None else kernel_size),
                         _single(padding), ceil_mode, count_include_pad)

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    """Average pooling to a fixed length (see ``F.adaptive_avg_pool1d``).

    Example::

        >>> nn.AdaptiveAvgPool1d(4)
        AdaptiveAvgPool1d(output_size=4)
    """

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)
