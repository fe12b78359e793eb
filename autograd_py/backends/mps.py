"""``torch.backends.mps``: Apple's Metal backend, not built here."""


def is_available():
    """Returns False: MPS is not available."""
    return False


def is_built():
    """Returns False: this build has no MPS support."""
    return False
