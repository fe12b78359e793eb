"""``install_as_torch()``: lets ``import torch`` (and any ``torch.X`` submodule) resolve to autograd_py."""
import importlib
import importlib.abc
import importlib.util
import sys


class _TorchAliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves ``torch`` and ``torch.X.Y`` to the already-importable ``autograd_py.X.Y``.

    The alias maps to the very same module objects, so there is one ``Tensor`` class however a
    snippet spells its imports (``from torch.nn.utils import clip_grad_norm_``, ...).
    """

    def __init__(self):
        self._real_specs = {}

    @staticmethod
    def real_name(fullname):
        if fullname == "torch":
            return "autograd_py"
        if fullname.startswith("torch."):
            return "autograd_py" + fullname[len("torch"):]
        return None

    def find_spec(self, fullname, path=None, target=None):
        # Submodules only, and only while ``sys.modules['torch']`` is the alias: code that puts a
        # real torch back (a test harness, say) gets real torch submodules again.
        if not fullname.startswith("torch.") or sys.modules.get("torch") is not sys.modules.get("autograd_py"):
            return None
        real = self.real_name(fullname)
        real_spec = importlib.util.find_spec(real)
        if real_spec is None:
            return None
        return importlib.util.spec_from_loader(fullname, self,
                                               is_package=real_spec.submodule_search_locations is not None)

    def create_module(self, spec):
        module = importlib.import_module(self.real_name(spec.name))
        self._real_specs[spec.name] = module.__spec__
        _register_aliases()
        return module

    def exec_module(self, module):
        # The real module ran already; importlib has just stamped the alias spec on it, so put
        # its own back (its relative imports and reloads depend on it).
        module.__spec__ = self._real_specs.pop(module.__spec__.name, module.__spec__)


_finder = _TorchAliasFinder()


def _register_aliases():
    """Lists every loaded ``autograd_py.X`` as ``torch.X`` in ``sys.modules``.

    Importing a submodule the import system has not seen binds it on its parent package, which
    would shadow a function of the same name (``import torch.autograd.gradcheck`` would replace the
    ``gradcheck`` function by its module). Modules already listed are found, not loaded, so the
    package keeps its attributes, as in PyTorch, where they were all imported under their names.
    """
    for name, module in list(sys.modules.items()):
        if name.startswith("autograd_py.") and module is not None:
            alias = "torch" + name[len("autograd_py"):]
            current = sys.modules.get(alias)
            # A real torch submodule left behind (a harness swapped torch back and forth) would
            # hand out real PyTorch classes, such as a Function whose outputs have no grad_fn here.
            if current is None or not getattr(current, "__name__", "").startswith("autograd_py"):
                sys.modules[alias] = module


def install_as_torch():
    """Makes ``import torch`` and every ``torch.X`` submodule resolve to autograd_py.

    After it, ``import torch``, ``import torch.nn as nn``, ``from torch.autograd import
    Variable`` and ``from torch.nn.utils import clip_grad_norm_`` all work, so PyTorch snippets run
    unchanged. Calling it again is harmless.

    Returns:
        module: the ``autograd_py`` package (now also ``sys.modules['torch']``).

    Example::

        >>> import autograd_py
        >>> autograd_py.install_as_torch()
        >>> import torch
        >>> torch.tensor([1., 2.]) * 2
        tensor([2., 4.])
    """
    if _finder not in sys.meta_path:
        sys.meta_path.insert(0, _finder)
    # A real torch imported earlier would shadow the alias: replace it and its submodules.
    for name in [n for n in sys.modules if n == "torch" or n.startswith("torch.")]:
        if not getattr(sys.modules[name], "__name__", "").startswith("autograd_py"):
            del sys.modules[name]
    sys.modules["torch"] = importlib.import_module("autograd_py")
    # functorch, the transforms' old package, which PyTorch 2.13 still ships (with deprecation warnings)
    sys.modules["functorch"] = importlib.import_module("autograd_py.func.deprecated")
    _register_aliases()
    return sys.modules["torch"]
