"""Containers: ``Sequential``, ``ModuleList`` and ``ModuleDict``."""
from collections import OrderedDict

from .module import Module, _addindent


class _ModuleSequence(Module):
    """What Sequential and ModuleList share: modules held in order, indexed by position."""

    def _key(self, idx):
        keys = list(self._modules.keys())
        if not -len(keys) <= idx < len(keys):
            raise IndexError(f"index {idx} is out of range")
        return keys[idx]

    def _renumber(self, modules):
        # The keys become 0..n-1 again, as PyTorch does after a deletion or an insertion.
        self._modules.clear()
        for i, module in enumerate(modules):
            self._modules[str(i)] = module

    def __setitem__(self, idx, module):
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx):
        keys = list(self._modules.keys())
        for key in keys[idx] if isinstance(idx, slice) else [self._key(idx)]:
            del self._modules[key]
        self._renumber(list(self._modules.values()))

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self


class Sequential(_ModuleSequence):
    """Runs its modules one after another, feeding each output to the next.

    Args:
        *args: modules, or a single OrderedDict from names to modules.

    Example::

        >>> model = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
        >>> model
        Sequential(
          (0): Linear(in_features=2, out_features=3, bias=True)
          (1): ReLU()
        )
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key(idx)]

    def insert(self, index, module):
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        items = list(self._modules.values())
        items.insert(index, module)
        self._renumber(items)
        return self

    def forward(self, input):
        for module in self:
            input = module(input)
        return input


class ModuleList(_ModuleSequence):
    """A list of modules whose parameters the parent module sees.

    Example::

        >>> layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
        >>> len(list(layers.parameters()))
        6
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        return self._modules[self._key(idx)]

    def __iadd__(self, modules):
        return self.extend(modules)

    def insert(self, index, module):
        items = list(self._modules.values())
        items.insert(index, module)
        self._modules.clear()
        for i, m in enumerate(items):
            self.add_module(str(i), m)

    def __repr__(self):
        # Runs of identical entries print once, as "(0-2): 3 x Linear(...)", like PyTorch.
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        runs = []
        for i, r in enumerate(reprs):
            if runs and runs[-1][2] == r:
                runs[-1][1] = i
            else:
                runs.append([i, i, r])
        lines = []
        for start, end, r in runs:
            text = f"({start}): {r}" if start == end else f"({start}-{end}): {end - start + 1} x {r}"
            lines.append(_addindent(text, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules (insertion ordered) whose parameters the parent module sees."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()

    def pop(self, key):
        return self._modules.pop(key)

    def clear(self):
        self._modules.clear()

    def update(self, modules):
        items = modules.items() if hasattr(modules, "items") else modules
        for key, module in items:
            self[key] = module
