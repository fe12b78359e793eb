"""``torch.backends``: which backends are built in (none but the CPU) and their flags."""
from . import cuda, cudnn, mps, opt_einsum  # noqa: F401  (torch.backends.mps works right after import torch)
