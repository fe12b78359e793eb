"""Every way a tutorial spells its torch imports gives one autograd_py, in a fresh interpreter.

Each case runs in its own subprocess (imports are process-wide state), after
``autograd_py.install_as_torch()``, with the spelling before or after ``import torch``, and checks:
one module object per source file, one ``Tensor`` class, ``torch.tensor`` still the function,
and a custom ``Function``'s output with a ``grad_fn`` that backpropagates.
"""
import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

SPELLINGS = [
    "from torch.autograd.function import Function",
    "import torch.autograd.function",
    "from torch.autograd import Function",
    "from torch.autograd import Variable, Function",
    "import torch.nn.functional as F",
    "from torch.nn import functional as F",
    "from torch import nn, optim, Tensor",
    "import torch.nn as nn\nimport torch.optim as optim",
    "import torch.autograd.graph",
    "from torch.autograd.graph import saved_tensors_hooks",
    "import torch.autograd.gradcheck",
    "from torch.autograd.gradcheck import gradcheck",
    "from torch.nn.utils import clip_grad_norm_",
    "import torch.nn.init as init",
    "from torch.optim.lr_scheduler import StepLR",
    "import torch.cuda",
    "from torch import cuda, backends",
    "import torch.backends.mps",
    "import torch.accelerator",
    "import torch.random",
    "import torch.utils.data",
    "from torch.utils import data",
    "from torch.utils.data import DataLoader, TensorDataset",
    "import torch.serialization",
    "import torch.func",
    "from torch.func import grad, jacrev",
]

CHECK = textwrap.dedent("""
    import json, sys, types
    import autograd_py
    autograd_py.install_as_torch()
    {before}
    {spelling}
    import torch
    {after}

    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = torch.ones(2, requires_grad=True)
    y = Double.apply(x)
    y.sum().backward()
    files = {{}}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if "autograd_py" in path:
            files.setdefault(path, set()).add(id(module))
    tensor_classes = {{id(m.Tensor) for m in sys.modules.values()
                      if isinstance(m, types.ModuleType) and isinstance(getattr(m, "Tensor", None), type)
                      and getattr(m, "__name__", "").startswith("autograd_py")}}
    print(json.dumps({{
        "copies": sorted(p for p, ids in files.items() if len(ids) > 1),
        "tensor_classes": len(tensor_classes),
        "torch_is_autograd_py": torch is sys.modules["autograd_py"],
        "tensor_is_function": isinstance(torch.tensor, types.FunctionType),
        "autograd_function_is_one_class": torch.autograd.Function is torch.autograd.function.Function,
        "gradcheck_is_function": isinstance(torch.autograd.gradcheck, types.FunctionType),
        "grad_fn": type(y.grad_fn).__name__ if y.grad_fn is not None else None,
        "grad": x.grad.tolist(),
    }}))
""")


def run_fresh(before, spelling, after):
    code = CHECK.format(before=before, spelling=spelling.replace("\n", "\n"), after=after)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("order", ["spelling first", "import torch first"])
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_spelling_gives_one_package(spelling, order):
    before = "import torch" if order == "import torch first" else ""
    result = run_fresh(before, spelling, "")
    assert result["copies"] == []
    assert result["tensor_classes"] == 1
    assert result["torch_is_autograd_py"]
    assert result["tensor_is_function"]
    assert result["autograd_function_is_one_class"]
    assert result["gradcheck_is_function"]
    assert result["grad_fn"] == "DoubleBackward"
    assert result["grad"] == [2.0, 2.0]


def test_all_spellings_together_in_one_interpreter():
    result = run_fresh("", "\n".join(SPELLINGS), "import torch.autograd.function as function_module")
    assert result["copies"] == [] and result["tensor_classes"] == 1
    assert result["tensor_is_function"] and result["gradcheck_is_function"]
    assert result["grad_fn"] == "DoubleBackward"


def test_torch_tensor_is_not_a_module_name():
    # As in PyTorch (whose module is torch._tensor), ``import torch.tensor`` fails, and the
    # attempt leaves the torch.tensor function in place.
    code = textwrap.dedent("""
        import autograd_py
        autograd_py.install_as_torch()
        import torch
        try:
            import torch.tensor
        except ModuleNotFoundError as e:
            print(e)
        print(torch.tensor([1., 2.]))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.stdout.splitlines() == ["No module named 'torch.tensor'", "tensor([1., 2.])"], proc.stderr


def test_no_submodule_import_shadows_a_package_attribute():
    # Import every module of the package under its torch name; no function or class of a package
    # may be replaced by a submodule of the same name.
    code = textwrap.dedent("""
        import importlib, pkgutil, sys, types
        import autograd_py
        autograd_py.install_as_torch()
        names = [m.name for m in pkgutil.walk_packages(autograd_py.__path__, "autograd_py.")
                 if ".playground" not in m.name]
        modules = [importlib.import_module(n) for n in ["autograd_py"] + names]
        packages = {m.__name__: dict(vars(m)) for m in modules if hasattr(m, "__path__")}
        for n in names:
            importlib.import_module("torch" + n[len("autograd_py"):])
        for n, attrs in packages.items():
            for key, value in attrs.items():
                if not isinstance(value, types.ModuleType) and getattr(sys.modules[n], key, None) is not value:
                    print(f"{n}.{key}")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""


def test_a_stale_real_torch_submodule_is_replaced():
    # A harness that swapped real torch in and out can leave a real submodule behind; the next
    # aliased import puts ours back, so a custom Function still records its grad_fn.
    code = textwrap.dedent("""
        import sys, types
        import autograd_py
        autograd_py.install_as_torch()
        stale = types.ModuleType("torch.autograd.function")
        stale.Function = object
        sys.modules["torch.autograd.function"] = stale
        import torch.nn  # first aliased import of nn
        from torch.autograd.function import Function
        print(Function is autograd_py.autograd.Function)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.stdout.strip() == "True", proc.stderr
