"""Run programs in one backend and capture what each block prints; one process per backend.

A worker reads JSON lines ``{"id": ..., "blocks": [...]}`` on stdin and answers each with
``{"id": ..., "out": [text of block 0, text of block 1, ...]}``; in torch mode a request
``{"id": ..., "generate": seed}`` is answered with the generated program's ``blocks`` (PyTorch
itself can crash on a candidate statement, and then it takes down this worker, not the driver). ``torch`` mode imports real
PyTorch; ``ag`` mode binds the name ``torch`` to autograd_py and refuses to run if real torch was
ever imported, so the two never meet in one process.

Every program starts from the same global state (grad mode on, float32 default, printoptions
precision 8) in a fresh namespace holding only ``torch`` and the printing helpers of ``PRELUDE``. Each block runs in its own ``try`` and a
caught error prints as ``print(type(e).__name__, e)``, so one error does not hide the rest.
Warnings print inline as ``warning <Category> <message>``.
"""
import contextlib
import io
import json
import pathlib
import re
import sys
import warnings

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

PRELUDE = '''
def _fn_name(fn):
    return None if fn is None else type(fn).__name__

def show(name, t):
    if not isinstance(t, torch.Tensor):
        print(name, repr(t))
        return
    fn = t.grad_fn
    nxt = None if fn is None else [(_fn_name(f), i) for f, i in fn.next_functions]
    print(name, t.dtype, tuple(t.shape), t.tolist(), "grad_fn", _fn_name(fn), "next", nxt,
          "leaf", t.is_leaf, "rg", t.requires_grad, "version", t._version)

def showgrad(name, t):
    g = t.grad
    if g is None:
        print(name + ".grad", None)
    else:
        print(name + ".grad", g.dtype, tuple(g.shape), g.tolist(), "grad_fn", _fn_name(g.grad_fn))

def showt(name, t):
    tangent = None if t is None else torch.autograd.forward_ad.unpack_dual(t).tangent
    if tangent is None:
        print(name + ".tangent", None)
    else:
        print(name + ".tangent", tangent.dtype, tuple(tangent.shape), tangent.tolist(),
              "rg", tangent.requires_grad)

def showall(name, x):
    if isinstance(x, (tuple, list)):
        print(name, type(x).__name__, len(x))
        for k, y in enumerate(x):
            showall(f"{name}[{k}]", y)
    elif isinstance(x, torch.Tensor):
        # functorch's own decompositions name the graph of a transform's output (jacrev's
        # SplitWithSizesBackward0, jvp's AliasBackward0, versions bumped inside jacfwd): not compared
        print(name, x.dtype, tuple(x.shape), x.tolist(), "leaf", x.is_leaf, "rg", x.requires_grad)
    else:
        print(name, repr(x))

def ramp(t):
    return torch.linspace(-1, 2, t.numel(), dtype=t.dtype).reshape(t.shape)
'''

# PyTorch's C++ warnings end with the source location they came from.
_TRIGGERED = re.compile(r"\s*\(Triggered internally at .*\)\s*$", re.S)
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def load_backend(mode):
    """Return the module that programs see as ``torch``."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    if mode == "torch":
        import torch
        return torch
    if "torch" in sys.modules:
        raise SystemExit("the autograd_py worker must not share a process with torch")
    import autograd_py
    return autograd_py


def reset(torch):
    torch.set_grad_enabled(True)
    torch.set_default_dtype(torch.float32)
    torch.set_printoptions(profile="default")
    torch.set_printoptions(precision=8)
    torch.manual_seed(0)
    from tests.difftest.modes import close_levels
    close_levels(torch)  # a program that stopped inside a dual level must not leave it to the next
    # PyTorch warns some things once per process; a program must not depend on the ones before it.
    if hasattr(torch, "set_warn_always"):
        torch.set_warn_always(True)


def run_program(torch, blocks):
    """Execute ``blocks`` in a fresh namespace and return the text each one printed."""
    reset(torch)
    namespace = {"torch": torch, "__name__": "__main__"}
    exec(PRELUDE, namespace)
    outputs = []
    for block in blocks:
        buffer = io.StringIO()

        def showwarning(message, category, filename, lineno, file=None, line=None):
            text = _TRIGGERED.sub("", str(message))
            print("warning", category.__name__, text, file=buffer)

        with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
            warnings.simplefilter("always")
            # torch.func.linearize traces with torch.fx, which warns about its own graph
            warnings.filterwarnings("ignore", message="Attempted to insert a get_attr Node")
            # torch's first forward-AD call in a process imports torch.jit, which warns once
            warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated")
            warnings.showwarning = showwarning
            try:
                exec(block, namespace)
            except KeyboardInterrupt:
                raise
            except BaseException as e:  # the program's own error is part of its output
                print(type(e).__name__, e)
        outputs.append(_ADDRESS.sub(" at 0x?", buffer.getvalue()))
    reset(torch)
    return outputs


def main(mode):
    torch = load_backend(mode)
    for line in sys.stdin:
        request = json.loads(line)
        if "generate" in request:  # torch mode only: the generator vets statements in PyTorch
            from tests.difftest.generator import generate
            answer = {"id": request["id"], "blocks": generate(torch, request["generate"])}
        else:
            answer = {"id": request["id"], "out": run_program(torch, request["blocks"])}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    if mode == "ag" and "torch" in sys.modules:
        raise SystemExit("real torch was imported inside the autograd_py worker")


if __name__ == "__main__":
    main(sys.argv[1])
