"""Program parts for forward mode (``torch.autograd.forward_ad``) and ``torch.func``/``vmap``.

A forward-mode program enters a dual level after its leaves, makes dual tensors of some of them
(``fwAD.make_dual``), runs the usual statements with every block printing its new tensor's tangent
(``showt``), may end in forward-over-reverse (``autograd.grad(create_graph=True)``, then the
gradients' tangents: Hessian-vector products), and leaves the level (tangents are gone after).

A torch.func program defines small functions ``f0, f1, ...`` whose bodies are drawn from the same
statement table (run on copies of the arguments), and calls ``grad``, ``grad_and_value``,
``jacrev``, ``jacfwd``, ``hessian``, ``jvp``, ``vjp``, ``linearize`` or ``vmap`` (random
``in_dims``/``out_dims``, batched arguments as fresh leaves, ``vmap(grad(f))`` and other
compositions) on them. A call that PyTorch refuses is kept now and then, so its error is compared.
"""

# Deliberate forward-mode mistakes, kept only when PyTorch raises (``{a}`` as in table.py).
FORWARD_MISTAKES = [
    ("make_dual_shape", "fwAD.make_dual({a}, torch.ones(7))", "f"),
    ("make_dual_shape_2", "fwAD.make_dual({a}, torch.ones(*{a}.shape, 2))", "f"),
    ("make_dual_int", "fwAD.make_dual({a}.long(), torch.ones_like({a}).long())", "t"),
    ("make_dual_int_tangent", "fwAD.make_dual({a}, torch.ones({a}.shape, dtype=torch.long))", "f"),
    ("nested_level", "fwAD.enter_dual_level()", "t"),
    ("exit_other_level", "fwAD.exit_dual_level(level=3)", "t"),
    ("make_dual_level", "fwAD.make_dual({a}, torch.ones_like({a}), level=4)", "f"),
]
AFTER_EXIT = [
    ("make_dual_no_level", "fwAD.make_dual({a}, torch.ones_like({a}))", "f"),
    ("exit_no_level", "fwAD.exit_dual_level()", "t"),
]

TRANSFORMS = {"grad": 14, "grad_and_value": 4, "grad_aux": 3, "jacrev": 12, "jacfwd": 12, "hessian": 8,
              "jvp": 12, "vjp": 12, "linearize": 3, "vmap": 22, "vmap_grad": 10, "composed": 6}
# Transforms whose function must return one number (``.sum()`` is appended, now and then not).
SCALAR = {"grad", "grad_and_value", "grad_aux", "hessian", "vmap_grad"}
# Table rows not written into function bodies: PyTorch refuses requires_grad_() under every
# transform, which autograd_py does not yet (see README).
NOT_IN_FUNCTIONS = {"requires_grad_"}
FUNCTION_KINDS = {"unary": 16, "binary": 16, "view": 12, "index": 6, "reduce": 10, "inplace": 6, "no_grad": 2}


# Errors PyTorch raises from its own machinery, not the program's mistake: such a call is dropped.
TORCH_BUGS = ["more than one element of the written-to tensor refers to a single memory location",
              "Cannot access data pointer of Tensor",
              # vmap with a negative out_dims on an output that is not batched: PyTorch's
              # _remove_batch_dim inserts the batch size at begin() + out_dim, reading memory
              # before its size vector (a MemoryError, or sizes such as 34359738369)
              "MemoryError", "The expanded size of the tensor (34359738369)"]


def close_levels(torch):
    """Leave any dual level a program left open (the next program starts with none)."""
    fwad = torch.autograd.forward_ad
    if hasattr(fwad, "exit_all_levels"):
        fwad.exit_all_levels()
        return
    while getattr(fwad, "_current_level", -1) >= 0:
        fwad.exit_dual_level()


def _literal(g, t):
    """Source of a fresh tensor shaped and typed like ``t`` (random values, no grad)."""
    from .generator import _nested, _value
    return f"torch.tensor({_nested(tuple(t.shape), lambda: _value(g.rng))}, dtype={t.dtype})"


# ---------------------------------------------------------------------------------------- forward
def enter_forward(g):
    g.level_ctx = g.rng.random() < 0.4
    body = ("fwAD = torch.autograd.forward_ad\n" +
            ("level = fwAD.dual_level()\nprint(level.__enter__())" if g.level_ctx else
             "print(fwAD.enter_dual_level())"))
    g.try_block("dual_level", body)
    g.tangents = True
    g.duals = []
    for _ in range(g.rng.randint(1, 2)):
        make_dual(g)


def make_dual(g):
    pool = g.tensors("f")
    if not pool:
        return False
    a = g.rng.choice(pool)
    t = g.ns[a]
    tangent = "torch.ones_like({})".format(a) if g.rng.random() < 0.3 else _literal(g, t)
    name = g.new_name()
    if g.try_block("make_dual", f"{name} = fwAD.make_dual({a}, {tangent})\n{g.show_lines(name)}"):
        g.duals.append(name)
        return True
    g.count -= 1
    return False


