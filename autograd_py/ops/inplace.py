"""In-place ops: PyTorch's leaf checks, version bumps, and re-pointing ``grad_fn``.

An in-place op runs its out-of-place twin on a snapshot of the tensor's old value and history,
then writes the result into the tensor's storage. On a view, the base tensor gets a
``CopySlices`` node so that gradients of the base see the write, as in PyTorch.
"""
import sys
import warnings
import weakref

from .. import forward_mode, grad_mode
from ..node import Node, SavedTensor
from ..saved_tensor import FREED_MESSAGE, before_write
from .base import Tensor, _make, grad_on, in_place, np, record, written_in_place
from .ordered_write import aliased_reads, write_in_order
from .shape import view_indices
from .view_meta import check_write, mark_stale

LEAF_MESSAGE = "a leaf Variable that requires grad is being used in an in-place operation."
VIEW_OF_LEAF_MESSAGE = "a view of a leaf Variable that requires grad is being used in an in-place operation."


# A regenerated view whose grad_fn was None and has not been read since (``Tensor._kept_fn``):
# PyTorch's is_leaf() reads the raw field, so its in-place check still sees a leaf.
UNREAD_LEAF = object()


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
    t._version_counter[0] += 1


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


def _strided_view(base, shape, view_fn, np_view_fn):
    """The view of ``base`` that ``view_fn`` reads, recorded as PyTorch's ``as_strided``."""
    from .shape import _view_chain
    out = _view_chain(_make(np_view_fn(base._data)), base, view_fn, np_view_fn)
    if grad_on(base):
        node = AsStridedBackward0()
        node.shape, node.view_fn, node.np_view_fn = shape, view_fn, np_view_fn
        record(out, node, (base,))
    return out


def apply(t, fn, *others, overlap_ok=False, where=None, internal=True):
    """Runs ``fn(old_t)`` and stores the result into ``t`` in place (``overlap_ok``: a fill, which
    PyTorch runs without its memory overlap checks; ``internal=False``: only the inputs are checked).
    With ``where`` (a bool array of ``t``'s shape) only those elements are written, as a masked or
    indexed kernel does: on an expanded tensor, the elements it skips do not overwrite shared memory.
    Returns ``t``."""
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
    for saved in fn._vars.values():
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


class AsStridedBackward0(Node):
    """A view's history once its base was written in place: the view read back out of the base's
    new history (PyTorch regenerates such stale views the same way)."""

    supports_batched = False

    def backward(self, grad):
        return _embed_view(grad, self.shape, self.view_fn, self.np_view_fn)

    fw_view = True

    def jvp(self, tangents, inputs, result):
        # A regenerated view keeps a tangent it has (PyTorch's view reads its base's tangent only
        # when it has none of its own); else it reads the base's, as the same view.
        if result._fw_grads:
            return None
        return self.view_fn(tangents[0])


class AsStridedScatterBackward0(Node):
    supports_batched = False

    def backward(self, grad):
        return self.view_fn(grad)

    def jvp(self, tangents, inputs, result):
        return _embed_view(tangents[0], result._data.shape, self.view_fn, self.np_view_fn)


