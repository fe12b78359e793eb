"""``torch.backends.cudnn``: not available, but its flags can be set, as tutorials do for
reproducibility (``torch.backends.cudnn.deterministic = True``)."""
enabled = True
benchmark = False
deterministic = False
allow_tf32 = True


def is_available():
    """Returns False: cuDNN is not available."""
    return False


def version():
    """Returns None: no cuDNN version is linked."""
    return None
