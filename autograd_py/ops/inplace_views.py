"""Views and in-place writes: the views a write leaves stale, read anew from their base's new
history (``AsStridedBackward0``, as PyTorch regenerates them), and the in-place view ops
(``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``), which change a tensor's shape and strides.
"""
import sys

from ..node import Node
from .base import _make, grad_on, in_place, np, record, written_in_place
from .shape import view_indices
from .view_meta import mark_stale
from ..saved_tensor import bump_version


# A regenerated view whose grad_fn was None and has not been read since (``Tensor._kept_fn``):
# PyTorch's is_leaf() reads the raw field, so its in-place check still sees a leaf.
UNREAD_LEAF = object()


def _strided_view(base, shape, view_fn, np_view_fn):
    """The view of ``base`` that ``view_fn`` reads, recorded as PyTorch's ``as_strided``."""
    from .shape import _view_chain
    out = _view_chain(_make(np_view_fn(base._data)), base, view_fn, np_view_fn)
    if grad_on(base):
        node = AsStridedBackward0()
        node.shape, node.view_fn, node.np_view_fn = shape, view_fn, np_view_fn
        record(out, node, (base,))
    return out


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
        from .inplace_fill import copy_
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
    attrs = root.__dict__
    if "_views" not in attrs and "_aliases" not in attrs and root._detached_from is None:
        return  # nothing else sees this memory: a training loop's ``p -= lr * p.grad``
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
    from .inplace import check
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
    bump_version(t)
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