def _embed_view(grad, shape, view_fn, np_view_fn):
    """A zero tensor of the base's ``shape`` holding ``grad`` where the view reads from."""
    if not grad._data.size:  # as_strided_backward hands back plain zeros, written by a zero_()
        return written_in_place(_make(np.zeros(shape, dtype=grad._data.dtype)))
    indices = view_indices(shape, np_view_fn)
    index = indices.reshape(-1)
    # Expanded (stride-0) dims are summed out of the gradient first, as as_strided_backward does.
    expanded = tuple(d for d in range(indices.ndim) if indices.shape[d] > 1 and not np.diff(indices, axis=d).any())
    first = tuple(slice(0, 1) if d in expanded else slice(None) for d in range(indices.ndim))
    rest = indices[first].reshape(-1)
    if np.unique(rest).size == rest.size:
        # as_strided_backward without overlap: the gradient copied into its part of a zero storage
        # (CopySlices, version 1), handed back as a view of that storage (never added into in place)
        if expanded:
            from .reduction import sum as _sum
            grad = _sum(grad, expanded, keepdim=True)
            view_fn, np_view_fn = _first_of(view_fn, first), _first_of(np_view_fn, first)
        storage = _make(np.zeros(shape, dtype=grad._data.dtype))
        copy_(_strided_view(storage, shape, view_fn, np_view_fn), grad)
        return _strided_view(storage, shape, _same, _same)
    data = np.zeros(shape, dtype=grad._data.dtype)
    # Summed where view elements share a base element (an expanded view), as as_strided_backward.
    np.add.at(data.reshape(-1), index, grad._data.reshape(-1))
    out = _make(data)
    if grad_on(grad):
        node = AsStridedScatterBackward0()
        node.view_fn, node.np_view_fn = view_fn, np_view_fn
        record(out, node, (grad,))
    return out


def _same(x):
    return x


def _first_of(view_fn, first):
    return lambda x: view_fn(x)[first]


def _refresh_views(root, skip=None):
    """Points every live view of ``root`` at the root's current history, since the write may have
    changed what the views read (the written view itself included, as in PyTorch). detach() shares
    the version counter, so the views of the tensor it was detached from, and of its detach()
    aliases, see the write too."""
    seen, todo = set(), [root]
    while todo:
        root = todo.pop()
        if id(root) in seen:
            continue
        seen.add(id(root))
        _refresh(root, skip)
        src = root._detached_from
        if src is not None:
            todo.append(src._base if src._base is not None else src)
        for ref in root.__dict__.get("_aliases", ()):
            alias = ref()
            if alias is not None:
                todo.append(alias)


def _refresh(root, skip):
    views = root.__dict__.get("_views")
    if not views:
        return
    live = []
    for ref in views:
        v = ref()
        if v is None or v._base is not root:
            continue
        live.append(ref)
        if v is skip:
            continue
        if v._grad_fn is None and not root._requires_grad:
            # PyTorch regenerates a view lazily, once its base requires grad (requires_grad_ later)
            v._version_moved = True
            continue
        regenerate(v, root)
    views[:] = live


def regenerate(v, root):
    """Gives the view ``v`` PyTorch's regenerated history: AsStridedBackward0 reading it out of its
    root base's current history."""
    v.__dict__.pop("_version_moved", None)
    if v._creation_meta is not None:
        mark_stale(v)  # a no_grad/inference/multi-output view cannot be regenerated: reading it raises
        if root._requires_grad and not v._requires_grad:
            v._requires_grad = v._rg_from_base = True  # its requires_grad reads the base's, now on
        return
    node = AsStridedBackward0()
    node.shape, node.view_fn, node.np_view_fn = root._data.shape, v._view_fn, v._np_view_fn
    old_fn, old_nr = v._grad_fn, v._output_nr
    in_place[0] += 1
    try:
        record(v, node, (root,))
    finally:
        in_place[0] -= 1
    v._kept_fn = old_fn if old_fn is not None else UNREAD_LEAF
    if old_fn is not None and "_hooked" in v.__dict__ and "_hook_dict_fn" not in v.__dict__:
        v._hook_dict_fn = (old_fn, old_nr)  # the view's hook dict stays on its old grad_fn
    v._output_nr = 0
    if v._retains_grad:
        if old_fn is None:
            _move_retain_grad(v, old_fn, old_nr)
        else:
            v._retain_moves = old_nr  # PyTorch moves it when it regenerates grad_fn: on first read (settle)


def settle(t):
    """The first read of a regenerated view's ``grad_fn`` (its ``grad_fn`` property, or an op taking it):
    PyTorch regenerates it lazily then, and its retained grad moves to the new node only now."""
    old_fn, t._kept_fn = t._kept_fn, None
    if t._grad_fn is not None:
        # PyTorch makes the regenerated node now, so it runs before nodes made since the write.
        from ..node import _sequence
        t._grad_fn._seq = next(_sequence)
    nr = t.__dict__.pop("_retain_moves", None)
    if nr is not None and t._retains_grad:
        _move_retain_grad(t, old_fn, nr)


