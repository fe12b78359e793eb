"""``F.embedding``: row lookup with PyTorch's ``EmbeddingBackward0`` (a scatter-add of the rows' grads)."""
from .. import grad_mode
from ..node import Node
from ..ops.base import Tensor, _make, grad_on, np, record
from ..saved_tensor import bump_version


class EmbeddingBackward0(Node):
    def backward(self, grad):
        return embedding_dense_backward(grad, self.indices, self.num_weights, self.padding_idx)

    def jvp(self, tangents, inputs, result):
        # The lookup of the weight's tangent: padding rows are read as they are, as in the forward.
        return _lookup(tangents[0], self.indices, self.padding_idx, zero_padding=False)


class EmbeddingDenseBackwardBackward0(Node):
    def backward(self, grad):
        return _lookup(grad, self.indices, self.padding_idx)

    def jvp(self, tangents, inputs, result):
        return embedding_dense_backward(tangents[0], self.indices, self.num_weights, self.padding_idx)


def embedding_dense_backward(grad, indices, num_weights, padding_idx):
    """Sums each looked-up row's gradient into a (num_weights, dim) tensor; the padding row stays 0."""
    flat_idx = indices.reshape(-1)
    rows = grad._data.reshape(-1, grad._data.shape[-1])
    keep = flat_idx != padding_idx
    out_data = np.zeros((num_weights, rows.shape[1]), dtype=grad._data.dtype)
    np.add.at(out_data, flat_idx[keep], rows[keep])
    out = _make(out_data)
    if grad_on(grad):
        node = EmbeddingDenseBackwardBackward0()
        node.indices, node.padding_idx, node.num_weights = indices, padding_idx, num_weights
        record(out, node, (grad,))
    return out


def _lookup(weight, indices, padding_idx, zero_padding=True):
    """The rows of ``weight`` at ``indices`` (padding rows read as 0 in the double backward)."""
    data = weight._data[indices]
    if padding_idx != -1 and zero_padding:
        data = np.where((indices == padding_idx)[..., None], 0, data).astype(weight._data.dtype, copy=False)
    out = _make(data)
    if grad_on(weight):
        node = EmbeddingBackward0()
        node.indices, node.num_weights, node.padding_idx = indices, weight._data.shape[0], padding_idx
        record(out, node, (weight,))
    return out


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Looks up rows of ``weight`` (shape ``(num_embeddings, dim)``) at the int64/int32 ``input`` indices.

    The result has shape ``input.shape + (dim,)`` and ``grad_fn=<EmbeddingBackward0>``; the row at
    ``padding_idx`` gets no gradient. ``max_norm`` renormalises the looked-up rows of ``weight`` in place.

    Example::

        >>> F.embedding(torch.tensor([2, 0]), torch.tensor([[0., 1.], [2., 3.], [4., 5.]]))
        tensor([[4., 5.],
                [0., 1.]])
    """
    if not isinstance(input, Tensor) or input._data.dtype not in (np.int64, np.int32):
        kind = f"torch.{input.dtype.legacy_name}" if isinstance(input, Tensor) else type(input).__name__
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {kind} instead (while checking arguments for embedding)")
    if scale_grad_by_freq:
        raise NotImplementedError("autograd_py's embedding does not implement scale_grad_by_freq=True")
    num = weight._data.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = padding_idx % num
    else:
        padding_idx = -1
    indices = input._data.astype(np.int64)
    if indices.size and (indices.min() < 0 or indices.max() >= num):
        raise IndexError("index out of range in self")
    if max_norm is not None:
        _renorm_rows(weight, np.unique(indices), max_norm, norm_type)
    out = _make(weight._data[indices])
    if grad_on(weight):
        node = EmbeddingBackward0()
        node.indices, node.num_weights, node.padding_idx = indices, num, padding_idx
        record(out, node, (weight,))
    return out


def _renorm_rows(weight, rows, max_norm, norm_type):
    """``embedding_renorm_``: rows whose norm exceeds ``max_norm`` are scaled down to it, in place, untracked."""
    data = weight._data[rows].astype(np.float64)
    norms = np.sum(np.abs(data) ** norm_type, axis=1) ** (1.0 / norm_type)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    with grad_mode.no_grad():
        weight._data[rows] = (data * scale[:, None]).astype(weight._data.dtype)
        bump_version(weight)
