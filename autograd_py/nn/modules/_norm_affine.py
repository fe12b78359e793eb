"""The learnable scale and shift the normalization layers share (BatchNorm, LayerNorm, GroupNorm):
``weight`` (ones) and ``bias`` (zeros) of one shape, registered as None when not learned."""
from ... import creation
from .. import init
from ..parameter import Parameter


def add_affine(module, shape, affine, bias, dtype):
    """Registers ``weight`` and, if ``bias``, ``bias`` of ``shape`` on ``module`` when ``affine``;
    else both as None (in that order: ``named_parameters`` and ``state_dict`` list them so)."""
    if affine:
        module.weight = Parameter(creation.empty(shape, dtype=dtype))
        if bias:
            module.bias = Parameter(creation.empty(shape, dtype=dtype))
        else:
            module.register_parameter("bias", None)
    else:
        module.register_parameter("weight", None)
        module.register_parameter("bias", None)


def reset_affine(module, affine):
    """Sets ``weight`` to ones and ``bias`` (if any) to zeros, as PyTorch's ``reset_parameters``."""
    if affine:
        init.ones_(module.weight)
        if module.bias is not None:
            init.zeros_(module.bias)
