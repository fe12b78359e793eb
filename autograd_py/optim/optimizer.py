"""``torch.optim.Optimizer``: parameter groups, per-parameter state, ``zero_grad`` and ``step``.

Updates write into the parameters' storage (bumping their version counter) without recording,
which is what PyTorch's ``step`` under ``no_grad`` amounts to. Arithmetic follows PyTorch's
single-tensor (CPU) code path op by op, in the parameter's dtype, so trajectories match.
"""
import copy
import warnings
from collections import defaultdict

import numpy as np

from .. import _fp, dtypes, grad_mode
from .._tensor import Tensor, _make
from ..saved_tensor import bump_version


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj):
    if isinstance(obj, Tensor):
        return "torch." + obj.dtype.legacy_name
    return type(obj).__name__


def fma(a, b, c):
    """``a * b + c`` rounded once, as PyTorch's vectorized CPU kernels compute ``add(alpha=)`` and
    ``lerp`` (they are compiled with FMA contraction): float32 (and float16) through the exact
    float64 product, float64 through Dekker's error-free product (``_fp.fma64``)."""
    dtype = c.dtype if isinstance(c, np.ndarray) else np.result_type(a, b)
    if dtype == np.float64 or dtype == np.float32:
        return _fp.fma(np.asarray(a, dtype), np.asarray(b, dtype), np.asarray(c, dtype))
    wide = np.float64
    return (np.asarray(a, dtype=dtype).astype(wide) * np.asarray(b, dtype=dtype).astype(wide)
            + np.asarray(c, dtype=dtype).astype(wide)).astype(dtype)


def write_(tensor, array):
    """Stores ``array`` into ``tensor``'s storage in place, as an untracked in-place op would."""
    tensor._data[...] = array
    bump_version(tensor)


def state_tensor(array):
    """A fresh tensor holding optimizer state (momentum buffers, moment estimates)."""
    return _make(array)


def step_tensor():
    """A step count at 0: a tensor of the default float dtype in PyTorch (Adam, RMSprop, Adagrad),
    whose value the updates read back as a Python float."""
    return _make(np.array(0.0, dtype=dtypes.get_default_dtype().np))


class Optimizer:
    """Base class of the optimizers.

    Args:
        params (iterable): Tensors to optimize, or dicts defining parameter groups (each with a
            ``'params'`` entry and optional per-group hyperparameters).
        defaults (dict): default hyperparameters for groups that do not set them.
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {_typename(params)}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Adds a group of parameters (a dict with ``'params'``) with its own hyperparameters."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(p))
            if not self.defaults.get("differentiable", None) and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter "
                                 f"{name}")
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        existing = {id(p) for g in self.param_groups for p in g["params"]}
        if existing & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Resets the gradients of all optimized tensors: to ``None`` (default) or to zeros in place."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    grad = p.grad
                    if grad.grad_fn is not None:
                        grad.detach_()
                    else:
                        grad.requires_grad_(False)
                    grad.zero_()

    def step(self, closure=None):
        """Performs one update. ``closure`` (optional) re-evaluates the model and returns the loss."""
        self._opt_called = True  # lets an lr scheduler check that step() came first
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        with grad_mode.no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        self._update(p, p.grad._data, group, self.state[p])
        return loss

    def _update(self, param, grad, group, state):
        raise NotImplementedError

    # ---------------------------------------------------------------- state dict
    def state_dict(self):
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}``."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Restores hyperparameters and state saved by :meth:`state_dict`."""
        state_dict = copy.deepcopy(state_dict)
        saved_groups = state_dict["param_groups"]
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        lookup = {}
        for group, saved in zip(self.param_groups, saved_groups):
            lookup.update(zip(saved["params"], group["params"]))
        self.state = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in lookup:
                param = lookup[key]
                self.state[param] = {
                    k: (v.to(param.dtype) if isinstance(v, Tensor) and k != "step" else v) for k, v in value.items()}
        for group, saved in zip(self.param_groups, saved_groups):
            params = group["params"]
            group.clear()
            group.update({k: v for k, v in saved.items() if k != "params"})
            group["params"] = params

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += "\n"
            text += f"Parameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
