"""``torch.autograd.graph``: the ``Node`` base class, for ``isinstance`` checks on ``grad_fn``."""
from ..node import Node

__all__ = ["Node"]
