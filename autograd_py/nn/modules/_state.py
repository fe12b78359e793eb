"""``Module.state_dict`` / ``load_state_dict``: names to tensors and back, as PyTorch does it."""
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from ... import grad_mode
from ..._tensor import Tensor


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns; prints ``<All keys matched successfully>`` when both are empty."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _local_entries(module):
    """A module's own (name, tensor) pairs that go into a state dict: parameters, then persistent buffers."""
    entries = [(n, v) for n, v in module._parameters.items() if v is not None]
    entries += [(n, v) for n, v in module._buffers.items()
                if v is not None and n not in module._non_persistent_buffers_set]
    return entries


def state_dict(root, destination=None, prefix="", keep_vars=False):
    out = OrderedDict() if destination is None else destination
    for module_prefix, module in root.named_modules(prefix=prefix, remove_duplicate=False):
        dot = module_prefix + ("." if module_prefix else "")
        for name, value in _local_entries(module):
            out[dot + name] = value if keep_vars else value.detach()
    return out


def load_state_dict(root, state_dict, strict=True):
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing, unexpected, errors = [], [], []
    with grad_mode.no_grad():
        for module_prefix, module in root.named_modules(remove_duplicate=False):
            dot = module_prefix + ("." if module_prefix else "")
            local = _local_entries(module)
            for name, value in local:
                key = dot + name
                if key in state_dict:
                    _load_one(key, value, state_dict[key], errors)
                else:
                    missing.append(key)
            # A key is unexpected at the module its prefix leads to when it names nothing there.
            names = {n for n, _ in local}
            for key in state_dict:
                if key.startswith(dot):
                    head = key[len(dot):].split(".", 1)[0]
                    if head not in module._modules and head not in names:
                        unexpected.append(key)
    if strict:
        if unexpected:
            errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected)))
        if missing:
            errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
    if errors:
        raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
            type(root).__name__, "\n\t".join(errors)))
    return _IncompatibleKeys(missing, unexpected)


def _load_one(key, current, loaded, errors):
    if not isinstance(loaded, Tensor):
        errors.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like object '
                      f"from checkpoint but received {type(loaded)}")
        return
    if loaded.shape != current.shape:
        errors.append(f"size mismatch for {key}: copying a param with shape {loaded.shape} from checkpoint, "
                      f"the shape in current model is {current.shape}.")
        return
    current.copy_(loaded)
