"""``torch.device`` and the default device. Every tensor lives on the CPU; asking for CUDA (or any
other accelerator) fails with PyTorch's own message for a CPU-only build."""

DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
NO_CUDA = "Torch not compiled with CUDA enabled"
NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class device:
    """Where a tensor is stored: ``torch.device('cpu')``, ``torch.device('cuda:0')``, ...

    Args:
        type (str or torch.device): a device type such as ``'cpu'`` or ``'cuda'``, optionally with
            an index (``'cuda:1'``), or another device to copy.
        index (int, optional): the device's index. Defaults to no index.

    Example::

        >>> torch.device("cuda" if torch.cuda.is_available() else "cpu")
        device(type='cpu')
        >>> torch.device("cuda", 1)
        device(type='cuda', index=1)
    """

    __slots__ = ("_type", "_index")

    def __init__(self, *args, **kwargs):
        type_, index = _parse_args(args, kwargs)
        if isinstance(type_, device):
            type_, index = type_.type, type_.index
        elif isinstance(type_, int) and not isinstance(type_, bool):
            raise RuntimeError(NO_ACCELERATOR)
        else:
            type_, parsed = _parse_string(type_)
            if index is None:
                index = parsed
            elif parsed is not None:
                raise RuntimeError(f"type (string) must not include an index because index was passed "
                                   f"explicitly: {args[0] if args else kwargs['type']}")
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self._type, self._index = type_, index

    @property
    def type(self):
        return self._type

    @property
    def index(self):
        return self._index

    def __repr__(self):
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return False
        return self._type == other._type and self._index == other._index

    def __hash__(self):
        return hash((self._type, self._index))

    def __reduce__(self):
        return device, ((self._type,) if self._index is None else (self._type, self._index))


device.__module__ = "torch"
_Device = device


def _parse_args(args, kwargs):
    if len(args) > 2 or (not args and "type" not in kwargs) or set(kwargs) - {"type", "index"}:
        got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(f"device() received an invalid combination of arguments - got ({got}{', ' if got else ''}), "
                        "but expected one of:\n * (torch.device device)\n * (str type, int index = -1)\n")
    type_ = args[0] if args else kwargs["type"]
    index = args[1] if len(args) > 1 else kwargs.get("index")
    if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
        raise TypeError(f"device(): argument 'index' (position 2) must be int, not {type(index).__name__}")
    return type_, index


def _parse_string(spec):
    if not isinstance(spec, str):
        raise TypeError(f"device(): argument 'type' (position 1) must be str, not {type(spec).__name__}")
    if not spec:
        raise RuntimeError("Device string must not be empty")
    name, colon, index = spec.partition(":")
    if name not in DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device string: "
                           f"{spec}")
    if not colon:
        return name, None
    # PyTorch accepts only a plain decimal index without leading zeros ("cuda:01" is invalid).
    if not index.isdigit() or (len(index) > 1 and index[0] == "0"):
        raise RuntimeError(f"Invalid device string: '{spec}'")
    return name, int(index)


CPU = device("cpu")
META = device("meta")
_default = [None]  # set_default_device's device, or None for the CPU


def as_device(spec, allow_meta=False):
    """The device that a ``device=`` argument names, after PyTorch's checks (CUDA is not compiled in).
    ``allow_meta``: the caller can make meta tensors (shapes without data, as ``Module.to('meta')``)."""
    if spec is None:
        spec = _default[0]
        if spec is None:
            return CPU
    dev = spec if isinstance(spec, device) else device(spec)
    if dev.type == "cpu":
        return CPU
    if dev.type == "cuda":
        raise AssertionError(NO_CUDA)
    if dev.type == "meta" and allow_meta:
        return META
    raise RuntimeError(f"PyTorch is not linked with support for {dev.type} devices")


def refuse_cuda(device=None):
    """``.cuda(device)`` of a tensor or module: PyTorch's error for a build without CUDA."""
    if isinstance(device, int) and not isinstance(device, bool):
        raise RuntimeError(NO_ACCELERATOR)
    raise AssertionError(NO_CUDA)


def set_default_device(device):
    """Sets the device that factories like ``torch.zeros`` use when no ``device=`` is given.

    PyTorch checks the name now, but fails for CUDA only when a tensor is made.

    Args:
        device (torch.device or str or None): the new default; ``None`` means the CPU.
    """
    _default[0] = device if device is None or isinstance(device, _Device) else _Device(device)


def get_default_device():
    """Returns the default device of factories (``device(type='cpu')`` unless set otherwise)."""
    dev = _default[0]
    if dev is not None and dev.type == "cpu":
        return dev
    return as_device(None)
