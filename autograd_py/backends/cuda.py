"""``torch.backends.cuda``: not built here."""


def is_built():
    """Returns False: this build has no CUDA support."""
    return False
