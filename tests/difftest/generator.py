"""Write one random, seeded autograd program as a list of blocks (the same seed, the same program).

Every candidate statement is first run in real PyTorch, so the generator keeps only statements
that run (or, for the deliberate mistakes, only ones that raise) without having to know any op's
shape rules. Only the recorder and the live runner generate programs, and both have torch.
"""
import contextlib
import io
import random
import warnings

import numpy as np

from . import modes, optable_rows, table

SHAPES = [(), (1,), (3,), (4,), (2, 3), (1, 3), (3, 1), (2, 2), (2, 1, 3), (3, 2), (0,), (1, 1)]
SHAPE_WEIGHTS = [8, 3, 8, 3, 10, 4, 4, 4, 4, 4, 1, 2]
CONSTANTS = ["2", "0.5", "-1.5", "3", "0", "1e-3", "-2", "True"]
MISTAKE_RATE = 0.15
# Plain reverse-mode programs, forward-mode ones (dual tensors) and torch.func/vmap ones.
MODES = {"reverse": 74, "forward": 12, "func": 14}
RAMP = "def ramp(t):\n    return torch.linspace(-1, 2, t.numel(), dtype=t.dtype).reshape(t.shape)\n"
ENDINGS = ["backward", "backward_square", "backward_gradient", "retain_graph", "twice_no_retain",
           "grad_create_graph", "grad_allow_unused", "grad_unused_error"]


def _value(rng):
    r = rng.random()
    if r < 0.02:
        return rng.choice(["float('nan')", "float('inf')", "-float('inf')"])
    if r < 0.15:
        return rng.choice(["0.0", "1.0", "-1.0", "2.0", "0.5"])
    return repr(round(rng.uniform(-3, 3), 2))


def _attr(t, name):
    """``t.<name>``, or False where PyTorch refuses to answer (a view of a modified multi-output view)."""
    try:
        return getattr(t, name)
    except RuntimeError:
        return False


def _nested(shape, leaf):
    if not shape:
        return leaf()
    return "[" + ", ".join(_nested(shape[1:], leaf) for _ in range(shape[0])) + "]"


