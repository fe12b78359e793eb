"""``LayerNorm``: ``F.layer_norm`` over the trailing ``normalized_shape`` dims, with an elementwise
learnable scale and shift."""
import numbers

from ... import creation
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ._norm_affine import add_affine, reset_affine
from .module import Module


class LayerNorm(Module):
    """Layer normalization: each sample normalized over its last ``len(normalized_shape)`` dims.

    ``y = (x - mean) / sqrt(var + eps) * weight + bias`` with the sample's mean and biased variance;
    unlike batch normalization there are no running statistics, and train and eval mode agree.

    Args:
        normalized_shape (int or list or torch.Size): the trailing dims to normalize over.
        eps (float, optional): added to the variance. Defaults to 1e-5.
        elementwise_affine (bool, optional): learn ``weight`` (ones) and ``bias`` (zeros) of shape
            ``normalized_shape``. Defaults to ``True``.
        bias (bool, optional): learn the bias too (with ``elementwise_affine``). Defaults to ``True``.

    Example::

        >>> ln = nn.LayerNorm(3)
        >>> ln
        LayerNorm((3,), eps=1e-05, elementwise_affine=True, bias=True)
        >>> ln(torch.tensor([[1., 2., 3.]]))
        tensor([[-1.2247,  0.0000,  1.2247]], grad_fn=<NativeLayerNormBackward0>)
    """

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        add_affine(self, self.normalized_shape, elementwise_affine, bias, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        reset_affine(self, self.elementwise_affine)

    def forward(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """Root-mean-square normalization: ``x / sqrt(mean(x ** 2) + eps) * weight`` over the trailing
    ``normalized_shape`` dims (no centring, no bias), as in LLaMA-style transformers.

    Args:
        normalized_shape (int or list or torch.Size): the trailing dims to normalize over.
        eps (float, optional): added to the mean square; ``None`` is the dtype's machine epsilon.
        elementwise_affine (bool, optional): learn ``weight`` (ones). Defaults to ``True``.

    Example::

        >>> nn.RMSNorm(4)
        RMSNorm((4,), eps=None, elementwise_affine=True)
    """

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(creation.empty(self.normalized_shape, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class GroupNorm(Module):
    """Group normalization: the ``num_channels`` channels of each sample in ``num_groups`` groups,
    each normalized by its own mean and biased variance, then a per-channel ``weight`` and ``bias``.

    Args:
        num_groups (int): the number of groups; must divide ``num_channels``.
        num_channels (int): the channels ``C`` of an ``(N, C, *)`` input.
        eps (float, optional): added to the variance. Defaults to 1e-5.
        affine (bool, optional): learn ``weight`` (ones) and ``bias`` (zeros). Defaults to ``True``.
        bias (bool, optional): learn the bias too (with ``affine``). Defaults to ``True``.

    Example::

        >>> nn.GroupNorm(2, 4)
        GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
    """

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        add_affine(self, num_channels, affine, bias, dtype)
        self.reset_parameters()

    def reset_parameters(self):
        reset_affine(self, self.affine)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")
