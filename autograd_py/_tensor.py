"""The Tensor: a NumPy array plus autograd state, with PyTorch's attributes and methods.

Math lives in ``ops/``; the methods here only forward to it. In-place ops copy their result back
into this tensor's storage, bump the shared version counter and re-point ``grad_fn``.
"""
import numbers
import warnings
from weakref import ref as _weakref

import numpy as np

from . import dtypes, grad_mode
from .devices import CPU as _CPU
from .devices import device, refuse_cuda  # noqa: F401  (device: torch.device)
from ._warn import warn_once
from .node import AccumulateGrad, RemovableHandle, _HookDict
from .saved_tensor import bump_version

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
    "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
    "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor "
    "by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
    "for more information. (Triggered internally at "
    "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
)
ITEM_REQUIRES_GRAD_WARNING = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)"
)
NUMPY_REQUIRES_GRAD = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
REQUIRES_GRAD_NON_LEAF = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
    "in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)


# How PyTorch's C++ spells element types in the grad-assignment message.
_C_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
                 "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
                 "bool": "bool"}


def torch_strides(a):
    """PyTorch's strides (in elements) of the array ``a``. NumPy gives a fresh empty array all-zero
    strides, where PyTorch's contiguous ones count a size-0 dim as 1; other arrays agree."""
    if a.size or any(a.strides):
        return tuple(s // a.itemsize for s in a.strides)
    strides, step = [], 1
    for n in reversed(a.shape):
        strides.append(step)
        step *= max(n, 1)
    return tuple(reversed(strides))


class Size(tuple):
    """``torch.Size``: a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n


class Tensor:
    """A multi-dimensional array that can record operations for automatic differentiation.

    Create tensors with :func:`autograd_py.tensor` and friends. The legacy constructor
    ``Tensor(2, 3)`` (sizes) and ``Tensor([1, 2])`` (data) make float32 tensors, as in PyTorch.
    """

    # Class-level defaults keep tensor creation cheap: most tensors never set these.
    _requires_grad = False
    _grad_fn = None
    _output_nr = 0
    _grad = None
    _base = None
    _accumulator = None
    _retains_grad = False
    _detached_from = None
    _is_param = False
    _creation_meta = None  # how a view was made, when autograd must refuse some writes (ops.view_meta)
    _rg_from_base = False  # a view without history that requires grad only because its base does
    _fn_shape = None  # (grad_fn, shape) after an unrecorded in-place view op changed the shape
    # PyTorch keeps sizes inline; a tensor squeezed to 0-dim in place (max(dim)'s output, squeeze_)
    # still holds its old first size there, and ``x[9]`` on it reports that size.
    _size0_slot = 0
    # A view's history replaced by a write elsewhere: PyTorch regenerates it only when next read, so
    # the old node lives until then (an in-place-on-view saved output names it while alive).
    _kept_fn = None
    _fw_grads = None  # forward-mode tangents by level (``forward_mode``)
    __array_priority__ = 1000  # so ndarray + Tensor defers to Tensor.__radd__

    def __init__(self, *args, dtype=None, requires_grad=False):
        from .creation import legacy_new
        src = legacy_new(args, dtypes.get_default_dtype() if dtype is None else dtype)
        self._data = src._data
        self._version_counter = grad_mode.new_version_counter()
        if requires_grad:
            self._set_requires_grad(True)

    # ---------------------------------------------------------------- attributes
    @property
    def data(self):
        """The same storage, outside autograd: changes through it are not tracked (nor versioned)."""
        out = _make(self._data)
        out._size0_slot = self._size0_slot
        return out

    @data.setter
    def data(self, value):
        self._data = value._data if isinstance(value, Tensor) else np.asarray(value)

    @property
    def requires_grad(self):
        # A view requires grad whenever its base does (PyTorch's is_view && base.requires_grad()).
        return self._requires_grad or (self._base is not None and self._base._requires_grad)

    @requires_grad.setter
    def requires_grad(self, flag):
        self._set_requires_grad(flag)

    def requires_grad_(self, requires_grad=True):
        """Sets ``requires_grad`` in place on a leaf. Returns this tensor."""
        if grad_mode.transform_depth[0]:
            raise RuntimeError(grad_mode.TRANSFORM_REQUIRES_GRAD)
        return self._set_requires_grad(requires_grad)

    def _set_requires_grad(self, requires_grad):
        """``requires_grad_`` without the torch.func check: the setter, ``Parameter`` and the
        transforms' own leaves, which PyTorch allows inside a transformed function."""
        if self._grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(REQUIRES_GRAD_NON_LEAF)
            return self
        if requires_grad and self._version_counter.__class__ is grad_mode.InferenceCounter \
                and not grad_mode._inference[0]:
            raise RuntimeError(grad_mode.INFERENCE_REQUIRES_GRAD)
        if requires_grad and self._data.dtype.kind not in "fc":
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if self._base is not None and self._base._requires_grad:
            # A view requires grad while its base does; its own flag decides only whether it
            # has an accumulator (PyTorch's requires_grad_ on a view without history).
            self._requires_grad, self._rg_from_base = True, not requires_grad
            return self
        self._requires_grad = bool(requires_grad)
        self._rg_from_base = False
        if requires_grad and grad_mode.transform_depth[0]:
            from .func._levels import own_new_leaf
            own_new_leaf(self)  # a leaf made inside a torch.func transform belongs to it
        views = self.__dict__.get("_views")
        if views:
            _follow_base(views, self._requires_grad)
        return self

    @property
    def grad_fn(self):
        fn = self._grad_fn
        if self._kept_fn is not None:
            from .ops.inplace import settle
            settle(self)
        if fn is None and self._creation_meta is not None and "_stale_view" in self.__dict__:
            from .ops.view_meta import stale_error
            raise stale_error(self)
        return fn

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def output_nr(self):
        """Which output of its ``grad_fn`` this tensor is (0 for most ops; i for ``unbind(...)[i]``)."""
        return self._output_nr

    @property
    def retains_grad(self):
        return self._retains_grad

    @property
    def grad(self):
        # A stale view still holds its old grad_fn in PyTorch (regenerated only when read): not a leaf.
        fn = self._grad_fn if "_stale_view" not in self.__dict__ else self._stale_view[0]
        if self._kept_fn is not None:  # regenerated but unread: PyTorch's is_leaf() sees the old field
            from .ops.inplace import UNREAD_LEAF
            fn = None if self._kept_fn is UNREAD_LEAF else self._kept_fn
        if fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value._data.shape)}' to a tensor of size "
                    f"'{list(self._data.shape)}'. Please ensure that the gradient and the tensor are the same size")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_C_TYPE_NAMES[value._data.dtype.name]}' to a "
                    f"tensor with grad_dtype '{self.dtype.legacy_name[:-6]}'. The gradient must match the tensor's "
                    "grad_dtype (defaults to the tensor's dtype). You can set the tensor's grad_dtype attribute "
                    "with a specific dtype, or None to allow any dtype. Set grad_dtype with caution. Diverging the "
                    "dtypes of a tensor and its gradient may break downstream systems that assume they match.")
        self._grad = value

    @property
    def _version(self):
        if self._version_counter.__class__ is grad_mode.InferenceCounter:
            raise RuntimeError(grad_mode.INFERENCE_VERSION)
        return self._version_counter[0]

    def is_inference(self):
        """Returns True if this tensor was created in inference mode (or is a view of one that was)."""
        return self._version_counter.__class__ is grad_mode.InferenceCounter

    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    def dim(self):
        return self._data.ndim

    ndimension = dim

    @property
    def ndim(self):
        return self._data.ndim

    def numel(self):
        return int(self._data.size)

    nelement = numel

    @property
    def dtype(self):
        return dtypes._FROM_NP[self._data.dtype]

    # A meta tensor (``to('meta')``) keeps a shape and dtype only; its values are never read.
    _is_meta = False

    @property
    def device(self):
        if self._is_meta:
            from .devices import META
            return META
        return _CPU

    @property
    def is_cuda(self):
        return False

    @property
    def is_cpu(self):
        return not self._is_meta

    @property
    def is_meta(self):
        return self._is_meta

    def get_device(self):
        """The CUDA device index, or -1 for a CPU tensor (always, here)."""
        return -1

    def cpu(self, memory_format=None):
        """This tensor on the CPU: the tensor itself, as every tensor is there."""
        return self

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """Raises PyTorch's error for a build without CUDA."""
        refuse_cuda(device)

    def is_floating_point(self):
        return self._data.dtype.kind == "f"

    def is_contiguous(self, memory_format=None):
        return bool(self._data.flags.c_contiguous)

    def type(self, dtype=None):
        if dtype is None:
            return "torch." + self.dtype.legacy_name
        if isinstance(dtype, str):
            dtype = next(d for d in dtypes.ALL if "torch." + d.legacy_name == dtype)
        return self.to(getattr(dtype, "_dtype", dtype))

    def element_size(self):
        return self._data.itemsize

    def stride(self, dim=None):
        strides = torch_strides(self._data)
        return strides if dim is None else strides[_wrap_dim(dim, self._data.ndim)]

    def data_ptr(self):
        return self._data.__array_interface__["data"][0]

    # ---------------------------------------------------------------- conversion
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.reshape(()).item()

    def tolist(self):
        if "_zerotensor" in self.__dict__:  # PyTorch's efficient zero tensor has no storage
            raise RuntimeError("tolist() shouldn't be called on a tensor with unallocated storage")
        return self._data.tolist()

    def _is_zerotensor(self):
        """Whether this is one of PyTorch's efficient zero tensors (the real ``sgn`` backward's result)."""
        return "_zerotensor" in self.__dict__

    def numpy(self, *args, force=False):
        """The tensor's data as a NumPy array sharing its memory.

        PyTorch refuses it for a tensor that requires grad while grad mode is on, since the array
        is outside autograd; under ``no_grad`` (or with ``force=True``) it is allowed.

        Args:
            force (bool, optional): return the array even if the tensor requires grad. Defaults to
                ``False``.
        """
        if args:
            raise TypeError(f"numpy() takes 0 positional arguments but {len(args)} was given")
        if self._requires_grad and not force and grad_mode._state[0]:
            raise RuntimeError(NUMPY_REQUIRES_GRAD)
        if "_zerotensor" in self.__dict__ and not force:
            raise RuntimeError(" Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        if self._requires_grad and grad_mode._state[0]:
            raise RuntimeError(NUMPY_REQUIRES_GRAD)
        return self._data if dtype is None else self._data.astype(dtype)

    def __float__(self):
        # PyTorch 2.13 warns here, not in item() or int().
        if self._requires_grad and grad_mode._state[0]:
            warn_once(ITEM_REQUIRES_GRAD_WARNING)
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()))

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    __hash__ = object.__hash__

    def __repr__(self):
        from .formatting import tensor_repr
        return tensor_repr(self)

    def __format__(self, spec):
        # PyTorch formats a plain 0-dim tensor as its number, even with no spec: f"{t}" gives 3.0
        if self._data.ndim == 0 and (spec or type(self) is Tensor):
            return self.item().__format__(spec)
        return object.__format__(self, spec) if spec else repr(self)

    def __reduce_ex__(self, proto):
        return (_rebuild, (self._data.copy(), self._requires_grad))

    def __deepcopy__(self, memo):
        if self._grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the "
                               "deepcopy protocol at the moment.  If you were attempting to deepcopy a "
                               "module, this may be because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        new = type(self).__new__(type(self))
        new.__dict__.update({k: v for k, v in self.__dict__.items() if k not in ("_accumulator",)})
        new._data = self._data.copy()
        new._version_counter = [0]
        if self._grad is not None:
            new._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = new
        return new

    # ---------------------------------------------------------------- autograd
    def _get_accumulator(self):
        acc = self._accumulator
        if acc is None:
            acc = self._accumulator = AccumulateGrad(self)
        return acc

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Computes the gradient of this tensor w.r.t. graph leaves and accumulates it in ``.grad``.

        Args:
            gradient (Tensor, optional): the gradient w.r.t. this tensor, i.e. the vector in the
                vector-Jacobian product. Required when this tensor is not a scalar.
            retain_graph (bool, optional): keep saved tensors so backward can run again. Defaults to
                ``create_graph``.
            create_graph (bool, optional): record the backward pass for higher-order gradients.
                Defaults to ``False``.
            inputs (sequence of Tensor, optional): accumulate only into these tensors.

        Example::

            >>> x = torch.ones(2, 3, requires_grad=True)
            >>> torch.mm(x, torch.ones(3, 4)).backward(torch.tensor([[1., 2, 3, 4], [5, 6, 7, 8]]))
            >>> x.grad
            tensor([[10., 10., 10.],
                    [26., 26., 26.]])
        """
        from .autograd.api import backward
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self):
        """A new tensor sharing storage and version counter, cut off from the graph."""
        out = _make(self._data)
        out._version_counter = self._version_counter
        out._detached_from = self
        _note_alias(self, out)
        out._size0_slot = self._size0_slot
        if "_zerotensor" in self.__dict__:
            out._zerotensor = True  # an efficient zero tensor's alias is one too
        return out

    def detach_(self):
        """Detaches this tensor from the graph in place, making it a leaf."""
        if self._base is not None and self._base._requires_grad:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are using "
                               "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view "
                               "is set as True, gradients are views of DDP buckets, and hence detach_() "
                               "cannot be called on these gradients. To fix this error, please refer to "
                               "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                               "solution.")
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        self._fw_grads = None  # its forward-mode tangents go too, as PyTorch's detach_
        return self

    def retain_grad(self):
        """Makes a non-leaf tensor keep its ``.grad`` during backward (a no-op on leaves)."""
        if self._grad_fn is None:
            if not self._requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return
        if self._retains_grad:
            return
        import weakref
        fn = self._grad_fn
        if fn._retain_grad_refs is None:
            fn._retain_grad_refs = {}
        fn._retain_grad_refs[self._output_nr] = weakref.ref(self)
        self._retains_grad = True

    def register_hook(self, hook):
        """Registers ``hook(grad) -> Tensor or None``, called with this tensor's gradient.

        Returns:
            A handle with ``remove()``.
        """
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if "_hooked" not in self.__dict__:
            # PyTorch reads grad_fn when the first hook comes (after making its hook dict), so a view
            # whose base was written since is regenerated here, or raises its view error.
            self._hooked = True
            self.grad_fn  # noqa: B018
        if self._grad_fn is not None:
            # a view regenerated since its first hook keeps PyTorch's hook dict on its old grad_fn
            fn, nr = self.__dict__.get("_hook_dict_fn") or (self._grad_fn, self._output_nr)
            return fn._register_tensor_hook(hook, nr)
        return self._get_accumulator()._register_tensor_hook(hook, 0)

    def register_post_accumulate_grad_hook(self, hook):
        """Registers ``hook(tensor)``, called after a leaf's ``.grad`` was accumulated."""
        if self._grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        acc = self._get_accumulator()
        if acc._post_hooks is None:
            acc._post_hooks = _HookDict()
        handle = RemovableHandle(acc._post_hooks)
        acc._post_hooks[handle.id] = hook
        return handle

    # ---------------------------------------------------------------- helpers for ops/engine
    def _detached_copy(self):
        return _make(self._data.copy())

    def _accumulate_(self, grad):
        """``.grad += grad`` without autograd (used by AccumulateGrad)."""
        if self._data.flags.writeable and (self._data.shape == grad._data.shape or np.broadcast_shapes(
                self._data.shape, grad._data.shape) == self._data.shape):  # (a leaf unsqueeze_'d since)
            np.add(self._data, grad._data, out=self._data, casting="unsafe")
            bump_version(self)
        else:
            self._data = self._data + grad._data

    def _sum_to(self, shape, node=None, index=0):
        from .ops.shape import sum_to
        try:
            return sum_to(self, shape)
        except ValueError:
            name = node.name() if node is not None else "backward"
            raise RuntimeError(
                f"Function {name} returned an invalid gradient at index {index} - got "
                f"{list(self._data.shape)} but expected shape compatible with {list(shape)}") from None

    def _cast(self, np_dtype):
        from .ops.pointwise import to_dtype
        return to_dtype(self, np_dtype)


