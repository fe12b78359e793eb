"""``default_collate``: turns a list of samples into a batch (tensors stacked, numbers tensorised)."""
import collections.abc

import numpy as np

DEFAULT_COLLATE_ERROR = "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found {}"


def default_collate(batch):
    """Stacks a list of samples into a batch, keeping the samples' structure.

    Tensors are stacked along a new first dimension, floats become a float64 tensor and ints an
    int64 one, strings stay a list; tuples, lists and dicts are collated field by field (a tuple of
    fields comes back as a list, as in PyTorch).

    Args:
        batch (list): the samples.

    Example::

        >>> default_collate([(torch.tensor([1.]), 0), (torch.tensor([2.]), 1)])
        [tensor([[1.],
                [2.]]), tensor([0, 1])]
    """
    from ... import as_tensor, stack, tensor
    from ..._tensor import Tensor

    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray) and elem.dtype.kind not in "OSU":
        return stack([as_tensor(b) for b in batch], 0)
    if isinstance(elem, np.generic):
        return tensor(np.array(batch))
    if isinstance(elem, float):
        return tensor(batch, dtype=_float64())
    if isinstance(elem, int):  # bool included, as in PyTorch
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        fields = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            return type(elem)(fields)
        except TypeError:
            return fields
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        collated = [default_collate(samples) for samples in zip(*batch)]
        if isinstance(elem, tuple):
            return collated  # a list, as PyTorch returns for tuples
        try:
            return type(elem)(collated)
        except TypeError:
            return collated
    raise TypeError(DEFAULT_COLLATE_ERROR.format(type(elem)))


def _float64():
    from ... import float64
    return float64


def default_convert(data):
    """Converts one sample without batching: NumPy arrays become tensors, tuples become lists.

    It is the ``DataLoader``'s ``collate_fn`` when automatic batching is off (``batch_size=None``).
    """
    from ... import as_tensor, tensor
    from ..._tensor import Tensor

    if isinstance(data, Tensor) or isinstance(data, (str, bytes)):
        return data
    if isinstance(data, np.ndarray) and data.dtype.kind not in "OSU":
        return as_tensor(data)
    if isinstance(data, np.generic):
        return tensor(data)
    if isinstance(data, collections.abc.Mapping):
        fields = {key: default_convert(value) for key, value in data.items()}
        try:
            return type(data)(fields)
        except TypeError:
            return fields
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence):
        try:
            return type(data)([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data
