"""The frameworks under test, in table order; torch first, as every ratio is against it.

``load()`` imports a framework (raising ImportError when it is not installed) and returns its
version and one factory per table row: ``factory(data) -> (run, to_numpy)``.
"""
import functools
import subprocess
from pathlib import Path

import fw_hips
import fw_mygrad
import fw_torchlike


class Framework:
    def __init__(self, name, load):
        self.name = name
        self.load = load


def _load_torch():
    import torch
    torch.set_num_threads(1)
    return {"version": torch.__version__,
            "workloads": {k: functools.partial(fn, torch) for k, fn in fw_torchlike.WORKLOADS.items()}}


def _git_state(path):
    """``git abc1234`` of the checkout holding ``path``, ``+ local changes`` when it differs from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=path, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "."], cwd=path, capture_output=True,
                               text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return f" (git {head}{' + local changes' if dirty else ''})" if head else ""


def _load_autograd_py():
    import autograd_py
    return {"version": autograd_py.__version__ + _git_state(Path(autograd_py.__file__).parent),
            "workloads": {k: functools.partial(fn, autograd_py) for k, fn in fw_torchlike.WORKLOADS.items()}}


def _functional_loader(module, dist):
    def load():
        __import__(dist)
        return {"version": module.version(), "workloads": dict(module.WORKLOADS)}
    return load


FRAMEWORKS = [
    Framework("torch", _load_torch),
    Framework("autograd_py", _load_autograd_py),
    Framework(fw_mygrad.NAME, _functional_loader(fw_mygrad, "mygrad")),
    Framework(fw_hips.NAME, _functional_loader(fw_hips, "autograd")),
]