def forward_mistake(g):
    for _ in range(30):
        label, template, operands = g.rng.choice(FORWARD_MISTAKES)
        names = g.pick(operands)
        if names is not None and g.try_block(f"mistake {label}", f"show('bad', {g.fill(template, names)})",
                                             expect_error=True):
            return


def forward_ending(g):
    """Forward over reverse: the gradients' tangents are Hessian-vector products."""
    grads = g.tensors("g")
    floats = [n for n in grads if g.ns[n].is_floating_point()]
    if not floats or g.rng.random() < 0.5:
        return False
    target = floats[-1] if g.rng.random() < 0.7 else g.rng.choice(floats)
    from .generator import _attr
    wrt = [n for n in grads if _attr(g.ns[n], "is_leaf")] or [target]
    power = g.rng.choice(["{t} * {t}", "{t}.exp()", "{t}.sin() * {t}", "{t} ** 3"]).format(t=target)
    body = (f"gs = torch.autograd.grad(({power}).sum(), [{', '.join(wrt)}], create_graph=True, allow_unused=True)\n"
            "for k, g in enumerate(gs):\n    show(f'g{k}', g)\n    showt(f'g{k}', g)")
    g.try_block("forward_over_reverse", body) or g.try_block("forward_over_reverse", body, expect_error=True)
    return True


def exit_forward(g):
    watched = "".join(f"\nshowt('{n}', {n})" for n in g.duals[-2:])
    body = "level.__exit__(None, None, None)" if g.level_ctx else "fwAD.exit_dual_level()"
    g.try_block("exit_level", body + watched)
    g.tangents = False
    if g.rng.random() < 0.3:
        label, template, operands = g.rng.choice(AFTER_EXIT)
        names = g.pick(operands)
        if names is not None:
            g.try_block(f"mistake {label}", f"show('bad', {g.fill(template, names)})", expect_error=True)


# ---------------------------------------------------------------------------------------- torch.func
def make_function(g, n_params, scalar):
    """Write ``def fK(x0, ...)`` from table statements over copies of ``g``'s tensors.

    Returns ``(name, source, output)``, ``output`` being the function's result on the copies.
    """
    outer = {}
    for k in g.tensors("f"):
        try:
            outer[k] = g.ns[k].detach().clone()
        except RuntimeError:  # a view PyTorch no longer lets anyone read
            pass
    params = g.rng.sample(sorted(outer, key=lambda n: int(n[1:])), min(n_params, len(outer)))
    n_params = len(params)
    if not params:
        return None
    fname = f"f{g.functions}"
    g.functions += 1
    local = {"torch": g.torch, "show": g.ns["show"], "showgrad": g.ns["showgrad"], **outer}
    for k, p in enumerate(params):
        local[f"x{k}"] = outer[p].clone()
    saved = g.ns, g.count, g.out, g.fn_params
    g.ns, g.count, g.out, g.fn_params = local, n_params, [], n_params
    try:
        for _ in range(g.rng.randint(1, 5)):
            g.statement()
        lines, result_name = [], f"x{g.count - 1}"
        for block in g.out:
            lines += block.splitlines()[1:]
        result = g.ns[result_name]
        second = [n for n in g.tensors("t") if n != result_name]
    finally:
        g.ns, g.count, g.out, g.fn_params = saved
    ret = result_name
    if scalar and result.dim() and g.rng.random() < 0.9:
        ret, result = f"{result_name}.sum()", result.sum()
    if scalar == "aux":
        ret = f"{ret}, {result_name}"
    elif not scalar and second and g.rng.random() < 0.2:
        other = g.rng.choice(second)
        ret, result = f"{ret}, {other}", (result, None)
    body = "\n".join("    " + line for line in lines + [f"return {ret}"])
    return fname, params, f"def {fname}({', '.join(f'x{k}' for k in range(n_params))}):\n{body}", result


def _argnums(g, n):
    if n == 1:
        return ""
    return g.rng.choice(["", ", argnums=1", ", argnums=(0, 1)", ", argnums=0"])


def _ramp(names):
    return ", ".join(f"ramp({n})" for n in names)


