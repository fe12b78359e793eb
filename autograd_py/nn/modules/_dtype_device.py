"""``Module.to`` and its kin (``double``, ``float``, ``cpu``, ``cuda``): a module's floating point
parameters and buffers cast to a dtype in place, or made meta tensors; devices other than the CPU
and meta are absent.
"""
from ... import grad_mode
from ..._tensor import Tensor


class ModuleDtypeDevice:
    """The dtype and device part of ``module.Module`` (a mixin: it uses the module's ``modules()``,
    ``_parameters`` and ``_buffers``)."""

    def _cast(self, np_dtype_fn):
        with grad_mode.no_grad():
            for module in self.modules():
                for store in (module._parameters, module._buffers):
                    for value in store.values():
                        if value is not None and value.is_floating_point():
                            new = np_dtype_fn(value)
                            if new is not None:
                                value.data = new
                                if value._grad is not None:
                                    value._grad = value._grad.to(new.dtype)
        return self

    def _to_meta(self):
        """Parameters and buffers become meta tensors: shapes for ``functional_call``, no values."""
        for module in self.modules():
            for store in (module._parameters, module._buffers):
                for value in store.values():
                    if value is not None:
                        value._is_meta = True
                        if value._grad is not None:
                            value._grad._is_meta = True

    def to(self, *args, **kwargs):
        """Converts floating point parameters and buffers to a dtype, or (``'meta'``) to meta
        tensors; devices other than the CPU and meta are absent."""
        from ...devices import as_device
        from ...devices import device as _device
        from ...dtypes import dtype as _dtype
        from ...devices import META
        meta = kwargs.get("device") is not None and as_device(kwargs["device"], allow_meta=True) is META
        target = kwargs.get("dtype")
        for a in args:
            if isinstance(a, _dtype):
                target = a
            elif isinstance(a, Tensor):
                target = a.dtype
            elif isinstance(a, (str, int, _device)):
                meta = as_device(a, allow_meta=True) is META  # PyTorch's errors for CUDA and unknown devices
        if meta:
            self._to_meta()
        if target is None:
            return self
        if not target.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={target}")
        return self._cast(lambda v: v.to(target) if v.dtype is not target else None)

    def double(self):
        from ... import dtypes
        return self.to(dtypes.float64)

    def float(self):
        from ... import dtypes
        return self.to(dtypes.float32)

    def cpu(self):
        return self

    def cuda(self, device=None):
        from ...devices import refuse_cuda
        refuse_cuda(device)
