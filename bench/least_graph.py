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

    >>> import least_graph as sg
    >>> w = sg.tensor(0.5, requires_grad=True)
    >>> y = (w * w + 1.0).tanh()
    >>> y.backward()
    >>> round(w.grad.item(), 6)
    0.280415
"""
import numpy as np

float64 = np.float64
_tape = []  # the values ops made, in the order made: parents always before their children


class Value:
    """One value of the graph: its data, and how it was made (parents with local derivatives)."""

    __slots__ = ("data", "grad", "_parents", "_partials", "_g")

    def __init__(self, data, parents=(), partials=()):
        self.data = data
        self.grad = None
        self._g = None  # the gradient gathered so far during backward
        self._parents = parents
        self._partials = partials
        if parents:
            _tape.append(self)

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

    def sum(self):
        return Value(self.data.sum(), (self,), (np.ones_like(self.data),))

    def item(self):
        return float(self.data)

    def detach(self):
        return Value(self.data)

    def numpy(self):
        return np.asarray(self.data)

    def backward(self):
        """Sets ``.grad`` (a Value) of every leaf this value depends on, as ``Tensor.backward``."""
        self._g = 1.0
        leaves = []
        for node in reversed(_tape):
            g = node._g
            if g is None:
                continue  # made, but not on a path to this value
            node._g = None
            for parent, partial in zip(node._parents, node._partials):
                before = parent._g
                if before is None:
                    parent._g = g * partial
                    if not parent._parents:
                        leaves.append(parent)
                else:
                    parent._g = before + g * partial
        _tape.clear()
        for leaf in leaves:
            leaf.grad = Value(leaf._g if leaf.grad is None else leaf.grad.data + leaf._g)
            leaf._g = None


def sin(x):
    return Value(np.sin(x.data), (x,), (np.cos(x.data),))


def tanh(x):
    return x.tanh()


def exp(x):
    e = np.exp(x.data)
    return Value(e, (x,), (e,))


def tensor(data, dtype=None, requires_grad=False):
    """A leaf holding ``data`` (``dtype`` and ``requires_grad`` are accepted and ignored)."""
    return Value(data)
