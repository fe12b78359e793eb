"""Ops that join, split or copy whole tensors: cat, stack, split, chunk, unbind, repeat, flip."""
from .. import grad_mode
from ..node import Node
from ..signatures import numpy_names
from .._tensor import _wrap_dim, _wrap_dims
from .base import _make, batch_ndim, batched, grad_on, np, record, record_outputs, written_in_place
from .shape import _sizes, _view_chain, reshape, view_jvp
from .view_meta import MULTI_OUTPUT, propagate


def _multi_views(input, keys):
    """Views of ``input`` at basic-index ``keys``, as unbind/split return them: real views (writes
    show in the base), marked so that in-place ops on them raise PyTorch's multiple-views error."""
    from .indexing import getitem
    outs = []
    for key in keys:
        key = key + (Ellipsis,)  # a 0-d view, not a scalar copy
        out = _view_chain(_make(input._data[key]), input, lambda t, key=key: getitem(t, key),
                          lambda a, key=key: a[key])
        if grad_mode._state[0]:
            out._creation_meta = propagate(out._creation_meta, MULTI_OUTPUT)
        outs.append(out)
    return outs


class RepeatBackward0(Node):
    keeps = ("repeats", "self_sym_sizes")

    def backward(self, grad):
        # FunctionsManual's repeat_backward: sum away the added leading dims, then one reshape that
        # splits each repeated dim into (repeat, size) and one sum over the repeats.
        from .reduction import sum
        reps, shape = self.repeats, tuple(self.shape)
        if 0 in reps:
            return _make(np.zeros(batched(grad, shape), grad._data.dtype))
        nb, extra = batch_ndim[0], len(reps) - len(shape)
        for _ in range(extra):
            grad = sum(grad, nb)
        sizes, dims = list(grad._data.shape[:nb]), []
        for r, s in zip(reps[extra:], shape):
            if r != 1:
                sizes.append(r)
                dims.append(len(sizes) - 1)
            sizes.append(s)
        return sum(reshape(grad, sizes), tuple(dims)) if dims else grad

    def jvp(self, tangents, inputs, result):
        return repeat(tangents[0], self.repeats)


def repeat(input, *repeats):
    repeats = _sizes(repeats)
    if len(repeats) < input._data.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                           "dimensions of tensor")
    data = input._data.reshape((1,) * (len(repeats) - input._data.ndim) + input._data.shape)
    out = _make(np.tile(data, repeats))
    if grad_on(input):
        node = RepeatBackward0()
        node.repeats, node.shape = repeats, input._data.shape
        record(out, node, (input,))
    return out


class CatBackward0(Node):
    keeps = ("dim",)

    def backward(self, grad):
        from .indexing import narrow
        grads, start = [], 0
        for size in self.sizes:
            if size is None:  # a skipped empty 1-D input gets an empty gradient, at::zeros (a zero_())
                grads.append(written_in_place(_make(np.zeros(batched(grad, (0,)), grad._data.dtype))))
                continue
            grads.append(narrow(grad, self.axis, start, size))
            start += size
        return tuple(grads)

    def jvp(self, tangents, inputs, result):
        return cat(_filled(tangents, inputs, result), self.dim)


def _filled(tangents, inputs, result):
    """The tangents of a joining op's inputs, zeros (of the result's dtype) for those without one."""
    return [t if t is not None else _make(np.zeros(x._data.shape, result._data.dtype))
            for t, x in zip(tangents, inputs)]


def _skipped(t):
    # PyTorch's legacy rule: an empty 1-D tensor joins anything (it is left out, dims unchecked).
    return t._data.ndim == 1 and t._data.size == 0


@numpy_names
def cat(tensors, dim=0):
    tensors = list(tensors)
    try:
        return _cat(tensors, dim)
    except (RuntimeError, IndexError):
        from .base import _stale_first
        _stale_first(*tensors)  # PyTorch reads the inputs' grad_fn before the kernel's checks
        raise


def _cat(tensors, dim):
    for i, t in enumerate(tensors):
        if not t._data.ndim:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    kept = [t for t in tensors if not _skipped(t)]
    d = _wrap_dim(dim, kept[0]._data.ndim) if kept else dim
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    from .base import result_np_dtype
    dt = result_np_dtype(*tensors)
    if kept:
        ref = kept[0]._data.shape
        for i, x in enumerate(tensors):
            s = x._data.shape
            if _skipped(x):
                continue
            if len(s) != len(ref):
                raise RuntimeError(f"Tensors must have same number of dimensions: got {len(ref)} and {len(s)}")
            for k in range(len(s)):
                if k != d and s[k] != ref[k]:
                    raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                       f"{ref[k]} but got size {s[k]} for tensor number {i} in the list.")
        # PyTorch's cat writes into a contiguous output (NumPy follows the inputs' layout)
        out = _make(np.asarray(np.concatenate([t._data.astype(dt, copy=False) for t in kept], axis=d), order="C"))
    else:
        out = _make(np.zeros((0,), dt))
    if grad_on(*tensors):
        node = CatBackward0()
        node.dim, node.axis = dim, d - len(ref) if kept else -1
        node.sizes = [None if _skipped(t) else t._data.shape[d] for t in tensors]
        record(out, node, tensors)
    return out


concat = concatenate = cat


class StackBackward0(Node):
    keeps = ("dim",)

    def backward(self, grad):
        from .indexing import select
        return tuple(select(grad, self.axis, i) for i in range(grad._data.shape[self.axis]))

    def jvp(self, tangents, inputs, result):
        return stack(_filled(tangents, inputs, result), self.dim)


