"""In-place ops: PyTorch's leaf checks, version bumps, and re-pointing ``grad_fn``.

An in-place op runs its out-of-place twin on a snapshot of the tensor's old value and history,
then writes the result into the tensor's storage. On a view, the base tensor gets a
``CopySlices`` node so that gradients of the base see the write, as in PyTorch.

The views a write leaves stale, and the in-place view ops, are ``inplace_views``'s; ``copy_``,
``fill_``, ``zero_`` and ``masked_fill_`` are ``inplace_fill``'s (both re-exported at the end).
"""
import weakref

from .. import forward_mode, grad_mode
from ..node import Node, SavedTensor
from ..node_saved import saved_map
from ..saved_tensor import FREED_MESSAGE, before_write, bump_version
from .base import Tensor, _make, in_place, np, record
from .inplace_fast import unwatched
from .inplace_views import (UNREAD_LEAF, _move_retain_grad, _new_hook_dict, _refresh_views, _strided_view,
                            settle)
from .ordered_write import aliased_reads, write_in_order
from .view_meta import check_write

LEAF_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_MESSAGE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
_grad_state = grad_mode._state


def check(t):
    """Raises PyTorch's errors for an in-place op on a leaf (or a view of one) that requires grad."""
    if "_zerotensor" in t.__dict__:
        from ..node import ZEROTENSOR_IMMUTABLE
        raise RuntimeError(ZEROTENSOR_IMMUTABLE)
    if not grad_mode._state[0]:
        return
    base = t._base
    if t._creation_meta is not None and t.requires_grad:
        check_write(t)  # no_grad/inference/multi-output views first, as PyTorch's check_inplace
    if base is not None and t._requires_grad and base._grad_fn is None:
        # the view's own flag counts too: requires_grad_() on a view of a leaf that does not.
        # A reverse-mode transform's input (its alias of the caller's tensor) is a leaf there.
        raise RuntimeError(LEAF_MESSAGE if "_transform_input" in t.__dict__ else VIEW_OF_LEAF_MESSAGE)
    if t._requires_grad and (t._grad_fn is None and base is None or t._kept_fn is UNREAD_LEAF):
        raise RuntimeError(LEAF_MESSAGE)


def _snapshot(t):
    """The tensor's value and history before the write (a copy, since the storage is overwritten)."""
    old = _make(t._data.copy())
    old._grad_fn, old._output_nr, old._requires_grad = t._grad_fn, t._output_nr, t._requires_grad
    if t._grad_fn is None and t._requires_grad:
        old._accumulator = t._get_accumulator()
    return old


def _write(t, data, where=None, reads=None, compute=None):
    """Stores ``data`` into ``t``'s memory (only at ``where``; element by element, recomputing with
    ``compute``, when the op's inputs read addresses ``reads`` it writes) and bumps the version."""
    if before_write[0] is not None:
        before_write[0](t)
    if data.dtype != t._data.dtype:
        if data.dtype.kind == "f" and t._data.dtype.kind in "biu":
            raise RuntimeError(f"result type {_type_name(data.dtype)} can't be cast to the desired output "
                               f"type {_type_name(t._data.dtype)}")
    if t._data.shape != data.shape:
        try:
            data = np.broadcast_to(data, t._data.shape)
        except ValueError:
            raise RuntimeError(f"output with shape {list(t._data.shape)} doesn't match the broadcast shape "
                               f"{list(data.shape)}") from None
    if not t._data.flags.writeable:
        # An expanded view is read-only in NumPy; PyTorch writes through it (fill_, or sizes of 1).
        try:
            t._data.flags.writeable = True
        except ValueError:
            raise RuntimeError(INTERNAL_OVERLAP_MESSAGE) from None
    if reads is not None:
        write_in_order(t._data, compute, reads)
    elif where is None:
        t._data[...] = data
    else:
        np.copyto(t._data, data, where=where)
    bump_version(t)


INTERNAL_OVERLAP_MESSAGE = ("unsupported operation: more than one element of the written-to tensor refers to a "
                            "single memory location. Please clone() the tensor before performing the operation.")
PARTIAL_OVERLAP_MESSAGE = ("unsupported operation: some elements of the input tensor and the written-to tensor "
                           "refer to a single memory location. Please clone() the tensor before performing the "
                           "operation.")


