"""PyTorch's ``_fw_primal``: a forward-mode formula reads each input's primal through an alias
whose ``grad_fn`` is ``torch::autograd::Identity`` when that input requires grad, so a tangent made
under forward-over-reverse shows that node between its formula's ops and the input's history."""
from ..node import Node
from .base import Tensor, _make, record


class Identity(Node):
    fw_view = True

    def name(self):
        return "torch::autograd::Identity"

    def backward(self, grad):
        return grad

    def jvp(self, tangents, inputs, result):
        return tangents[0]


def primals(inputs):
    """``inputs`` with each plain tensor that requires grad replaced by its Identity alias."""
    from ..batching.batched import BatchedTensor
    out = None
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._requires_grad and not isinstance(x, BatchedTensor):
            if out is None:
                out = list(inputs)
            alias = _make(x._data)
            record(alias, Identity(), (x,))
            out[i] = alias
    return inputs if out is None else tuple(out)
