"""Global grad mode: ``no_grad``, ``enable_grad``, ``set_grad_enabled`` and friends."""
import functools

# A one-element list so the hot path reads a local without a function call.
_state = [True]
_inference = [False]
# Above 0 while a torch.func transform (or vmap) runs the user's function: PyTorch refuses
# ``requires_grad_()`` there.
transform_depth = [0]
TRANSFORM_REQUIRES_GRAD = (
    "You are attempting to call Tensor.requires_grad_() (or perhaps using torch.autograd.functional.* APIs) inside "
    "of a function being transformed by a functorch transform. This is unsupported, please attempt to use the "
    "functorch transforms (e.g. grad, vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function "
    "being transformed instead.")


def is_grad_enabled():
    """Returns True if grad mode is currently enabled."""
    return _state[0]


class _GradModeContext:
    """Base for the grad-mode context managers; each is also usable as a decorator."""

    _mode = True

    def __enter__(self):
        self._prev = _state[0]
        _state[0] = self._mode

    def __exit__(self, *exc):
        _state[0] = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return self.__class__()


class _NoParamDecorator(_GradModeContext):
    """Also usable bare, as ``@torch.no_grad`` without parentheses, as PyTorch allows."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamDecorator):
    """Context manager (and decorator) that disables gradient recording.

    Example::

        >>> x = torch.tensor([1.], requires_grad=True)
        >>> with torch.no_grad():
        ...     y = x * 2
        >>> y.requires_grad
        False
    """

    _mode = False


class enable_grad(_NoParamDecorator):
    """Context manager (and decorator) that enables gradient recording inside ``no_grad``."""

    _mode = True


class inference_mode(_GradModeContext):
    """Context manager (and decorator) for inference: no graph is recorded and tensors created
    inside are *inference tensors*, which skip version counting.

    Inference tensors cannot be saved for backward or updated in place outside inference mode, and
    ``requires_grad`` cannot be set on them there; ``clone()`` one to get a normal tensor.

    Args:
        mode (bool, optional): ``True`` enables inference mode, ``False`` disables it (and enables
            grad mode, as PyTorch does). Defaults to ``True``.

    Example::

        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.inference_mode():
        ...     y = x * 2
        >>> y.requires_grad, y.is_inference()
        (False, True)
    """

    def __new__(cls, mode=True):
        if callable(mode):  # used bare: @torch.inference_mode
            return cls()(mode)
        return object.__new__(cls)

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def __enter__(self):
        self._prev = _state[0], _inference[0]
        _inference[0] = self.mode
        _state[0] = not self.mode

    def __exit__(self, *exc):
        _state[0], _inference[0] = self._prev
        return False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return inference_mode(self.mode)


INFERENCE_VERSION = "Inference tensors do not track version counter."
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
    "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")
INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
    "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")
INFERENCE_REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."


class InferenceCounter(list):
    """The version counter of an inference tensor (shared by its views and detached copies, so they
    are inference tensors too). Nothing may read it or save the tensor, and outside inference mode
    bumping it fails: as in PyTorch, an in-place op has then written already, and raises."""

    def __setitem__(self, index, value):
        if not _inference[0]:
            raise RuntimeError(INFERENCE_INPLACE)
        list.__setitem__(self, index, value)


def new_version_counter():
    """A normal tensor's version counter, or an inference tensor's inside inference mode."""
    return InferenceCounter((0,)) if _inference[0] else [0]


def is_inference_mode_enabled():
    """Returns True if inference mode is currently enabled."""
    return _inference[0]


class set_grad_enabled(_GradModeContext):
    """Sets grad mode on or off. Works as a function, a context manager or a decorator.

    Args:
        mode (bool): whether to enable grad mode.
    """

    def __init__(self, mode):
        self._prev = _state[0]
        self._mode = bool(mode)
        _state[0] = self._mode

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _state[0] = self._prev
        return False

    def __call__(self, fn):
        _state[0] = self._prev
        mode = self._mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)

        return wrapper

    def clone(self):
        return set_grad_enabled(self._mode)


_anomaly = [False]


def is_anomaly_enabled():
    return _anomaly[0]


class set_detect_anomaly:
    """Turns anomaly detection on or off; it only changes the hint in error messages here."""

    def __init__(self, mode, check_nan=True):
        self._prev = _anomaly[0]
        _anomaly[0] = bool(mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _anomaly[0] = self._prev
        return False


class detect_anomaly(set_detect_anomaly):
    def __init__(self, check_nan=True):
        super().__init__(True, check_nan)