def _dense(d):
    """PyTorch's is_non_overlapping_and_dense: the elements fill a block of memory exactly."""
    expected = d.itemsize
    for stride, size in sorted((s, n) for s, n in zip(d.strides, d.shape) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def check_overlap(t, others, internal=True):
    """PyTorch's assert_no_internal_overlap (an expanded written-to tensor) and
    assert_no_partial_overlap (an input that shares some but not all of its memory with it)."""
    d = t._data
    if not d.size:
        return  # an empty tensor shares no memory (NumPy may give it stride-0 dims)
    if internal and any(s == 0 and n > 1 for s, n in zip(d.strides, d.shape)):
        raise RuntimeError(INTERNAL_OVERLAP_MESSAGE)
    if not _dense(d):
        return
    begin = d.__array_interface__["data"][0]
    end = begin + d.nbytes
    for o in others:
        if not isinstance(o, Tensor) or o is t or not o._data.size or not _dense(o._data):
            continue
        b = o._data.__array_interface__["data"][0]
        if b == begin and b + o._data.nbytes == end:
            # PyTorch compares the strides; a size-1 dim's stride is arbitrary (NumPy's expand gives 0).
            if o._data.shape != d.shape or any(
                    so != sd for so, sd, n in zip(o._data.strides, d.strides, d.shape) if n > 1):
                raise RuntimeError(PARTIAL_OVERLAP_MESSAGE)
        elif b < end and begin < b + o._data.nbytes:
            raise RuntimeError(PARTIAL_OVERLAP_MESSAGE)


def _type_name(np_dtype):
    from ..dtypes import from_numpy_dtype
    return from_numpy_dtype(np_dtype).legacy_name[:-6]


class CopySlices(Node):
    """The base's new ``grad_fn`` after an in-place op on one of its views. As in PyTorch, it wraps
    the op's node ``fn``: its inputs are the base's old history and then ``fn``'s other inputs, and
    its backward runs ``fn`` on the view's part of the gradient."""

    supports_batched = False  # its view function indexes from the front
    holds_fn = True

    def name(self):
        return "torch::autograd::CopySlices"

    def backward(self, grad):
        # PyTorch's CopySlices::apply: the gradient copied into a fresh tensor, ``fn`` run on a clone
        # of the view's part, and its gradient for the old view copied back into that part.
        from ..engine import _validate
        from .pointwise import clone
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)  # PyTorch drops ``fn`` once backward is done with it
        fn = self.fn
        result = copy_(_make(np.empty_like(grad._data)), grad)
        grad_slice = _strided_view(result, self.shape, self.view_fn, self.np_view_fn)
        res = fn._apply([clone(grad_slice)])
        if fn._input_meta is not None:
            res = _validate(fn, res)
        if self._next_functions[0][0] is None:
            return (None, *res[1:])
        if res[0] is not None:
            copy_(grad_slice, res[0])
        return (result, *res[1:])


def apply(t, fn, *others, overlap_ok=False, where=None, internal=True):
    """Runs ``fn(old_t)`` and stores the result into ``t`` in place (``overlap_ok``: a fill, which
    PyTorch runs without its memory overlap checks; ``internal=False``: only the inputs are checked).
    With ``where`` (a bool array of ``t``'s shape) only those elements are written, as a masked or
    indexed kernel does: on an expanded tensor, the elements it skips do not overwrite shared memory.
    Returns ``t``."""
    if where is None and unwatched(t, others):
        # (inplace_fast) the unrecorded write below, with nothing to check; grad mode set by hand:
        # no_grad()'s object costs as much as the rest of a 0-dim write
        prev, _grad_state[0] = _grad_state[0], False
        try:
            _write(t, fn(t)._data)
        finally:
            _grad_state[0] = prev
        _refresh_views(t)
        return t
    check(t)
    if not overlap_ok:
        check_overlap(t, others, internal)
    reads = None if overlap_ok else aliased_reads(t, others)
    compute = None if reads is None else (lambda: _values(t, fn))
    recording = grad_mode._state[0] and (t._requires_grad or any(
        isinstance(o, Tensor) and o._requires_grad for o in others))
    dual = forward_mode.levels and forward_mode.has_dual((t,) + others)
    pending = ()
    if dual and _reads_itself(t, others):
        # PyTorch's in-place formulas read such an operand after the write: they wait till then
        fn, pending = _deferring(fn)
    if not recording:
        if dual:
            from .inplace_dual import with_tangents
            with grad_mode.no_grad():
                res = fn(with_tangents(_make(t._data.copy()), t))
                _write(t, res._data, where, reads, compute)
        else:
            with grad_mode.no_grad():
                _write(t, fn(t)._data, where, reads, compute)
        _refresh_views(t._base if t._base is not None else t)  # views see the new version, as PyTorch's
        if dual:
            _flush(pending)
            from .inplace_dual import take_tangents
            take_tangents(t, res, keep_dtype=fn.__name__ == "copy")
        return t
    base = t._base
    base_old = _snapshot(base) if base is not None and "_view_fn" in t.__dict__ else None
    in_place[0] += 1
    try:
        old = _snapshot(t)
        if dual:
            from .inplace_dual import with_tangents
            with_tangents(old, t)
        res = fn(old)
    finally:
        in_place[0] -= 1
    if res._data.dtype != t._data.dtype:
        _pin_input_meta(res)
    _write(t, res._data, where, reads, compute)
    _rebase(t, res)
    rebase_history(t, base_old)
    if base is not None and res._grad_fn is not None and res._grad_fn._vars:
        _remember_view_fn(res._grad_fn, t)
    if dual:
        _flush(pending)
        from .inplace_dual import take_tangents
        take_tangents(t, res, keep_dtype=fn.__name__ == "copy")
    return t


