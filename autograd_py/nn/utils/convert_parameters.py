"""Flatten parameters into one vector and back."""
from ...ops.joining import cat
from ...ops.shape import reshape


def parameters_to_vector(parameters):
    """Concatenates the flattened parameters into one 1-D tensor (recorded, like PyTorch)."""
    return cat([reshape(p, (-1,)) for p in parameters])


def vector_to_parameters(vec, parameters):
    """Copies consecutive slices of ``vec`` into each parameter's data (not recorded)."""
    from ..._tensor import Tensor
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    offset = 0
    for p in parameters:
        n = p.numel()
        p.data = reshape(vec.detach()[offset:offset + n], tuple(p.shape))
        offset += n