class Generator:
    """Build one program; ``blocks()`` returns its source blocks, each starting ``# <label>``."""

    def __init__(self, torch, seed):
        self.torch = torch
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        quiet = lambda *a: None  # noqa: E731 (statements are vetted, not printed)
        self.ns = {"torch": torch, "show": quiet, "showgrad": quiet, "showt": quiet, "showall": quiet}
        exec(RAMP, self.ns)
        self.out = []
        self.count = 0
        self.tangents = False   # forward mode: every block prints its tensor's tangent too
        self.fn_params = None   # writing a function body: its parameters x0.. come first
        self.functions = 0
        self.duals = []
        self.results = []       # torch.func results, r0, r1, ...
        self.last_error = ""

    # ------------------------------------------------------------------ helpers
    def tensors(self, want="t"):
        prefix = "v" if self.fn_params is None else "x"
        names = [k for k, v in self.ns.items()
                 if k[:1] == prefix and k[1:].isdigit() and isinstance(v, self.torch.Tensor)]
        if want == "f":
            names = [k for k in names if self.ns[k].is_floating_point()]
        if want == "g":
            names = [k for k in names if self.ns[k].requires_grad]
        return names

    def try_block(self, label, body, expect_error=False):
        """Run ``body`` in PyTorch; keep it as a block if it behaves as wanted."""
        snapshot = dict(self.ns)
        try:
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(body, self.ns)
            raised = False
        except Exception as e:
            raised, self.last_error = True, f"{type(e).__name__} {e}"
        if not raised and self.tangents and self._tangent_dtype_bug():
            raised = not expect_error
        if raised != expect_error:
            self.ns.clear()
            self.ns.update(snapshot)
            return False
        self.out.append(f"# {label}\n{body}")
        return True

    def _tangent_dtype_bug(self):
        """PyTorch 2.13 gives some tangents another dtype than their primal (``x.addcmul(y, y,
        value=0.5)`` of 0-dim float32 tensors has a float64 tangent): its bug, not generated."""
        unpack = self.torch.autograd.forward_ad.unpack_dual
        for name in self.tensors("f"):
            try:
                tangent = unpack(self.ns[name]).tangent
            except RuntimeError:  # a view PyTorch no longer lets anyone read
                continue
            if tangent is not None and tangent.dtype != self.ns[name].dtype:
                return True
        return False

    def new_name(self):
        self.count += 1
        return f"{'v' if self.fn_params is None else 'x'}{self.count - 1}"

    def show_lines(self, name):
        """The lines printing a new or written tensor (none inside a function body)."""
        if self.fn_params is not None:
            return ""
        return f"show('{name}', {name})" + (f"\nshowt('{name}', {name})" if self.tangents else "")

    def fill(self, template, names):
        t = self.ns[names[0]] if names else None
        shape = tuple(t.shape) if t is not None else ()
        ndim = len(shape)
        size0 = shape[0] if shape else 0
        rng = self.rng
        values = {"a": names[0] if names else "", "b": names[1] if len(names) > 1 else ""}
        values["d"] = str(rng.randint(-ndim, ndim - 1) if ndim else rng.choice([0, -1]))
        values["i"] = str(rng.randint(0, max(0, size0 - 1)))
        values["n"] = str(rng.choice([1, 2, 3]))
        values["c"] = rng.choice(CONSTANTS)
        numel = int(np.prod(shape)) if shape else 1
        shapes = [f"{numel}", f"1, {numel}", f"{numel}, 1", "-1", f"1, -1, 1"]
        if numel % 2 == 0 and numel:
            shapes.append(f"2, {numel // 2}")
        values["shape"] = rng.choice(shapes)
        perm = list(range(ndim))
        rng.shuffle(perm)
        values["perm"] = ", ".join(map(str, perm))
        values["mask"] = "torch.tensor(" + _nested(shape, lambda: rng.choice(["True", "False"])) + ")"
        idx = [rng.randint(-size0, size0 - 1) for _ in range(rng.randint(1, 3))] if size0 else []
        values["idx"] = repr(idx)
        return template.format(**values)

    # ------------------------------------------------------------------ statements
    def leaf(self):
        rng = self.rng
        name = self.new_name()
        shape = rng.choices(SHAPES, SHAPE_WEIGHTS)[0]
        kind = rng.choices(["f32", "f64", "int", "bool", "factory"], [40, 35, 10, 5, 10])[0]
        rg = rng.random() < 0.85
        grad = ", requires_grad=True" if rg else ""
        if kind == "int":
            src = f"torch.tensor({_nested(shape, lambda: str(rng.randint(-3, 3)))})"
        elif kind == "bool":
            src = f"torch.tensor({_nested(shape, lambda: rng.choice(['True', 'False']))})"
        elif kind == "factory":
            dims = ", ".join(map(str, shape)) or "()"
            src = rng.choice([f"torch.ones({dims}{grad})", f"torch.zeros({dims}, dtype=torch.float64{grad})",
                              f"torch.full(({dims},), 1.5{grad})" if shape else f"torch.tensor(1.5{grad})",
                              f"torch.arange({max(1, int(np.prod(shape)))}.0{grad})",
                              f"torch.linspace(-1, 1, 5, dtype=torch.float64{grad})"])
        else:
            dtype = ", dtype=torch.float64" if kind == "f64" else ""
            src = f"torch.tensor({_nested(shape, lambda: _value(rng))}{dtype}{grad})"
        if not self.try_block("leaf", f"{name} = {src}\nshow('{name}', {name})"):
            self.count -= 1

    def pick(self, operands):
        names = []
        for k, want in enumerate(operands):
            pool = self.tensors("f" if want == "f" else "g" if want == "g" else "t")
            if k and self.fn_params is not None and self.rng.random() < 0.2:
                pool = [n for n in self.ns if n[:1] == "v" and n[1:].isdigit()] or pool  # a captured tensor
            if not pool:
                return None
            names.append(self.rng.choice(pool))
        return names

    def statement(self):
        weights = table.WEIGHTS if self.fn_params is None else modes.FUNCTION_KINDS
        kind = self.rng.choices(list(weights), list(weights.values()))[0]
        if kind == "optable":
            return self.optable_row()
        if kind == "no_grad":
            kind, wrap = self.rng.choice(["unary", "binary", "view", "inplace"]), True
        else:
            wrap = False
        label, template, operands = self.rng.choice(table.KINDS[kind])
        if self.fn_params is not None and label in modes.NOT_IN_FUNCTIONS:
            return False
        names = self.pick(operands)
        if names is None:
            return False
        stmt = self.fill(template, names)
        target = names[0]
        if kind == "inplace":
            if self.fn_params is not None and int(target[1:]) < self.fn_params:
                return False  # a function writes into its own tensors only
            leaf = _attr(self.ns[target], 'is_leaf') and self.ns[target].requires_grad
            if wrap or leaf:
                stmt = "with torch.no_grad():\n    " + stmt
                label += " (no_grad)"
            return self.try_block(label, f"{stmt}\n{self.show_lines(target)}".rstrip())
        if kind == "effect":
            return self.try_block(label, stmt)
        name = self.new_name()
        body = f"{name} = {stmt}"
        if wrap:
            body, label = "with torch.no_grad():\n    " + body, label + " (no_grad)"
        if self.try_block(label, f"{body}\n{self.show_lines(name)}".rstrip()):
            return True
        self.count -= 1
        return False

    def optable_row(self):
        row, lam = self.rng.choice(optable_rows.rows())
        shapes = self.rng.choice(row.shapes)
        names = [f"v{self.count + k}" for k in range(len(shapes))]
        call = optable_rows.call_source(lam, names)
        if call is None:
            return False
        dtype = self.rng.choice(["", ", dtype=torch.float64"])
        for name, array in zip(names, row.make_inputs(self.np_rng, shapes)):
            self.new_name()
            values = np.round(array, 3).tolist()
            self.try_block("leaf", f"{name} = torch.tensor({values!r}{dtype}, requires_grad=True)\n"
                           f"show('{name}', {name})")
        result = self.new_name()
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = eval(call, self.ns)
            except Exception:
                value = None
        if isinstance(value, (tuple, list)):
            call = f"({call})[0]"
        if not self.try_block(f"optable {row.name}", f"{result} = {call}\n{self.show_lines(result)}"):
            self.count -= 1
            return False
        return True

    def mistake(self):
        for _ in range(30):
            label, template, operands = self.rng.choice(table.MISTAKES)
            names = self.pick(operands)
            if names is not None and self.try_block(f"mistake {label}", f"show('bad', {self.fill(template, names)})",
                                                    expect_error=True):
                return

    def ending(self):
        grads = [n for n in self.tensors("g")]
        if not grads:
            return
        leaves = [n for n in grads if _attr(self.ns[n], 'is_leaf')]
        floats = [n for n in grads if self.ns[n].is_floating_point()]
        target = floats[-1] if floats and self.rng.random() < 0.7 else self.rng.choice(floats or grads)
        ending = self.rng.choice(ENDINGS)
        inputs = ", ".join(leaves or [target])
        blocks = {
            "backward": [f"{target}.sum().backward()"],
            "backward_square": [f"({target} * {target}).sum().backward()"],
            "backward_gradient": [f"{target}.backward(torch.full_like({target}, 0.5))"],
            "retain_graph": [f"loss = ({target} ** 2).sum()\nloss.backward(retain_graph=True)", "loss.backward()"],
            "twice_no_retain": [f"loss = {target}.exp().sum()\nloss.backward()", "loss.backward()"],
            "grad_create_graph": [
                f"gs = torch.autograd.grad(({target} * {target}).sum(), [{inputs}], create_graph=True, allow_unused=True)\n"
                "for k, g in enumerate(gs):\n    show(f'g{k}', g)",
                "gg = torch.autograd.grad(sum(g.sum() for g in gs if g is not None), "
                f"[{inputs}], allow_unused=True)\n"
                "for k, g in enumerate(gg):\n    show(f'gg{k}', g)"],
            "grad_allow_unused": [
                f"gs = torch.autograd.grad({target}.sum(), [{inputs}], allow_unused=True)\n"
                "for k, g in enumerate(gs):\n    show(f'g{k}', g)"],
            "grad_unused_error": [f"gs = torch.autograd.grad({target}.sum(), [{', '.join(grads)}])\n"
                                  "for k, g in enumerate(gs):\n    show(f'g{k}', g)"],
        }[ending]
        for body in blocks:
            self.out.append(f"# {ending}\n{body}")
        watched = leaves + [n for n in grads if _attr(self.ns[n], 'retains_grad')]
        if grads and self.rng.random() < 0.2:
            watched.append(self.rng.choice(grads))
        lines = [f"showgrad('{n}', {n})" for n in dict.fromkeys(watched)]
        if lines:
            self.out.append("# grads\n" + "\n".join(lines))

    def program(self):
        try:
            return self._program(self.rng.choices(list(MODES), list(MODES.values()))[0])
        finally:
            modes.close_levels(self.torch)

    def _program(self, mode):
        total = self.rng.randint(5, 20)
        for _ in range(self.rng.randint(1, 3)):
            self.leaf()
        if mode == "forward":
            modes.enter_forward(self)
        mistake_at = (self.rng.randint(len(self.out), max(len(self.out), total - 2))
                      if self.rng.random() < MISTAKE_RATE else None)
        for _ in range(total * 6):
            if len(self.out) >= total - 1:
                break
            r = self.rng.random()
            if mistake_at is not None and len(self.out) >= mistake_at:
                if mode == "forward" and self.rng.random() < 0.5:
                    modes.forward_mistake(self)
                else:
                    self.mistake()
                mistake_at = None
            elif r < 0.08:
                self.leaf()
            elif mode == "forward" and r < 0.12:
                modes.make_dual(self)
            elif mode == "func" and r < 0.4:
                modes.transform(self)
            else:
                self.statement()
        if not (mode == "forward" and modes.forward_ending(self) or mode == "func" and modes.func_ending(self)):
            self.ending()
        if mode == "forward":
            modes.exit_forward(self)
        return self.out


def generate(torch, seed):
    """Return the blocks of program ``seed`` (an int); needs real PyTorch to vet statements."""
    return Generator(torch, seed).program()


def program_seed(run_seed, index):
    """The seed of the ``index``-th program of a run started with ``run_seed``."""
    return run_seed * 1_000_003 + index


def render(blocks):
    """A standalone script: the prelude, then each block in its own ``try``, as the worker runs it."""
    from .worker import PRELUDE
    parts = ["import torch", PRELUDE.strip(), ""]
    for block in blocks:
        lines = block.splitlines()
        parts.append(lines[0])
        parts.append("try:\n" + "\n".join("    " + line for line in lines[1:]) +
                     "\nexcept Exception as e:\n    print(type(e).__name__, e)")
    return "\n".join(parts) + "\n"
