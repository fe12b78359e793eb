"""Batching rules for ``torch.nn.functional``: most are compositions of batched ops.

Convolutions and pools take a leading N dim already: the vmap batch folds into it (an example of
shape (C, H, W) is one image; an example of shape (N, C, H, W) folds to B*N images).
"""
from .batched import is_batched_at, wrap
from .rules import _get, fallback, logical_rank


def softmax_like(level, call, args, kwargs, method=None):
    x = args[0]
    d = _get(list(args), kwargs, 1, "dim")
    if d is None:
        n = x.dim()
        d = 0 if n in (0, 1, 3) else 1
        import warnings
        warnings.warn(f"Implicit dimension choice for {call.__name__} has been deprecated. Change the call to "
                      "include dim=X as an argument.", UserWarning, stacklevel=3)
    dtype = kwargs.get("dtype")
    out = getattr(x, method or call.__name__)(d)
    return out if dtype is None else out.to(dtype)


def softmin(level, call, args, kwargs):
    """F.softmin as PyTorch writes it, ``(-input).softmax(dim)``, on the batched input."""
    return softmax_like(level, call, (-args[0], *args[1:]), kwargs, method="softmax")


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def mse_loss(level, call, args, kwargs):
    input, target = args[0], _get(list(args), kwargs, 1, "target")
    if input.shape != target.shape:
        return fallback(level, call, args, kwargs)  # PyTorch's broadcast warning, one example at a time
    return _reduce((input - target) ** 2, kwargs.get("reduction", "mean"))


def l1_loss(level, call, args, kwargs):
    input, target = args[0], _get(list(args), kwargs, 1, "target")
    if input.shape != target.shape:
        return fallback(level, call, args, kwargs)
    return _reduce((input - target).abs(), kwargs.get("reduction", "mean"))


def nll_like(log_softmax_first):
    """cross_entropy / nll_loss with class-index targets (no weight or label smoothing): the
    target's log-probability, by ``gather``, with ``ignore_index`` masked out of the mean."""
    def rule(level, call, args, kwargs):
        input, target = args[0], _get(list(args), kwargs, 1, "target")
        extra = {k: v for k, v in kwargs.items() if k not in ("target", "reduction", "ignore_index")}
        if len(args) > 2 or any(v not in (None, 0.0) for v in extra.values()) or target.dtype.is_floating_point:
            return fallback(level, call, args, kwargs)
        class_dim = 1 if input.dim() >= 2 else 0
        logp = input.log_softmax(class_dim) if log_softmax_first else input
        ignore = kwargs.get("ignore_index", -100)
        keep = target != ignore
        safe = target.masked_fill(~keep, 0)
        picked = logp.gather(class_dim, safe.unsqueeze(class_dim)).squeeze(class_dim)
        loss = -picked * keep.to(picked.dtype)
        reduction = kwargs.get("reduction", "mean")
        if reduction == "mean":
            return loss.sum() / keep.sum().to(loss.dtype)
        return _reduce(loss, reduction)
    return rule


def binary_cross_entropy_with_logits(level, call, args, kwargs):
    input, target = args[0], _get(list(args), kwargs, 1, "target")
    if len(args) > 2 or any(kwargs.get(k) is not None for k in ("weight", "pos_weight")):
        return fallback(level, call, args, kwargs)
    # (1 - y) x + log(1 + exp(-x)), written stably as max(-x, 0) + log(exp(-m) + exp(-x - m))
    m = (-input).clamp(min=0)
    loss = (1 - target) * input + m + ((-m).exp() + (-input - m).exp()).log()
    return _reduce(loss, kwargs.get("reduction", "mean"))


def fold_batch(spatial):
    """conv/pool over ``spatial`` dims: the vmap batch folds into the op's own N dim."""
    def rule(level, call, args, kwargs):
        x = args[0]
        others = [a for a in (*args[1:], *kwargs.values()) if is_batched_at(a, level)]
        if not is_batched_at(x, level) or others:
            return fallback(level, call, args, kwargs)
        v = x._value
        n = logical_rank(x, level)
        if n == spatial + 1:  # one unbatched example (C, ...): the batch is its N
            return wrap(call(v, *args[1:], **kwargs), level)
        if n != spatial + 2:
            return fallback(level, call, args, kwargs)  # the op's own shape error, per example
        B, N = v.shape[0], v.shape[1]
        out = call(v.reshape(B * N, *v.shape[2:]), *args[1:], **kwargs)
        if isinstance(out, tuple):
            return wrap(tuple(o.reshape(B, N, *o.shape[1:]) for o in out), level)
        return wrap(out.reshape(B, N, *out.shape[1:]), level)
    return rule


def conv(spatial):
    """conv1d/conv2d. With a batched weight (an ensemble of models), the examples become groups
    of one grouped convolution: the batch joins the channels of input, weight and bias."""
    folded = fold_batch(spatial)

    def rule(level, call, args, kwargs):
        x, weight = args[0], _get(list(args), kwargs, 1, "weight")
        bias = _get(list(args), kwargs, 2, "bias")
        if not is_batched_at(weight, level) and not is_batched_at(bias, level):
            return folded(level, call, args, kwargs)
        from .rules import _expanded
        kwargs = {**dict(zip(("stride", "padding", "dilation", "groups"), args[3:])), **kwargs}
        if any(k not in ("weight", "bias", "stride", "padding", "dilation", "groups") for k in kwargs):
            return fallback(level, call, args, kwargs)
        n = logical_rank(x, level)
        if n not in (spatial + 1, spatial + 2):
            return fallback(level, call, args, kwargs)
        v = _expanded(x, level)  # (B, [N,] C, *spatial)
        if n == spatial + 1:
            v = v.unsqueeze(1)
        B, N = v.shape[0], v.shape[1]
        w = _expanded(weight, level)  # (B, O, C/g, *k)
        O = w.shape[1]
        groups = kwargs.get("groups", 1)
        inp = v.transpose(0, 1).reshape(N, B * v.shape[2], *v.shape[3:])
        b = _expanded(bias, level).reshape(B * O) if bias is not None else None
        opts = {k: kwargs[k] for k in ("stride", "padding", "dilation") if k in kwargs}  # "same" pads each group alike
        out = call(inp, w.reshape(B * O, *w.shape[2:]), b, groups=groups * B, **opts)
        out = out.reshape(N, B, O, *out.shape[2:]).transpose(0, 1)
        return wrap(out.squeeze(1) if n == spatial + 1 else out, level)
    return rule