def _make(data, requires_grad=False):
    """Wraps an ndarray in a Tensor with no history (the hot path for every op)."""
    t = _new(Tensor)
    if data.__class__ is not _ndarray:
        data = np.asarray(data)
    t._data = data
    t._version_counter = [0] if not _inference[0] else grad_mode.InferenceCounter((0,))
    if requires_grad:
        t._requires_grad = True
    return t


_new = object.__new__
_inference = grad_mode._inference
_ndarray = np.ndarray


def _follow_base(views, flag):
    """The base's ``requires_grad`` changed: its views without history (and without a flag of
    their own) follow it, as PyTorch's view ``requires_grad()`` reads the base's."""
    for ref in views:
        v = ref()
        if v is None or v._grad_fn is not None:
            continue
        if v._rg_from_base or not v._requires_grad:
            v._requires_grad = v._rg_from_base = flag
        if flag and "_version_moved" in v.__dict__:  # written since it was taken: regenerated on read
            from .ops.inplace import regenerate
            regenerate(v, v._base)


def _note_alias(src, alias):
    """Remembers a detach() alias on the tensor it shares a version counter with, so a write through
    ``src`` reaches the alias's views too (PyTorch regenerates any view whose version moved)."""
    aliases = src.__dict__.setdefault("_aliases", [])
    n = len(aliases)
    if n >= 8 and not n & (n - 1):
        # a detach per step must not pile up; pruned at each doubling, so that aliases a collection
        # has yet to free (a leaf and its AccumulateGrad hold each other) cost no sweep per detach
        aliases[:] = [r for r in aliases if r() is not None]
    aliases.append(_weakref(alias))


def _rebuild(data, requires_grad):
    return _make(data, requires_grad)


def _wrap_dim(dim, ndim):
    lo = -max(ndim, 1)
    hi = max(ndim, 1) - 1
    if not lo <= dim <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})")
    # A 0-dim tensor takes dim 0 or -1 as its one (size-1) dim; callers treat it as no NumPy axis.
    return dim + ndim if dim < 0 and ndim else 0 if dim < 0 else dim


def _wrap_dims(dims, ndim):
    """A dim list (or one int) as sorted NumPy axes; a 0-dim tensor's dim 0 is no axis at all."""
    seen = set()
    for d in (dims,) if isinstance(dims, int) else dims:
        w = _wrap_dim(d, ndim)
        if w in seen:
            raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
        seen.add(w)
    return tuple(sorted(seen)) if ndim else ()


def is_tensor(obj):
    return isinstance(obj, Tensor)


def _is_number(x):
    return isinstance(x, numbers.Number) and not isinstance(x, Tensor)
