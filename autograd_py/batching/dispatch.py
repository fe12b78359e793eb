"""Routes ops to their batching rules while a vmap runs, and costs nothing when none does.

Entering the outermost vmap swaps the public entry points (``Tensor`` methods and operators,
``torch.X``, ``torch.nn.functional.X``) for thin wrappers; leaving it puts the originals back.
A wrapper sends a call with a batched argument to its rule, and any other call straight to the
original, so the ops' own internals (which call each other directly) never see a BatchedTensor.
Random ops also check vmap's ``randomness`` flag.
"""
import operator

from .. import grad_mode
from . import rules as R
from . import rules_index as RI
from . import rules_matmul as RM
from . import rules_diag as RD
from . import rules_nn as RN
from .._tensor import Tensor
from .batched import BatchedTensor, innermost_level, levels, wrap

_ELEMENTWISE = (
    "add sub subtract mul multiply div divide true_divide pow square neg negative abs absolute exp log log1p "
    "sqrt sin cos tan tanh sigmoid relu reciprocal sign sgn floor ceil round trunc clamp clip clamp_min clamp_max "
    "maximum minimum clone eq ne lt le gt ge logical_not logical_and logical_or isnan isinf isfinite floor_divide "
    "remainder fmod fmax fmin atan2 arctan2 frac rsub where lerp addcmul addcdiv masked_fill detach contiguous float "
    "double half long int bool "
    "to type_as zeros_like ones_like full_like empty_like "
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __pow__ __rpow__ __neg__ "
    "__abs__ __floordiv__ __rfloordiv__ __mod__ __rmod__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __and__ "
    "__rand__ __or__ __ror__ __xor__ __rxor__ __invert__ "
    # elementwise math (ops/math_fns, ops/math_more) and the activations in the torch namespace;
    # tril/triu act on the last two dims, which a leading batch dim leaves where they are
    "erf erfc expm1 exp2 log2 log10 sinh cosh asin acos atan asinh acosh atanh arcsin arccos arctan arcsinh "
    "arccosh arctanh rsqrt logit xlogy sinc deg2rad rad2deg nan_to_num logaddexp logaddexp2 hypot selu celu "
    "threshold hardshrink tril triu greater greater_equal less less_equal not_equal fix positive absolute").split()
_INPLACE = ("add_ sub_ mul_ div_ pow_ clamp_ neg_ abs_ exp_ log_ sqrt_ sin_ cos_ tanh_ sigmoid_ relu_ reciprocal_ "
            "floor_ ceil_ round_ sign_ masked_fill_ zero_ fill_ copy_ clamp_min_ clamp_max_ addcmul_ addcdiv_ lerp_ "
            "__iadd__ __isub__ __imul__ __itruediv__ __ipow__").split()

RULES = {name: R.elementwise for name in _ELEMENTWISE}
RULES.update({name: R.inplace for name in _INPLACE})
RULES.update({name: R.inplace_unruled(name) for name in ("clamp_", "clip_", "lerp_", "pow_", "addcmul_", "addcdiv_",
                                                         "square_")})
