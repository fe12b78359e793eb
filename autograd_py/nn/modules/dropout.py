"""``Dropout``: active in training mode only."""
from .. import functional as F
from .module import Module


class Dropout(Module):
    """Zeroes elements with probability ``p`` while training and scales the rest by ``1 / (1 - p)``.

    In ``eval()`` mode it returns its input unchanged.

    Args:
        p (float, optional): probability of zeroing an element. Defaults to 0.5.
        inplace (bool, optional): overwrite the input. Defaults to ``False``.
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"