def transform(g):
    """One torch.func call on a new function; returns whether a block was kept."""
    floats = g.tensors("f")
    if not floats:
        return False
    kind = g.rng.choices(list(TRANSFORMS), list(TRANSFORMS.values()))[0]
    n_params = min(len(floats), g.rng.choice([1, 1, 2]))
    scalar = ("aux" if kind == "grad_aux" else True) if kind in SCALAR else False
    made = make_function(g, n_params, scalar)
    if made is None:
        return False
    fname, params, source, result = made
    n_params = len(params)
    if not g.try_block(f"def {fname}", source):
        return False
    args = ", ".join(params)
    name = f"r{len(g.results)}"  # not an operand of later statements: its graph is functorch's own
    F = "torch.func."
    pre = ""
    if kind in ("grad", "grad_and_value", "jacrev", "jacfwd", "hessian"):
        call = f"{F}{kind}({fname}{_argnums(g, n_params)})({args})"
    elif kind == "grad_aux":
        call = f"{F}{g.rng.choice(['grad', 'grad_and_value'])}({fname}{_argnums(g, n_params)}, has_aux=True)({args})"
    elif kind == "jvp":
        call = f"{F}jvp({fname}, ({args},), ({_ramp(params)},))"
    elif kind == "linearize":
        pre = f"out, jvp_fn = {F}linearize({fname}, {args})\nshowall('out', out)\n"
        call = f"jvp_fn({_ramp(params)})"
    elif kind == "vjp":
        pre = f"out, vjp_fn = {F}vjp({fname}, {args})\nshowall('out', out)\n"
        cot = "ramp(out)" if not isinstance(result, tuple) else "(ramp(out[0]), ramp(out[1]))"
        call = f"vjp_fn({g.rng.choice([cot, cot.replace('ramp(', 'torch.ones_like(')])})"
    elif kind == "composed":
        outer_t, inner_t = g.rng.choice([("jacrev", "jacfwd"), ("jacfwd", "jacfwd"), ("jacrev", "jacrev"),
                                         ("jacfwd", "jacrev"), ("jacrev", "grad")])
        if inner_t == "grad" and (isinstance(result, tuple) or result.dim()):
            inner_t = "jacrev"
        call = f"{F}{outer_t}({F}{inner_t}({fname}))({args})"
    else:
        pre, call = vmap_call(g, kind, fname, params, result)
        if call is None:
            g.count -= 1
            return False
    body = f"{pre}{name} = {call}\nshowall('{name}', {name})"
    label = kind if kind != "composed" else call.split("(")[0].replace(F, "") + "(" + call.split("(")[1].replace(F, "")
    if g.try_block(label, body):
        if kind != "linearize":  # torch.fx's trace of linearize keeps no outer graph
            g.results.append(name)
        return True
    if (g.rng.random() < 0.3 and not any(bug in g.last_error for bug in TORCH_BUGS)
            and g.try_block(label, body, expect_error=True)):
        return True
    return False


def func_ending(g):
    """Outer autograd through the transforms: gradients of the results' sum for the leaves."""
    torch = g.torch
    terms = []
    for name in g.results:
        value = g.ns.get(name)
        parts = [(name, value)] if isinstance(value, torch.Tensor) else [
            (f"{name}[{k}]", v) for k, v in enumerate(value) if isinstance(value, tuple)]
        terms += [f"{n}.sum()" for n, v in parts if isinstance(v, torch.Tensor) and v.requires_grad
                  and v.is_floating_point()]
    from .generator import _attr
    leaves = [n for n in g.tensors("g") if _attr(g.ns[n], "is_leaf")]
    if not terms or not leaves or g.rng.random() < 0.4:
        return False
    body = (f"gs = torch.autograd.grad({' + '.join(terms)}, [{', '.join(leaves)}], allow_unused=True)\n"
            "for k, g in enumerate(gs):\n    showall(f'g{k}', g)")  # versions of functorch's graph: not compared
    return g.try_block("func_backward", body)


def vmap_call(g, kind, fname, params, result):
    """Batched leaves for ``params`` (a random batch dim each, or None) and the vmap call."""
    size = g.rng.choice([1, 2, 3, 3])
    dims, args, pre = [], [], ""
    for k, p in enumerate(params):
        t = g.ns[p]
        if k and g.rng.random() < 0.3 and any(d is not None for d in dims):
            dims.append(None)
            args.append(p)
            continue
        d = g.rng.randint(-t.dim() - 1, t.dim()) if g.rng.random() < 0.2 else g.rng.randint(0, t.dim())
        if g.rng.random() < 0.04:
            d = t.dim() + 2  # out of range: PyTorch's error
        b = size if g.rng.random() < 0.95 else size + 1  # mismatched batch sizes now and then
        pos = d if d >= 0 else t.dim() + 1 + d
        shape = list(t.shape)
        shape.insert(max(0, min(pos, len(shape))), b)
        name = g.new_name()
        from .generator import _nested, _value
        grad = ", requires_grad=True" if g.rng.random() < 0.5 else ""
        dtype = ", dtype=torch.float64" if t.dtype == g.torch.float64 else ""
        src = f"torch.tensor({_nested(tuple(shape), lambda: _value(g.rng))}{dtype}{grad})"
        if not g.try_block("leaf", f"{name} = {src}\nshow('{name}', {name})"):
            g.count -= 1
            return "", None
        dims.append(d)
        args.append(name)
    in_dims = "(" + ", ".join(map(str, dims)) + ",)" if len(dims) > 1 or g.rng.random() < 0.5 else str(dims[0])
    fn = fname if kind == "vmap" else f"torch.func.grad({fname})"
    out_dims = ""
    if kind == "vmap" and not isinstance(result, tuple) and g.rng.random() < 0.5:
        out_dims = f", out_dims={g.rng.randint(-result.dim() - 1, result.dim())}"
    extra = g.rng.choice(["", "", "", ", chunk_size=1", ", chunk_size=2"])
    return pre, f"torch.func.vmap({fn}, in_dims={in_dims}{out_dims}{extra})({', '.join(args)})"