RULES["__ipow__"] = R.inplace_unruled("pow_")
RULES.update({
    **{n: R.dim_op() for n in ("sum", "mean", "prod", "amax", "amin", "argmax", "argmin", "var", "std", "all",
                               "any", "count_nonzero", "logsumexp", "cumsum", "cumprod", "softmax", "log_softmax")},
    "unbind": R.dim_op(default=0), "norm": R.dim_op(pos=2), "sort": R.dim_op(default=-1),
    "argsort": R.dim_op(default=-1), "topk": R.dim_op(pos=2, default=-1), "split": R.dim_op(pos=2, default=0),
    "chunk": R.dim_op(pos=2, default=0), "repeat": RI.repeat, "msort": RI.msort, "index_add": RI.index_add,
    "unsqueeze": R.dim_op(offset=1), "select": RI.select_narrow, "narrow": RI.select_narrow,
    "max": R.max_min, "min": R.max_min, "transpose": R.two_dims, "swapaxes": R.two_dims, "swapdims": R.two_dims,
    "permute": R.permute, "ravel": lambda lv, c, a, k: R.flatten(lv, original("flatten"), a, k),
    "flip": R.flip, "squeeze": R.squeeze, "flatten": R.flatten, "t": R.t,
    "view": R.view_like, "reshape": R.view_like, "expand": R.expand, "broadcast_to": R.expand,
    "view_as": R.as_other("view"), "reshape_as": R.as_other("reshape"), "expand_as": R.as_other("expand"),
    "cat": RI.cat_stack(0), "concat": RI.cat_stack(0), "concatenate": RI.cat_stack(0), "stack": RI.cat_stack(1),
    "matmul": RM.matmul, "__matmul__": RM.matmul, "__rmatmul__": lambda lv, c, a, k: RM.matmul(lv, c, (a[1], a[0]), k),
    "mm": RM.as_matmul, "mv": RM.as_matmul, "bmm": RM.as_matmul, "dot": RM.as_matmul, "outer": RM.outer,
    "addmm": RM.addmm, "addmv": RM.addmm, "__getitem__": RI.getitem, "__setitem__": RI.setitem, "gather": RI.gather,
    "index_select": RI.index_select, "type_as": R.type_as, "diagonal": RD.diagonal, "diag_embed": RD.diag_embed, "diag": RD.diag,
    "trace": RD.trace, "masked_select": RI.masked_select, "meshgrid": R.fallback, "prelu": R.fallback,
    **{n: R.inplace_view for n in ("unsqueeze_", "squeeze_", "t_", "transpose_")},
})
NN_RULES = {
    "linear": RM.linear, "relu": R.elementwise, "leaky_relu": R.elementwise, "elu": R.elementwise,
    "gelu": R.elementwise, "silu": R.elementwise, "softplus": R.elementwise, "sigmoid": R.elementwise,
    "tanh": R.elementwise, "softmax": RN.softmax_like, "log_softmax": RN.softmax_like,
    **{n: R.elementwise for n in ("relu6", "hardtanh", "logsigmoid", "selu", "celu", "mish", "softsign", "hardswish",
                                  "hardsigmoid", "tanhshrink", "softshrink", "hardshrink", "threshold")},
    "softmin": RN.softmin, "glu": R.dim_op(default=-1),
    # no batching rule yet: once per example, with PyTorch's performance warning
    **{n: R.fallback for n in ("prelu", "batch_norm", "layer_norm", "group_norm", "rms_norm", "instance_norm")},
    "mse_loss": RN.mse_loss, "l1_loss": RN.l1_loss, "cross_entropy": RN.nll_like(True), "nll_loss": RN.nll_like(False),
    "binary_cross_entropy_with_logits": RN.binary_cross_entropy_with_logits,
    "conv1d": RN.conv(1), "conv2d": RN.conv(2), "max_pool1d": RN.fold_batch(1),
    "max_pool2d": RN.fold_batch(2), "max_pool2d_with_indices": RN.fold_batch(2), "avg_pool1d": RN.fold_batch(1),
    "avg_pool2d": RN.fold_batch(2), "adaptive_avg_pool1d": RN.fold_batch(1), "adaptive_avg_pool2d": RN.fold_batch(2),
}
# Ops whose every call draws random numbers: vmap's ``randomness`` decides what they do.
RANDOM = ("rand randn randint randperm normal bernoulli multinomial rand_like randn_like randint_like "
          "uniform_ normal_ bernoulli_ random_ exponential_ cauchy_ log_normal_ geometric_ dropout").split()

_wrappers = {}  # name -> the wrapper installed on the torch namespace or Tensor (for rules' own calls)
_by_original = {}  # id(original) -> its wrapper: ``vmap(torch.dot)`` got the original before the swap


def original(name):
    """The entry point ``name`` (torch namespace, else Tensor method), for a rule that calls it on
    plain tensors to get PyTorch's own shape checks."""
    import autograd_py
    return getattr(autograd_py, name, None) or getattr(Tensor, name)


def dispatched(name):
    """The entry point as user code sees it under vmap (batched arguments go to their rule)."""
    import autograd_py
    return _wrappers.get(name) or getattr(autograd_py, name)


# Above 0 while an op's own implementation runs: the random draws it makes inside (dropout's
# bernoulli_) are its business, not a draw of the user's code that vmap's ``randomness`` governs.
_inside = [0]


def _make_wrapper(name, fn, rule, swapped=True):
    def wrapper(*args, **kwargs):
        if swapped and not levels:  # called after the last vmap left: see ``install``
            uninstall()
            return fn(*args, **kwargs)
        level = innermost_level(args, kwargs)
        if level is None:
            _inside[0] += 1
            try:
                return fn(*args, **kwargs)
            finally:
                _inside[0] -= 1
        return rule(level, wrapper, args, kwargs)
    _named(wrapper, name, fn)
    return wrapper


def _named(wrapper, name, fn):
    """Gives a wrapper its entry point's name, and the original's doc and qualified name (it may stay
    in the namespace a while after a vmap, see ``install``)."""
    wrapper.__name__ = name
    wrapper.__wrapped__ = fn
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    wrapper.__qualname__ = getattr(fn, "__qualname__", name)
    wrapper.__module__ = getattr(fn, "__module__", None)