def _move_retain_grad(t, old_fn, old_nr):
    """PyTorch's update_tensor_hooks_on_new_gradfn: a retained grad follows the tensor to its new
    ``grad_fn`` (other hooks stay on the old one)."""
    refs = old_fn._retain_grad_refs if old_fn is not None else None
    ref = refs.pop(old_nr, None) if refs else None
    new = t._grad_fn
    if ref is not None and new is not None:
        if new._retain_grad_refs is None:
            new._retain_grad_refs = {}
        new._retain_grad_refs[t._output_nr] = ref


def _new_hook_dict(t):
    """An in-place op gives ``t`` a new grad_fn: PyTorch's next hook starts a new hook dict there."""
    t.__dict__.pop("_hooked", None)
    t.__dict__.pop("_hook_dict_fn", None)


def _rebase(t, res):
    fn = res._grad_fn
    old_fn, old_nr = t._grad_fn, t._output_nr
    t._grad_fn, t._output_nr, t._requires_grad = fn, res._output_nr, True
    _new_hook_dict(t)
    if t._retains_grad:
        _move_retain_grad(t, old_fn, old_nr)
    # A saved *output* of the op is now this tensor: track its version, not the temporary's.
    if fn is not None and fn._vars:
        for key, saved in fn._vars.items():
            if (isinstance(saved, SavedTensor) and saved.is_output and saved.hooks is None
                    and saved.counter is res._version_counter):
                fn._vars[key] = SavedTensor(t, is_output=True)


# PyTorch names the node of an in-place view op apart from its out-of-place twin's.
_INPLACE_VIEW_NAMES = {"UnsqueezeBackward0": "UnsqueezeBackward1", "TBackward0": "TBackward1",
                       "TransposeBackward0": "TransposeBackward1", "SqueezeBackward0": "SqueezeBackward3",
                       "SqueezeBackward1": "SqueezeBackward4", "SqueezeBackward2": "SqueezeBackward5"}
_inplace_view_classes = {}


def _inplace_view_node(node, dim):
    name = "SqueezeBackward5" if node.name().startswith("Squeeze") and isinstance(dim, (tuple, list)) else (
        _INPLACE_VIEW_NAMES.get(node.name()))
    if name is None:
        return node
    cls = _inplace_view_classes.get((type(node), name))
    if cls is None:
        cls = _inplace_view_classes[(type(node), name)] = type(name, (type(node),), {})
    node.__class__ = cls
    return node


def view_(t, op, *args):
    """An in-place view op (``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``): ``t`` takes the
    shape and strides ``op`` would give a view, keeps its storage, and bumps its version. Returns ``t``."""
    check(t)
    old_shape = t._data.shape
    in_place[0] += 1
    try:
        out = op(t, *args)
    finally:
        in_place[0] -= 1
    t._data = out._data
    if out._fw_grads:
        from .inplace_dual import reshape_tangents
        reshape_tangents(t, out, op, args)
    if old_shape and not out._data.ndim:
        t._size0_slot = old_shape[0]
    t._version_counter[0] += 1
    if "_view_fn" in t.__dict__:
        t._view_fn, t._np_view_fn = out._view_fn, out._np_view_fn
    recorded = out._grad_fn is not None and out._grad_fn is not t._grad_fn
    if recorded and t._data.dtype.kind not in "fc":
        from .base import _check_differentiable
        _check_differentiable(t._data)  # an in-place view op sets history as an out-of-place op: after the change
    if recorded:
        if t._grad_fn is not None and "_hooked" in t.__dict__ and "_hook_dict_fn" not in t.__dict__:
            t._hook_dict_fn = (t._grad_fn, t._output_nr)  # PyTorch's hook dict stays on the old grad_fn
        t._grad_fn, t._output_nr = _inplace_view_node(out._grad_fn, args[0] if args else None), 0
    elif t._grad_fn is not None and (t._fn_shape is None or t._fn_shape[0] is not t._grad_fn):
        t._fn_shape = (t._grad_fn, old_shape)  # its grad_fn still takes gradients of the old shape
    elif t._grad_fn is None and t._accumulator is not None and sys.getrefcount(t._accumulator) <= 2:
        # A leaf holds its AccumulateGrad weakly in PyTorch: held by no graph, the next one is
        # made for the new shape (this one carries the leaf's hooks, which PyTorch keeps on the leaf).
        t._accumulator.shape = t._data.shape
    if t._base is None and t.__dict__.get("_views"):
        _reshape_views(t, op, args, old_shape)
    # Unrecorded (no_grad), a view's old history no longer fits its shape: it is read anew from the
    # base (AsStridedBackward0), as PyTorch regenerates it.
    _refresh_views(t._base if t._base is not None else t, skip=t if recorded else None)
    return t


