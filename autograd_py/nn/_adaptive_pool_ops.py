"""``F.adaptive_avg_pool2d``: windows from floor(o*H/oh) to ceil((o+1)*H/oh), PyTorch's nodes.

Each output sums its own window and each window gets its output's gradient, as ATen's CPU kernels:
a product with averaging matrices would multiply a nan or inf by the zeros outside the window and
spread it to every element. The backward's own backward pools again.
"""
from ..node import Node
from ..ops.base import _make, grad_on, np, record
from ._pool_ops import zeros_for_self


def _windows(size, out):
    """(start, end) of the input positions output ``o`` averages: floor(o*size/out) .. ceil((o+1)*size/out)."""
    return [((o * size) // out, -((-(o + 1) * size) // out)) for o in range(out)]


def _adaptive(x, out_hw):
    out = np.empty(x.shape[:-2] + tuple(out_hw), x.dtype)
    for oh, (h0, h1) in enumerate(_windows(x.shape[-2], out_hw[0])):
        for ow, (w0, w1) in enumerate(_windows(x.shape[-1], out_hw[1])):
            out[..., oh, ow] = x[..., h0:h1, w0:w1].sum((-2, -1)) / x.dtype.type(h1 - h0) / x.dtype.type(w1 - w0)
    return out


class AdaptiveAvgPool2DBackward0(Node):
    saves = ("self",)
    supports_batched = False

    def backward(self, grad):
        return adaptive_avg_pool2d_backward(grad, self.saved("self"))

    def jvp(self, tangents, inputs, result):
        return _adaptive_avg_pool2d(tangents[0], result._data.shape[-2:])


class AdaptiveAvgPool2DBackwardBackward0(Node):
    supports_batched = False

    def backward(self, grad):
        return _adaptive_avg_pool2d(grad, self.out_hw), zeros_for_self(self.input_shape, grad._data.dtype)

    def jvp(self, tangents, inputs, result):
        return adaptive_avg_pool2d_backward(tangents[0], inputs[1]) if tangents[0] is not None else None


def adaptive_avg_pool2d_backward(grad, input):
    x, g = input._data, grad._data
    gin = np.zeros(g.shape[:-2] + x.shape[-2:], g.dtype)
    for oh, (h0, h1) in enumerate(_windows(x.shape[-2], g.shape[-2])):
        for ow, (w0, w1) in enumerate(_windows(x.shape[-1], g.shape[-1])):
            delta = g[..., oh, ow] / g.dtype.type(h1 - h0) / g.dtype.type(w1 - w0)
            gin[..., h0:h1, w0:w1] += delta[..., None, None]
    out = _make(gin)
    if grad_on(grad, input):
        node = AdaptiveAvgPool2DBackwardBackward0()
        node.out_hw, node.input_shape = g.shape[-2:], x.shape
        record(out, node, (grad, input))
    return out


def _adaptive_avg_pool2d(input, out_hw):
    x = input._data
    if x.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(x.shape)}")
    if x.dtype.kind != "f":
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for '{input.dtype.legacy_name[:-6]}'")
    out = _make(np.ascontiguousarray(_adaptive(x, out_hw)))
    if grad_on(input):
        node = AdaptiveAvgPool2DBackward0()
        node.save(self=input)
        record(out, node, (input,))
    return out


def adaptive_avg_pool2d(input, output_size):
    """Averages ``(N, C, H, W)`` or ``(C, H, W)`` down to ``output_size`` with windows PyTorch's way
    (``grad_fn=<AdaptiveAvgPool2DBackward0>``; an output of 1x1 is a ``mean``, as in PyTorch).

    Args:
        input (Tensor): the input.
        output_size (int or tuple): ``(H_out, W_out)``; ``None`` keeps that input size.

    Example::

        >>> F.adaptive_avg_pool2d(torch.arange(16.).view(1, 4, 4), 2)
        tensor([[[ 2.5000,  4.5000],
                 [10.5000, 12.5000]]])
    """
    if isinstance(output_size, int):
        size = [output_size, output_size]
    else:
        if len(input.shape) <= len(output_size):
            raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
        defaults = tuple(input.shape)[-len(output_size):]
        size = [d if v is None else v for v, d in zip(output_size, defaults)]
    if len(size) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if size[0] < 0 or size[1] < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{size[0]}, {size[1]}}}")
    if size == [1, 1]:
        return input.mean((-1, -2), keepdim=True)
    return _adaptive_avg_pool2d(input, tuple(size))