def _random_wrapper(name, fn):
    def wrapper(*args, **kwargs):
        if not levels:
            uninstall()
            return fn(*args, **kwargs)
        if _inside[0] or name == "dropout" and not _dropout_draws(args, kwargs):
            return fn(*args, **kwargs)
        _inside[0] += 1
        try:
            return _draw(name, fn, args, kwargs)
        finally:
            _inside[0] -= 1
    _named(wrapper, name, fn)
    return wrapper


def _draw(name, fn, args, kwargs):
    """A random op called by the user's code under vmap, as its ``randomness`` flag says."""
    mode = levels[-1][2]
    if mode == "error":
        raise RuntimeError("vmap: called random operation while in randomness error mode. Please either use the "
                           "'same' or 'different' randomness flags on vmap or perform the randomness operation "
                           "out of vmap")
    level = innermost_level(args, kwargs)
    if mode == "same":
        if level is None:
            return fn(*args, **kwargs)
        return _same_like(name, fn, args, kwargs)
    return _different(name, fn, args, kwargs, level)


def _dropout_draws(args, kwargs):
    p = args[1] if len(args) > 1 else kwargs.get("p", 0.5)
    training = args[2] if len(args) > 2 else kwargs.get("training", True)
    return training and p > 0


def _same_like(name, fn, args, kwargs):
    """One draw for the whole batch, at the example's logical shape; later ops broadcast it."""
    x = args[0]
    template = x._value[0]
    if name == "dropout":
        import autograd_py
        mask = fn(autograd_py.ones_like(template), *args[1:], **kwargs)
        return x * mask
    if name.endswith("_"):
        x.copy_(fn(template.clone(), *args[1:], **kwargs))
        return x
    return fn(template, *args[1:], **kwargs)


def _sizes(args, kwargs):
    if "size" in kwargs:
        return tuple(kwargs.pop("size"))
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(a for a in args if isinstance(a, int))


def _different(name, fn, args, kwargs, level):
    """A separate draw per example, drawn over the physical (batched) shape in one call."""
    lv, size, _ = levels[-1]
    kwargs = dict(kwargs)
    x = args[0] if args else None
    if isinstance(x, BatchedTensor) and x._level == lv:
        if name.endswith("_"):
            fn(x._value, *args[1:], **kwargs)
            return x
        return BatchedTensor(fn(x._value, *args[1:], **kwargs), lv)
    if name in ("rand", "randn"):
        shape = _sizes(args, kwargs)
        return BatchedTensor(fn(size, *shape, **kwargs), lv)
    if name == "randint" and len(args) >= 2 and isinstance(args[-1], (tuple, list)):
        return BatchedTensor(fn(*args[:-1], (size, *args[-1]), **kwargs), lv)
    if hasattr(x, "unsqueeze") and (name.endswith("_like") or name.endswith("_") or name == "dropout"):
        expanded = x.unsqueeze(0).expand(size, *x.shape).contiguous()
        out = fn(expanded, *args[1:], **kwargs)
        return BatchedTensor(expanded if name.endswith("_") else out, lv)
    import autograd_py
    return BatchedTensor(autograd_py.stack([fn(*args, **kwargs) for _ in range(size)]), lv)


def _targets():
    """``(owner, name, rule, random)`` for every entry point swapped during vmap."""
    import autograd_py
    from ..nn import functional as F
    from ..random import factories
    out = []
    for name, rule in RULES.items():
        for owner in (Tensor, autograd_py):
            # torch.long, torch.float, ... are dtypes, not the methods of the same name
            if name in owner.__dict__ if owner is Tensor else callable(getattr(owner, name, None)):
                out.append((owner, name, rule, False))
    for name, rule in NN_RULES.items():
        if hasattr(F, name):
            out.append((F, name, rule, False))
    for name in RANDOM:
        for owner in (Tensor, autograd_py, F, factories):
            if (name in owner.__dict__) if owner is Tensor else hasattr(owner, name):
                out.append((owner, name, R.fallback, True))
    return out


# Tensor methods that can take another tensor: on a plain tensor they may meet a batched argument
# (``W.mm(x)``, ``W[idx]``), so they are swapped on Tensor during a vmap. The others only ever run
# on a batched ``self`` and live on BatchedTensor for good: swapping a class's attributes is slow.
_TENSOR_ARG_METHODS = frozenset((
    "add sub mul div true_divide divide multiply subtract pow maximum minimum where masked_fill lerp addcmul addcdiv "
    "gather index_select index_add expand_as view_as reshape_as type_as matmul mm mv bmm dot outer eq ne lt le gt "
    "ge logical_and logical_or floor_divide remainder fmod fmax fmin atan2 arctan2 addmv clamp clip rsub copy_ add_ "
    "sub_ mul_ div_ pow_ "
    "masked_fill_ addcmul_ addcdiv_ lerp_ clamp_ masked_select __getitem__ __setitem__ clamp_min clamp_max "
    "clamp_min_ clamp_max_ fill_ __iadd__ __isub__ __imul__ __itruediv__ __ipow__").split()) | frozenset(RANDOM)

