"""The least a graph-recording autograd does, as a torch-like module for W4's workload code.

W4's floor (``floors.w4``) runs micrograd's loops on NumPy scalars and applies the chain rule by
hand, so it records nothing. Any autograd that differentiates code it is not shown in advance
must at least make one object per value, remember its inputs and local derivatives, order the
graph, and walk it back. This module does only that, in micrograd's design: a ``Value`` per
scalar, each op storing its parents with the partial derivatives, an iterative topological sort,
and a sweep in reverse. No version counters, dtypes, hooks, views or error checks: none of what
PyTorch's semantics need. Its time over the floor is thus a lower bound on what recording W4's
graph costs in a given Python, which ``floor_timing`` reports beside autograd_py's.

It offers just what ``fw_torchlike.w4`` calls (``tensor``, ``float64``, ``+ - * / **``, ``tanh``,
``backward``, ``.grad``, ``item``, and ``detach().numpy()`` for the
check), so W4 runs the very same workload source on it. Values keep
the NumPy scalars they are given, so the arithmetic matches the floor's.

Example::

    >>> import scalar_graph as sg
    >>> w = sg.tensor(0.5, requires_grad=True)
    >>> y = (w * w + 1.0).tanh()
    >>> y.backward()
    >>> round(w.grad.item(), 6)
    0.280415
"""
import numpy as np

float64 = np.float64


class Value:
    """One scalar of the graph: its data, and how it was made (parents with local derivatives)."""

    __slots__ = ("data", "grad", "_parents", "_partials")

    def __init__(self, data, parents=(), partials=()):
        self.data = data
        self.grad = None
        self._parents = parents
        self._partials = partials

    def __add__(self, other):
        if other.__class__ is Value:
            return Value(self.data + other.data, (self, other), (1.0, 1.0))
        return Value(self.data + other, (self,), (1.0,))

    __radd__ = __add__

    def __sub__(self, other):
        if other.__class__ is Value:
            return Value(self.data - other.data, (self, other), (1.0, -1.0))
        return Value(self.data - other, (self,), (1.0,))

    def __mul__(self, other):
        if other.__class__ is Value:
            return Value(self.data * other.data, (self, other), (other.data, self.data))
        return Value(self.data * other, (self,), (other,))

    __rmul__ = __mul__

    def __truediv__(self, other):
        return Value(self.data / other, (self,), (1.0 / other,))

    def __pow__(self, k):
        return Value(self.data ** k, (self,), (k * self.data ** (k - 1),))

    def tanh(self):
        t = np.tanh(self.data)
        return Value(t, (self,), (1.0 - t * t,))

    def item(self):
        return float(self.data)

    def detach(self):
        return Value(self.data)

    def numpy(self):
        return np.asarray(self.data)

    def backward(self):
        """Sets ``.grad`` (a Value) of every leaf this value depends on, as ``Tensor.backward``."""
        order, seen, stack = [], {id(self)}, [(self, False)]
        while stack:  # depth first, without recursion: a node goes in after all its parents
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
                continue
            stack.append((node, True))
            for parent in node._parents:
                if id(parent) not in seen:
                    seen.add(id(parent))
                    stack.append((parent, False))
        grads = {id(self): 1.0}
        for node in reversed(order):
            g = grads.pop(id(node))
            if not node._parents:
                node.grad = Value(g if node.grad is None else node.grad.data + g)
                continue
            for parent, partial in zip(node._parents, node._partials):
                key = id(parent)
                grads[key] = grads.get(key, 0.0) + g * partial


def tensor(data, dtype=None, requires_grad=False):
    """A leaf holding ``data`` (``dtype`` and ``requires_grad`` are accepted and ignored)."""
    return Value(data)
