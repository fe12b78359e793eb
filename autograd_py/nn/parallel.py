"""``torch.nn.parallel``: ``DataParallel``, which on a machine without GPUs just runs its module."""
from .modules.module import Module


class DataParallel(Module):
    """Wraps ``module``; with no GPU available (always, here) ``forward`` calls it unchanged.

    Args:
        module (Module): the module to run.
        device_ids (list of int, optional): ignored without GPUs. Defaults to None.
        output_device (int, optional): ignored without GPUs. Defaults to None.
        dim (int): the batch dimension. Defaults to ``0``.

    Example::

        >>> net = nn.DataParallel(nn.Linear(2, 1))
        >>> net(torch.ones(3, 2)).shape
        torch.Size([3, 1])
    """

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.device_ids = []
        self.dim = dim

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)


DataParallel.__module__ = "torch.nn.parallel.data_parallel"