def _reads_itself(t, others):
    return any(isinstance(o, Tensor) and np.may_share_memory(o._data, t._data) for o in others)


def _deferring(fn):
    """``fn`` with its tangent formulas held back (``forward_mode.deferred``), and the list they go to."""
    pending = []

    def run(old):
        forward_mode.deferred[0] = pending
        try:
            return fn(old)
        finally:
            forward_mode.deferred[0] = None
    run.__name__ = fn.__name__
    return run, pending


def _flush(pending):
    for out, node, inputs in pending:
        forward_mode.propagate(out, node, inputs)


def _remember_view_fn(fn, t):
    """PyTorch's SavedVariable for an in-place op's output on a view holds the view's regenerated
    node weakly; its version error names that node while it lives, else the op's own node."""
    view_fn = t.grad_fn
    if view_fn is None:
        return
    for saved in saved_map(fn).values():
        if saved.__class__ is SavedTensor and saved.is_output and saved.counter is t._version_counter:
            saved.view_fn_ref = weakref.ref(view_fn)


def _values(t, fn):
    """The op's result from ``t``'s and its inputs' current memory (no history recorded)."""
    with grad_mode.no_grad():
        return fn(_make(t._data.copy()))._data


def _pin_input_meta(res):
    """The op ran in a wider dtype than the tensor it writes into, whose gradients arrive in the
    narrower one: each input then gets its gradient cast to its own dtype (PyTorch's validate_outputs),
    including the inputs that matched the wide result and so had no check recorded."""
    node = res._grad_fn
    if node is None:
        return
    like = (res._data.shape, res._data.dtype)
    meta = node._input_meta or [None] * len(node._next_functions)
    node._input_meta = [like if m is None and e[0] is not None else m
                        for m, e in zip(meta, node._next_functions)]


def rebase_history(t, base_old):
    """Finishes a write into ``t`` once ``t`` has its new ``grad_fn``: a view's base (whose history
    before the write is ``base_old``) gets ``CopySlices``, and every live view is re-pointed."""
    base = t._base
    if base_old is not None:
        node = CopySlices()
        node.shape, node.view_fn, node.np_view_fn = base._data.shape, t._view_fn, t._np_view_fn
        fn = node.fn = t._grad_fn
        node._vars = fn._vars if fn._vars is not None else {}  # freed after backward, like fn
        in_place[0] += 1
        try:
            record(base, node, (base_old,))
        finally:
            in_place[0] -= 1
        _new_hook_dict(base)
        if base._retains_grad:
            _move_retain_grad(base, base_old._grad_fn, base_old._output_nr)
        node._next_functions += fn._next_functions[1:]
        if node._input_meta is not None:
            node._input_meta = node._input_meta + [None] * (len(node._next_functions) - 1)
    _refresh_views(base if base is not None else t)
    if base is not None and t._kept_fn is not None:
        settle(t)  # PyTorch's rebase_history reads the written view's grad_fn at once


def _rebase(t, res):
    fn = res._grad_fn
    old_fn, old_nr = t._grad_fn, t._output_nr
    t._grad_fn, t._output_nr, t._requires_grad = fn, res._output_nr, True
    _new_hook_dict(t)
    if t._retains_grad:
        _move_retain_grad(t, old_fn, old_nr)
    # A saved *output* of the op is now this tensor: track its version, not the temporary's.
    if fn is not None and fn._vars:
        for key, saved in saved_map(fn).items():
            if (isinstance(saved, SavedTensor) and saved.is_output and saved.hooks is None
                    and saved.counter is res._version_counter):
                fn._vars[key] = SavedTensor(t, is_output=True)


# The rest of the in-place API, which other modules reach through this one.
from .inplace_fill import (MASKED_FILL_EXPANDED_WARNING, FillBackward0, FillBackward2, FillBackward3,  # noqa: E402,F401
                           ZeroBackward0, _filled, copy_, fill_, has_internal_overlap, masked_fill_, zero_)
from .inplace_views import regenerate, view_  # noqa: E402,F401
