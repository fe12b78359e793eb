"""In-place samplers, bound as Tensor methods: ``uniform_``, ``normal_``, ``bernoulli_``, ``random_``...

Each checks its arguments as PyTorch does before drawing, then writes the samples in the order
PyTorch's serial kernel does (memory order), with the same grad_fn names.
"""
import numpy as np

from .. import dtypes
from .._tensor import Tensor
from ..ops import inplace as IP
from . import _bounds
from . import generator as _generator


class _LoadedOnFirstUse:
    """Stands for :mod:`.distributions` (and the float emulation it imports) until a first sample:
    importing autograd_py stays cheap for the many programs that never draw a random number."""

    def __getattr__(self, name):
        from . import distributions
        return getattr(distributions, name)


D = _LoadedOnFirstUse()


def _gen(generator):
    return generator if generator is not None else _generator.default_generator


def _num(x):
    """A number as C++'s ``operator<<`` prints it in PyTorch's messages (``-1``, ``0.5``)."""
    return f"{x:g}"


def _type_name(np_dtype):
    return dtypes.from_numpy_dtype(np_dtype).legacy_name[:-len("Tensor")]


# ---------------------------------------------------------------------------- placement
def _in_memory_order(arr, flat):
    """Places ``flat`` (samples in the kernel's write order) into an array shaped like ``arr``."""
    if arr.flags.c_contiguous or arr.ndim < 2:
        return flat.reshape(arr.shape)
    out = np.empty(arr.shape, flat.dtype)
    order = sorted(range(arr.ndim), key=lambda d: -abs(arr.strides[d]))
    out.transpose(order)[...] = flat.reshape([arr.shape[d] for d in order])
    return out


class _RandomFill(IP.FillBackward0):
    """The grad_fn of an in-place sampler on a tensor with history (its gradient is zero)."""


def _node(name):
    return type(name, (_RandomFill,), {})


_NODES = {name: _node(name) for name in (
    "NormalBackward0", "UniformBackward0", "BernoulliBackward1", "BernoulliBackward2",
    "ExponentialBackward0", "RandomBackward0", "RandomBackward1", "RandomBackward2", "CauchyBackward0",
    "LogNormalBackward0", "GeometricBackward0")}


def _sample_into(t, node, sample):
    """Runs ``sample(data) -> flat values`` and writes them into ``t`` in place (checks first)."""
    def fill(old):
        data = t._data
        values = sample(data) if data.size else np.empty(0, data.dtype)
        return IP._filled(old, _in_memory_order(data, values).astype(data.dtype, copy=False), _NODES[node])
    return IP.apply(t, fill)


def _check_float(t, kernel):
    if t._data.dtype.kind != "f":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(t._data.dtype)}\'')


# ---------------------------------------------------------------------------- in-place samplers
def uniform_(self, from_=0.0, to=1.0, *, generator=None, **kw):
    """Fills ``self`` with numbers drawn uniformly from ``[from, to)``. Returns ``self``."""
    from_ = kw.pop("from", from_)
    _check_float(self, "check_uniform_bounds")
    from_, to = _bounds.check_uniform(self._data.dtype, from_, to, _type_name(self._data.dtype), _num)
    gen = _gen(generator)
    return _sample_into(self, "UniformBackward0",
                        lambda d: D.uniform(gen, d.size, d.dtype, float(from_), float(to)))


def normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fills ``self`` with samples of ``N(mean, std**2)``. Returns ``self``."""
    _check_float(self, "normal_kernel_cpu")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_num(std)}")
    gen = _gen(generator)
    return _sample_into(self, "NormalBackward0", lambda d: _normal_values(gen, d, float(mean), float(std)))


def _normal_values(gen, data, mean, std):
    if data.size >= 16 and data.flags.c_contiguous:
        return D.normal_fill(gen, data.size, data.dtype, mean, std)
    return D.normal_pairs(gen, data.size, mean, std)


def bernoulli_(self, p=0.5, *, generator=None):
    """Fills ``self`` with 1 with probability ``p`` (a float or a tensor of probabilities), else 0."""
    gen = _gen(generator)
    if isinstance(p, Tensor):
        if p._data.dtype.kind != "f":
            raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for \'{_type_name(p._data.dtype)}\'')
        probs = np.broadcast_to(p._data, self._data.shape)
        return _sample_into(self, "BernoulliBackward1", lambda d: D.bernoulli_tensor(gen, probs))
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_num(p)}")
    return _sample_into(self, "BernoulliBackward2", lambda d: D.bernoulli_scalar(gen, d.size, float(p)))


def exponential_(self, lambd=1.0, *, generator=None):
    """Fills ``self`` with samples of the exponential distribution of rate ``lambd``."""
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_num(lambd)}")
    if self._data.dtype.kind != "f":
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {_type_name(self._data.dtype)}")
    gen = _gen(generator)
    return _sample_into(self, "ExponentialBackward0", lambda d: D.exponential(gen, d.size, float(lambd)))


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fills ``self`` with samples of the Cauchy distribution."""
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_num(sigma)}")
    if self._data.dtype.kind != "f":
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {_bounds.c_name(self._data.dtype)}")
    gen = _gen(generator)
    return _sample_into(self, "CauchyBackward0", lambda d: D.cauchy(gen, d.size, float(median), float(sigma)))


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fills ``self`` with ``exp`` of samples of ``N(mean, std**2)``."""
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_num(std)}")
    _check_float(self, "log_normal_cpu")
    gen = _gen(generator)
    return _sample_into(self, "LogNormalBackward0", lambda d: D.log_normal(gen, d.size, float(mean), float(std)))


def geometric_(self, p, *, generator=None):
    """Fills ``self`` with the number of Bernoulli(p) trials up to the first success."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_num(p)}")
    gen = _gen(generator)
    return _sample_into(self, "GeometricBackward0", lambda d: D.geometric(gen, d.size, float(p)))


def random_(self, from_=None, to=None, *, generator=None, **kw):
    """``random_()``, ``random_(to)`` or ``random_(from, to)``: integers drawn uniformly."""
    from_ = kw.pop("from", from_)
    gen = _gen(generator)
    if from_ is None and to is None:
        return _sample_into(self, "RandomBackward2", lambda d: D.random_default(gen, d.size, d.dtype))
    node = "RandomBackward1" if to is None else "RandomBackward0"
    if to is None:
        from_, to = 0, from_
    low, high = _bounds.check_from_to(int(from_), int(to), self._data.dtype)
    return _sample_into(self, node, lambda d: D.from_to(gen, d.size, low, high - low))
