"""``BatchedTensor``: what a function under ``vmap`` sees, one example of a batch.

A BatchedTensor is a *logical* tensor (one example) backed by a *physical* tensor ``_value``
whose dim 0 is the batch of its vmap ``_level``. Shapes, ``dim()``, printing and errors are the
logical ones; ops run once on the physical value, through the batching rules (``rules``), so a
batch costs one NumPy call per op, not one per example.

Under nested vmaps the value may itself be a BatchedTensor of an outer level: an op unwraps the
innermost level, and the rule's own ops then dispatch again for the outer one.
"""
from .._tensor import Size, Tensor

# The active vmap levels, outermost first: ``(level, batch_size, randomness)``.
levels = []
# Every active transform, outermost first: "vmap", "grad" (reverse mode) or "jvp". Some checks
# are functorch's only when the innermost one is a vmap (``.data``).
transforms = []
# The vmap levels jacfwd batches its primals on (functorch batches only the tangents there, so an
# in-place op on a primal runs unbatched and does not take PyTorch's slow fallback).
primal_levels = set()

ITEM_MESSAGE = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling .item() "
                "on a Tensor, please try to rewrite what you're doing with other operations. If error is occurring "
                "somewhere inside PyTorch internals, please file a bug report.")
CONTROL_FLOW_MESSAGE = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
                        "We don't support that yet, please file an issue at https://github.com/pytorch/pytorch/issues .")
NO_STORAGE_MESSAGE = "Cannot access data pointer of Tensor that doesn't have storage"
DATA_MESSAGE = "accessing `data` under vmap transform is not allowed"
UNBATCHED_WRITE_MESSAGE = (
    "vmap: {op}(self, *extra_args) is not possible because there exists a Tensor `other` in extra_args that has "
    "more elements than `self`. This happened due to `other` being vmapped over but `self` not being vmapped over "
    "{where}. Please try to use out-of-place operators instead of {op}. If said operator is being called inside "
    "the PyTorch framework, please file a bug report instead.")


def VmapRefusal(message):
    """PyTorch's RuntimeError for something vmap cannot batch where the example's own computation
    would run: reading a batched value (``.item()``, ``if x:``, ``.data``) or writing a batch into
    an unbatched tensor. It is marked: jacfwd, which batches its primals where functorch batches
    only the tangents, then retries one direction at a time (``is_refusal``)."""
    error = RuntimeError(message)
    error.vmap_refusal = True
    return error


def is_refusal(error):
    return getattr(error, "vmap_refusal", False)


def unbatched_write(op, depth=None):
    """The refusal for writing a batch into a tensor not batched at this level."""
    return VmapRefusal(UNBATCHED_WRITE_MESSAGE.format(op=op, where="in a vmap" if depth is None else f"at level {depth}"))