def _reshape_views(root, op, args, old_shape):
    """The root's shape changed in place: its views now read it through the inverse change first
    (PyTorch's as_strided views keep reading the same memory)."""
    if op.__name__ in ("squeeze", "unsqueeze"):
        undo, np_undo = (lambda x: x.reshape(old_shape)), (lambda a: a.reshape(old_shape))
    else:  # t and transpose undo themselves
        undo, np_undo = (lambda x: op(x, *args)), (lambda a: op(_make(a), *args)._data)
    for ref in root._views:
        v = ref()
        if v is not None and v is not root:
            fn, np_fn = v._view_fn, v._np_view_fn
            v._view_fn = lambda x, fn=fn: fn(undo(x))
            v._np_view_fn = lambda a, np_fn=np_fn: np_fn(np_undo(a))


def _zeros_like(grad):
    """derivatives.yaml's ``zeros_like(grad)`` for an overwritten tensor: no history, so a double
    backward through it finds nothing (None), and NaN or inf in ``grad`` do not leak (0 * inf)."""
    return _make(np.zeros_like(grad._data))


class CopyBackwards(Node):
    fw_keeps_dtype = True  # copy_'s tangent keeps the source's dtype, as PyTorch's (forward_mode._fitted)

    def name(self):
        return "torch::autograd::CopyBackwards"

    def backward(self, grad):
        g_self = _zeros_like(grad) if self._next_functions[0][0] is not None else None
        meta = self._input_meta
        if meta is not None and meta[1] is not None and meta[1][1] != grad._data.dtype and meta[1][1].kind == "f":
            # grad.to(src's dtype) comes first, as PyTorch's CopyBackwards; the engine then sums it
            # back to src's shape (SumBackward0 over ToCopyBackward0 under create_graph)
            from .pointwise import to_dtype
            return g_self, to_dtype(grad, meta[1][1])
        return g_self, grad  # the engine sums grad back to src's shape

    def jvp(self, tangents, inputs, result):
        # derivatives.yaml: self_t.copy_(src_t): the source's tangent, broadcast (zeros without one).
        # Cast only when it is copied into the tensor's own tangent, or broadcast (PyTorch lays a
        # broadcast tangent out anew, in the tensor's dtype): a new one keeps src_t's dtype.
        src_t = tangents[1]
        if src_t is None:
            return _zeros_like(result)
        if src_t._data.shape != result._data.shape and src_t._data.dtype != result._data.dtype:
            return src_t.to(result.dtype)
        return src_t


class FillBackward0(Node):
    def backward(self, grad):
        return _zeros_like(grad)

    def jvp(self, tangents, inputs, result):
        return _zeros_like(result)  # derivatives.yaml: self_t.fill_(0)


class FillBackward2(FillBackward0):  # fill_ with a number (FillBackward0 is out-of-place fill's)
    pass


class ZeroBackward0(FillBackward0):
    pass


