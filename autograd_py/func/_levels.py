"""Transform levels on the existing engines: what functorch's wrapper tensors do, without wrappers.

functorch wraps every tensor a transform sees in a per-level wrapper, so a transform nested in
another (``grad(grad(f))``, ``jacfwd(jacrev(f))``) differentiates only through its own level. Here
the one reverse-mode graph and the forward-mode tangents per level do the bookkeeping:

- a :class:`GradLevel` gives each input it differentiates a private leaf (or, when the input
  already requires grad for an outer computation, an alias still linked to it), and on the way out
  cuts from its results the history that leads only to those private leaves: what is left is
  the outer computations' history, which must stay differentiable;
- a :class:`JvpLevel` is a ``forward_mode`` level of its own (levels nest), entered and left
  around one call of the function.
"""
from .. import forward_mode, grad_mode
from .._tensor import Tensor
from ..autograd.forward_ad import _laid_out_like
from ..node import AccumulateGrad
from ..ops.base import RgWithoutEdge
from ..ops.shape import view
from ..batching import autograd_bridge
from ..batching.autograd_bridge import chain
from ..batching.batched import BatchedTensor, transforms


def alias(t):
    """A view of ``t`` (linked to its history) with ``t``'s tangents at every active level."""
    if isinstance(t, BatchedTensor):
        return BatchedTensor(alias(t._value), t._level)
    with forward_mode.hidden():  # the caller copies the tangents itself
        out = view(t, tuple(t.shape))
    copy_tangents(t, out)
    return out


def copy_tangents(src, dst, fix=None):
    if isinstance(src, BatchedTensor) or isinstance(dst, BatchedTensor):
        src, dst = chain(src)[0], chain(dst)[0]
    for level in forward_mode.levels:
        t = forward_mode.tangent(src, level)
        if t is not None:
            forward_mode.set_tangent(dst, t if fix is None else fix(t), level)


# The active grad and jvp levels, innermost last: a leaf made inside a transformed function
# (``torch.ones(3, requires_grad=True)``) belongs to the innermost one, as functorch creates it
# at that level, and the transform's results are cut from it on the way out.
owners = []


def own_new_leaf(t):
    """Called when ``t`` starts requiring grad inside a transformed function."""
    if owners and "_func_level" not in t.__dict__:
        t._func_level = owners[-1]