class BatchedTensor(Tensor):
    """One logical example of a physical batch (see the module docstring). Made by ``vmap``."""

    _depth = None  # the level PyTorch prints: how many vmaps deep (``_level`` is unique per call)

    def __init__(self, value, level):
        self._value = value
        self._level = level

    # The logical tensor has no storage of its own; an op without a batching rule that reads the
    # physical data directly would compute the wrong thing, so it fails here instead.
    @property
    def _data(self):
        raise VmapRefusal(NO_STORAGE_MESSAGE)

    @_data.setter
    def _data(self, value):
        raise VmapRefusal(NO_STORAGE_MESSAGE)

    # ---------------------------------------------------------------- logical metadata
    @property
    def shape(self):
        return Size(self._value.shape[1:])

    def size(self, dim=None):
        shape = self.shape
        if dim is None:
            return shape
        from ..ops.shape import _wrap_dim
        return shape[_wrap_dim(dim, len(shape))]

    def dim(self):
        return self._value.dim() - 1

    ndimension = dim

    @property
    def ndim(self):
        return self.dim()

    def numel(self):
        return self.shape.numel()

    nelement = numel

    def __len__(self):
        if not self.dim():
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    @property
    def dtype(self):
        return self._value.dtype

    @property
    def device(self):
        return self._value.device

    def is_floating_point(self):
        return self._value.is_floating_point()

    def element_size(self):
        return self._value.element_size()

    @property
    def requires_grad(self):
        return self._value.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        self._value._set_requires_grad(flag)

    def requires_grad_(self, requires_grad=True):
        from .. import grad_mode
        if grad_mode.transform_depth[0]:
            raise RuntimeError(grad_mode.TRANSFORM_REQUIRES_GRAD)
        return self._set_requires_grad(requires_grad)

    def _set_requires_grad(self, requires_grad):
        self._value._set_requires_grad(requires_grad)
        return self

    @property
    def grad_fn(self):
        return self._value.grad_fn

    @property
    def is_leaf(self):
        return self._value.is_leaf

    @property
    def _requires_grad(self):
        return self._value._requires_grad

    @property
    def _grad_fn(self):
        return self._value._grad_fn

    @property
    def _version_counter(self):
        return self._value._version_counter

    @property
    def _base(self):
        return None

    @property
    def T(self):
        return self.permute(*range(self.dim() - 1, -1, -1))

    @property
    def mT(self):
        if self.dim() < 2:  # an example's own mT: the identity with a warning at 0-D, else an error
            from ..ops.shape import mT
            from .._tensor import _make
            import numpy as np
            mT(_make(np.zeros((0,) * self.dim())))
            return self
        return self.transpose(-2, -1)

    # ---------------------------------------------------------------- what vmap cannot batch
    def item(self):
        raise VmapRefusal(ITEM_MESSAGE)

    def tolist(self):
        raise VmapRefusal(ITEM_MESSAGE)

    def numpy(self, *, force=False):
        raise VmapRefusal(NO_STORAGE_MESSAGE)

    @property
    def data(self):
        if transforms and transforms[-1] == "vmap":
            raise VmapRefusal(DATA_MESSAGE)
        # under a grad or jvp transform inside the vmap, functorch unwraps that transform's level
        return BatchedTensor(self._value.data, self._level)

    @data.setter
    def data(self, value):
        raise VmapRefusal(DATA_MESSAGE)

    def __bool__(self):
        raise VmapRefusal(CONTROL_FLOW_MESSAGE)

    def __float__(self):
        raise VmapRefusal(ITEM_MESSAGE)

    def __int__(self):
        raise VmapRefusal(ITEM_MESSAGE)

    def __index__(self):
        raise VmapRefusal(ITEM_MESSAGE)

    def __iter__(self):
        if not self.dim():
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __repr__(self):
        text = repr(self._value).replace("\n", "\n    ")
        depth = self._depth or next((i + 1 for i, (lv, _, _) in enumerate(levels) if lv == self._level), 1)
        return f"BatchedTensor(lvl={depth}, bdim=0, value=\n    {text}\n)"

    __str__ = __repr__

    def __format__(self, spec):
        return repr(self)

    def __array__(self, dtype=None, copy=None):
        raise VmapRefusal(NO_STORAGE_MESSAGE)


def batch_size(level):
    for lv, size, _ in levels:
        if lv == level:
            return size
    raise RuntimeError("vmap: internal error, level not active")


def is_batched_at(x, level):
    return isinstance(x, BatchedTensor) and x._level == level


def physical(x, level):
    """The physical value of ``x`` at ``level`` (batch first), or ``x`` itself when it is not batched there."""
    return x._value if isinstance(x, BatchedTensor) and x._level == level else x


def wrap(out, level):
    """Wraps every tensor in an op's output (a tensor, or tuples/lists/named tuples of them)."""
    if isinstance(out, Tensor):
        return BatchedTensor(out, level)
    if isinstance(out, tuple):
        return rebuilt(out, [wrap(o, level) for o in out])
    if isinstance(out, list):
        return [wrap(o, level) for o in out]
    return out


def rebuilt(out, items):
    """A tuple like ``out`` (plain, named, or a ``torch.return_types`` one) holding ``items``."""
    return tuple(items) if type(out) is tuple else type(out)(*items)


def innermost_level(args, kwargs):
    """The highest vmap level among the batched tensors in ``args``/``kwargs`` (lists included), or None."""
    best = None
    for group in (args, kwargs.values()):
        for a in group:
            if isinstance(a, BatchedTensor):
                if best is None or a._level > best:
                    best = a._level
            elif isinstance(a, (list, tuple)):
                for b in a:
                    if isinstance(b, BatchedTensor) and (best is None or b._level > best):
                        best = b._level
    return best