def _filled(old, data, node_cls, others=()):
    from .base import grad_on, record
    out = _make(data)
    if grad_on(old, *others):
        in_place[0] += 1
        try:
            record(out, node_cls(), (old,) + tuple(others))
        finally:
            in_place[0] -= 1
    return out


def copy_(t, src):
    """Copies ``src`` (broadcast, cast) into ``t`` in place. Returns ``t``."""
    def copy(old):
        s = src._data if isinstance(src, Tensor) else np.asarray(src)
        data = np.array(np.broadcast_to(s, old._data.shape), dtype=old._data.dtype)
        return _filled(old, data, CopyBackwards, (src,) if isinstance(src, Tensor) else (None,))
    if t._data.dtype.kind not in "fc":
        # PyTorch's copy_ gives an integer or bool tensor no history, even from one that requires
        # grad (fill_ with a tensor value does record FillBackward3 there).
        with grad_mode.no_grad():
            return apply(t, copy, src, overlap_ok=_same_data(t, src))
    # PyTorch's copy_ returns early, before its overlap checks, when src is t's very memory.
    return apply(t, copy, src, overlap_ok=_same_data(t, src))


def _same_data(t, src):
    """True when ``src`` reads exactly the memory ``t`` would write (same start, sizes, strides, dtype)."""
    if not isinstance(src, Tensor):
        return False
    a, b = t._data, src._data
    return (a.dtype == b.dtype and a.shape == b.shape and a.strides == b.strides
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


class FillBackward3(Node):
    """``fill_`` with a 0-dim tensor value, which gets the sum of the gradient."""

    def backward(self, grad):
        g_self = _zeros_like(grad) if self._next_functions[0][0] is not None else None
        return g_self, (grad.sum() if self._next_functions[1][0] is not None else None)

    def jvp(self, tangents, inputs, result):
        # derivatives.yaml: self_t.fill_(value_t)
        value_t = tangents[1]
        if value_t is None:
            return _zeros_like(result)
        from .shape import expand
        return expand(value_t, result._data.shape)


def fill_(t, value):
    """Fills ``t`` with ``value`` in place. Returns ``t``."""
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._data.ndim} dimensions.")
        # PyTorch's fill_ with a tensor value is a copy_ (of a clone, if it aliases ``t``), whose
        # expanded written-to tensor is refused; filling with a number is not. The autograd check
        # (a leaf, or a view of one) comes first, as VariableType's check_inplace.
        check(t)
        check_overlap(t, ())
        return apply(t, lambda old: _filled(old, np.full(old._data.shape, value._data, old._data.dtype),
                                            FillBackward3, (value,)), value, overlap_ok=True)
    return apply(t, lambda old: _filled(old, np.full(old._data.shape, value, old._data.dtype), FillBackward2),
                 overlap_ok=True)


def zero_(t):
    """Fills ``t`` with zeros in place. Returns ``t``."""
    return apply(t, lambda old: _filled(old, np.zeros_like(old._data), ZeroBackward0), overlap_ok=True)


MASKED_FILL_EXPANDED_WARNING = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing this "
    "operation. This also applies to advanced indexing e.g. tensor[mask] = scalar (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:2450.)")


def masked_fill_(t, mask, value):
    """Fills ``t`` with ``value`` where ``mask`` is True, in place. Returns ``t``."""
    from .indexing import masked_fill
    if has_internal_overlap(t):
        warnings.warn(MASKED_FILL_EXPANDED_WARNING, UserWarning, stacklevel=2)
    where = None
    if isinstance(mask, Tensor) and t._data.size:
        where = np.broadcast_to(mask._data.astype(bool, copy=False), t._data.shape)
    return apply(t, lambda old: masked_fill(old, mask, value), mask, value, overlap_ok=True, where=where)


def has_internal_overlap(t):
    """PyTorch's has_internal_overlap: an expanded (stride-0) dim of size > 1."""
    d = t._data
    return bool(d.size) and any(s == 0 and n > 1 for s, n in zip(d.strides, d.shape))