class GradLevel:
    """One reverse-mode transform call: its private leaves and the cut of its results."""

    def __init__(self):
        self.leaves = {}  # id -> leaf; the leaf is kept alive so its id stays its own
        self.inputs = {}  # id(what func received) -> (it, the caller's tensor)
        self.active = False  # while func runs; a finished level's leaves are history nobody wants

    def __enter__(self):
        self.active = True
        transforms.append("grad")
        owners.append(self)
        return self

    def __exit__(self, *exc):
        self.active = False
        transforms.pop()
        owners.pop()

    def differentiable(self, x):
        """The tensor ``func`` receives in place of the input ``x`` it is differentiated for."""
        if not isinstance(x, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        given = x
        x = autograd_bridge.lift(x)  # under vmap: one copy per example, for per-example gradients
        if x.requires_grad:
            out = alias(x)
            # a leaf of this level, as functorch wraps it: in-place ops say so (on the physical value too)
            out._transform_input = autograd_bridge.chain(out)[0]._transform_input = True
            if x is given:
                self.inputs[id(out)] = (out, x)
            return out
        leaf = x.detach()
        leaf._set_requires_grad(True)  # the transform's own leaf, allowed inside an outer transform
        leaf._func_level = self
        copy_tangents(x, leaf)
        self.leaves[id(leaf)] = leaf
        physical = autograd_bridge.chain(leaf)[0]
        self.leaves[id(physical)] = physical  # the engine's AccumulateGrad holds the physical leaf
        physical._func_level = self
        if x is given:
            self.inputs[id(leaf)] = (leaf, x)
        return leaf

    def reaches_outside(self, tensors):
        """True when some history of ``tensors`` leads to a leaf this level did not make: an
        outer computation (an enclosing transform, or plain autograd) differentiates through it."""
        stack, seen = [], set()
        for t in tensors:
            if not isinstance(t, Tensor) or not t.requires_grad:
                continue
            t = chain(t)[0]  # under vmap, the physical tensor the graph was recorded on
            if t.grad_fn is None and t._base is not None:
                t = t._base  # a view made under no_grad requires grad through its base: the base's history counts
            fn = t.grad_fn
            if fn is None:
                if self._outside(t):
                    return True
            else:
                stack.append(fn)
        while stack:
            node = stack.pop()
            if isinstance(node, AccumulateGrad):
                if self._outside(node.variable):
                    return True
                continue
            for edge in node.next_functions:
                nxt = edge[0]
                if isinstance(edge, RgWithoutEdge):  # a no_grad view: where its base comes from
                    base = edge.base
                    nxt = base.grad_fn
                    if nxt is None and self._outside(base):
                        return True
                if nxt is not None and id(nxt) not in seen:
                    seen.add(id(nxt))
                    stack.append(nxt)
        return False

    def _outside(self, leaf):
        """A leaf someone may still differentiate for: the user's, or a live enclosing level's."""
        if leaf is None:
            return True
        owner = leaf.__dict__.get("_func_level")
        return owner is None or (owner is not self and owner.active)

    def unwrap(self, t, reaches_outside=None):
        """``t`` as seen outside this level: without the history that leads only here.
        ``reaches_outside``: ``self.reaches_outside([t])`` when the caller knows it already."""
        if not isinstance(t, Tensor):
            return t
        received = self.inputs.get(id(t))
        if received is not None and received[0] is t:
            return received[1]  # func returned its input: the caller gets its own tensor back, as functorch unwraps it
        if reaches_outside is None:
            reaches_outside = t.requires_grad and self.reaches_outside([t])
        if not t.requires_grad or reaches_outside:
            return t
        out = t.detach()
        copy_tangents(t, out, self.unwrap)
        return out

    def unwrap_aux(self, aux):
        from ._pytree import tree_map

        def unwrap_tensor(x):
            if isinstance(x, Tensor):
                return self.unwrap(x)
            raise RuntimeError(f"Expected tensors, got unsupported type {type(x)}")
        return tree_map(unwrap_tensor, aux)


def needs_graph(level, outputs, extra=()):
    """Whether the backward pass must be recorded: its result is differentiable for someone
    outside ``level`` (an outer history or a cotangent that requires grad), or carries tangents."""
    if not grad_mode.is_grad_enabled():
        return False
    return bool(forward_mode.levels) or level.reaches_outside(list(outputs) + list(extra))


class JvpLevel:
    """A forward-mode level of its own for one call of the function (nests in other levels)."""

    active = False
    reaches_outside = GradLevel.reaches_outside  # the leaves it owns are the ones made inside
    _outside = GradLevel._outside

    def __enter__(self):
        self.level = forward_mode.enter_level()
        self.active = True
        transforms.append("jvp")
        owners.append(self)
        return self

    def __exit__(self, *exc):
        forward_mode.exit_level(self.level)
        self.active = False
        transforms.pop()
        owners.pop()

    def cut(self, t):
        """``t`` without the history that leads only to leaves made inside the function."""
        if isinstance(t, Tensor) and t.requires_grad and not self.reaches_outside([t]):
            return t.detach()
        return t

    def dual(self, primal, tangent):
        """An alias of ``primal`` carrying ``tangent`` at this level, as ``make_dual`` makes."""
        if autograd_bridge.any_batched((primal, tangent)):
            # Under vmap the tangent rides on the physical value, where the ops run.
            primal, tangent = autograd_bridge.lift(primal), autograd_bridge.lift(tangent)
            (p, found), (t, _) = autograd_bridge.chain(primal), autograd_bridge.chain(tangent)
            return autograd_bridge.wrapped(self.dual(p, t), found)
        forward_mode.check_dual(primal, tangent)
        out = alias(primal)
        forward_mode.set_tangent(out, _laid_out_like(tangent, primal), self.level)
        return out

    def tangent(self, t):
        if autograd_bridge.any_batched((t,)):
            p, found = autograd_bridge.chain(t)
            tangent = forward_mode.tangent(p, self.level)
            return None if tangent is None else autograd_bridge.wrapped(tangent, found)
        return forward_mode.tangent(t, self.level)
