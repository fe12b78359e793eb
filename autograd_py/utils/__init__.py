"""``torch.utils``: data loading (``torch.utils.data``)."""
from . import data  # noqa: F401  (torch.utils.data works once torch.utils is imported)