_table = []  # [owner, name, original, wrapper, rule, random]: swapped in and out, made once
_installed = [False]


def _entry(owner, name, rule, random, swapped=True):
    fn = _current(owner, name)
    wrapper = _random_wrapper(name, fn) if random else _make_wrapper(name, fn, rule, swapped)
    return [owner, name, fn, wrapper, rule, random]


def _current(owner, name):
    return owner.__dict__[name] if owner is Tensor else getattr(owner, name)


def _build():
    from .batched import BatchedTensor
    for owner, name, rule, random in _targets():
        swapped = owner is not Tensor or name in _TENSOR_ARG_METHODS
        entry = _entry(owner, name, rule, random, swapped)
        if not swapped:
            if name not in BatchedTensor.__dict__:  # its own logical metadata methods stay
                setattr(BatchedTensor, name, entry[3])
            _by_original.setdefault(id(entry[2]), entry[3])
        else:
            _table.append(entry)


def install():
    """Swaps in the wrappers at the outermost vmap's entry. They are made once and kept; an entry
    point replaced since (a test's monkeypatch) gets a fresh wrapper.

    Leaving the vmap does not swap the originals back: the wrappers stay until one of them is
    called outside any vmap, which puts every original back first (``uninstall``). Code that calls
    no swapped entry point between two vmaps (``jacfwd`` in a loop, ``vmap(grad(f))`` per batch)
    then swaps nothing at all: swapping costs more than its ``setattr`` calls, since changing a
    class's attributes discards what the interpreter has cached about every lookup on it.
    """
    if _installed[0]:
        if _unchanged(3):
            return
        uninstall()  # an entry point was replaced meanwhile: start again from the originals
    if not _table:
        _build()
    if not _wrappers or not _unchanged(2):
        _refresh()
    for owner, new, _ in _swaps.values():
        _apply(owner, new)
    _installed[0] = True


def _unchanged(which):
    """True when every entry point still holds its original (``which`` 2) or its wrapper (3): per
    owner, one C-level fetch of all its names and one tuple comparison."""
    try:
        for check in _checks:
            if check[1](check[0]) != check[which]:
                return False
    except KeyError:  # a name the owner serves from a module ``__getattr__``: not in its dict yet
        return False
    return True


def _refresh():
    changed = not _wrappers
    for entry in _table:
        if _current(entry[0], entry[1]) is not entry[2]:
            entry[:] = _entry(entry[0], entry[1], entry[4], entry[5])
            changed = True
    if changed:
        _wrappers.clear()
        _swaps.clear()
        for owner, name, fn, wrapper, _, _ in _table:
            _by_original[id(fn)] = wrapper
            _wrappers.setdefault("Tensor." + name if owner is Tensor else name, wrapper)
            new, old = _swaps.setdefault(id(owner), (owner, {}, {}))[1:]
            new[name], old[name] = wrapper, fn
    _checks.clear()
    for owner, new, old in _swaps.values():
        fetch = operator.itemgetter(*old)
        _checks.append((owner.__dict__ if owner is Tensor else vars(owner), fetch, fetch(old), fetch(new), owner))


# Per owner: (its namespace, an itemgetter of its swapped names, their originals, their wrappers, owner)
_checks = []
_swaps = {}  # id(owner) -> (owner, {name: wrapper}, {name: original})


def _apply(owner, names):
    if owner is Tensor:
        for name, value in names.items():
            setattr(Tensor, name, value)
    else:
        vars(owner).update(names)


def uninstall():
    """Puts the originals back where the wrappers still are (not over an entry point replaced since)."""
    if not _installed[0]:
        return
    _installed[0] = False
    for namespace, fetch, _, wrappers, owner in _checks:
        _, new, old = _swaps[id(owner)]
        try:
            intact = fetch(namespace) == wrappers
        except KeyError:
            intact = False
        _apply(owner, old if intact else {name: fn for name, fn in old.items() if namespace.get(name) is new[name]})


def call_user(func, *args, **kwargs):
    """Runs the user's function for a transform (``func`` in its batched form, see ``batching``),
    counted in ``grad_mode.transform_depth`` so that ``requires_grad_()`` refuses as in PyTorch."""
    grad_mode.transform_depth[0] += 1
    try:
        return batching(func)(*args, **kwargs)
    finally:
        grad_mode.transform_depth[0] -= 1


def batching(func):
    """``func`` itself, or its wrapper when it is an op passed before the swap (``vmap(torch.dot)``)."""
    return _by_original.get(id(func), func) if _installed[0] else func


__all__ = ["install", "uninstall", "dispatched", "original", "wrap"]