@numpy_names
def stack(tensors, dim=0):
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shape, dt = tensors[0]._data.shape, tensors[0]._data.dtype
    for i, x in enumerate(tensors):
        if x._data.shape != shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got "
                               f"{list(shape)} at entry 0 and {list(x._data.shape)} at entry {i}")
        if x._data.dtype is not dt:
            dt = None
    d = _wrap_dim(dim, len(shape) + 1)
    if dt is not None and d == 0:
        # one dtype, stacked in front: np.array copies the arrays in as np.stack does, at half its cost
        data = np.array([x._data for x in tensors])
    else:
        from .base import result_np_dtype
        dt = result_np_dtype(*tensors)
        data = np.stack([x._data.astype(dt, copy=False) for x in tensors], axis=d)
    out = _make(np.asarray(data, order="C"))
    if grad_on(*tensors):
        node = StackBackward0()
        node.dim, node.axis = dim, d - tensors[0]._data.ndim - 1
        record(out, node, tensors)
    return out


class UnbindBackward0(Node):
    keeps = ("dim",)
    fw_view = True

    def jvp(self, tangents, inputs, result):
        return unbind(tangents[0], self.dim)  # auto_linear: one node for every piece's tangent

    def backward(self, *grads):
        shape = batched(next(g for g in grads if g is not None), self.piece)
        grads = [g if g is not None else _make(np.zeros(shape, self.dtype)) for g in grads]
        return stack(grads, self.axis)


@numpy_names
def unbind(input, dim=0):
    d = _wrap_dim(dim, input._data.ndim)
    outs = _multi_views(input, [(slice(None),) * d + (i,) for i in range(input._data.shape[d])])
    if grad_on(input):
        node = UnbindBackward0()
        node.dim, node.axis, node.dtype = dim, d - input._data.ndim, input._data.dtype
        node.piece = input._data.shape[:d] + input._data.shape[d + 1:]
        record_outputs(outs, node, (input,))
    return tuple(outs)


class _SplitBackward(Node):
    fw_view = True

    def jvp(self, tangents, inputs, result):
        return split(tangents[0], self.split_size, self.dim)  # auto_linear: one node for every piece

    def backward(self, *grads):
        filled = []
        some = next(g for g in grads if g is not None)
        for g, shape in zip(grads, self.shapes):
            filled.append(g if g is not None else _make(np.zeros(batched(some, shape), self.dtype)))
        return cat(filled, self.axis)


class SplitBackward0(_SplitBackward):
    keeps = ("dim", "self_sym_sizes", "split_size")


class SplitWithSizesBackward0(_SplitBackward):
    keeps = ("dim", "self_sym_sizes", "split_sizes")


def split(input, split_size_or_sections, dim=0):
    if not input._data.ndim:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, input._data.ndim)
    n = input._data.shape[d]
    if isinstance(split_size_or_sections, int):
        size = split_size_or_sections
        if size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
        if size == 0 and n:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
        sizes = [min(size, n - i) for i in range(0, n, size)] if n else [0]
    else:
        sizes = list(split_size_or_sections)
        if sum(sizes) != n:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's "
                               f"size at dimension {d}), but got split_sizes={sizes}")
    keys, start = [], 0
    for s in sizes:
        keys.append((slice(None),) * d + (slice(start, start + s),))
        start += s
    outs = _multi_views(input, keys)
    if grad_on(input):
        node = SplitBackward0() if isinstance(split_size_or_sections, int) else SplitWithSizesBackward0()
        node.dim, node.axis, node.dtype = dim, d - input._data.ndim, input._data.dtype
        node.shapes, node.shape = [o._data.shape for o in outs], input._data.shape
        node.split_size = node.split_sizes = split_size_or_sections
        record_outputs(outs, node, (input,))
    return tuple(outs)


@numpy_names
def chunk(input, chunks, dim=0):
    if not input._data.ndim:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = input._data.shape[_wrap_dim(dim, input._data.ndim)]
    if not n:  # PyTorch keeps the number of chunks: that many empty pieces
        return split(input, [0] * chunks, dim)
    return split(input, -(-n // chunks), dim)


class FlipBackward0(Node):
    keeps = ("dims",)

    def backward(self, grad):
        return flip(grad, self.axes)

    def jvp(self, tangents, inputs, result):
        return flip(tangents[0], self.axes)


def flip_method(input, *dims, **kwargs):
    """``Tensor.flip``: the dims as varargs (``x.flip(0, 1)``) or as one sequence (``x.flip([0, 1])``)."""
    if "dims" in kwargs:
        given = kwargs.pop("dims")
        if isinstance(given, int):
            raise TypeError("flip(): argument 'dims' must be tuple of ints, not int")
        return flip(input, given)
    if not dims:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    return flip(input, dims[0] if len(dims) == 1 and not isinstance(dims[0], int) else dims)


def flip(input, dims):
    given = dims
    dims = _wrap_dims(dims, input._data.ndim)
    data = input._data
    if data.flags.c_contiguous:
        out = _make(np.flip(data, dims).copy())
    else:  # laid out as the input (PyTorch's flip writes into empty_like(self))
        from .sorting import _laid_out_as
        out = _make(_laid_out_as(data, np.flip(data, dims)))
    if grad_on(input):
        node = FlipBackward0()
        node.dims = (given,) if isinstance(given, int) else tuple(given)
        node.axes = tuple(d - input._data.ndim for d in dims)
        record(out, node, (input,))
    return out
