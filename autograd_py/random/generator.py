"""``torch.Generator``: PyTorch's CPU Mersenne Twister, its seeding and its state bytes.

PyTorch's CPU generator is MT19937 seeded like ``init_genrand`` with the low 32 bits of the seed,
which is exactly NumPy's ``MT19937`` with legacy seeding; ``random_raw`` draws its 32-bit words.
``random64()`` joins two draws, the first as the high word. Box-Muller's second value is cached on
the generator (``next_double_normal_sample``) until the next ``manual_seed``.
"""
import os
import struct

import numpy as np

DEFAULT_SEED = 67280421310721  # c10's default_rng_seed_val: what torch.Generator() starts from
STATE_SIZE = 5056  # sizeof(CPUGeneratorImplState)
_N = 624
_HEAD = struct.Struct("<QiiQ")  # the_initial_seed, left, seeded, next
_TAIL = struct.Struct("<dddi4xf?3x")  # normal_x, normal_y, normal_rho, normal_is_valid, next float sample


_NO_CUDA = ("Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two shared "
            "libraries: a CPU library and a CUDA library; this error has occurred because you are trying to use "
            "some CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for some "
            "reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA "
            "library! One common culprit is a lack of -Wl,--no-as-needed in your link arguments; many dynamic "
            "linkers will delete dynamic library dependencies if you don't depend on any of their symbols.  You "
            "can check if this has occurred by using ldd on your binary to see if there is a dependency on "
            "*_cuda.so library.")


def _nondeterministic_seed():
    return int.from_bytes(os.urandom(8), "little")  # as c10's getNonDeterministicRandom (/dev/urandom)


def _unpack_seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, int):
        try:
            seed = seed.__index__()
        except (AttributeError, TypeError):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}") from None
    if not -(1 << 63) <= seed < (1 << 64):
        raise ValueError("Overflow when unpacking long long")
    return seed & 0xFFFFFFFFFFFFFFFF


class Generator:
    """A pseudo-random number generator with PyTorch's CPU algorithm, numbers and state layout.

    Args:
        device (str or torch.device, optional): only ``'cpu'``. Defaults to ``'cpu'``.

    Example::

        >>> g = torch.Generator().manual_seed(0)
        >>> torch.rand(2, generator=g)
        tensor([0.4963, 0.7682])
    """

    def __init__(self, device="cpu"):
        if str(device).split(":")[0] == "cuda":
            raise RuntimeError(_NO_CUDA)
        if str(device) != "cpu":
            raise RuntimeError(f"Device type {str(device).split(':')[0].upper()} is not supported for "
                               "torch.Generator() api.")
        self._bits = None  # NumPy's MT19937, made on first use (numpy.random costs start-up time)
        self._reseed(DEFAULT_SEED)

    @property
    def _mt(self):
        if self._bits is None:
            import numpy.random
            self._bits = numpy.random.MT19937(0)
            self._bits._legacy_seeding(self._seed & 0xFFFFFFFF)
        return self._bits

    @property
    def device(self):
        from ..devices import device
        return device("cpu")

    def _reseed(self, seed):
        self._seed = seed
        if self._bits is not None:
            self._bits._legacy_seeding(seed & 0xFFFFFFFF)
        self._unused = True  # seeded and not drawn from: PyTorch's state then reads next=0, not 624
        self.next_double_normal = None
        self.next_float_normal = None

    def manual_seed(self, seed):
        """Sets the seed (any int in ``[-2**63, 2**64)``; negatives wrap). Returns the generator."""
        self._reseed(_unpack_seed(seed))
        return self

    def seed(self):
        """Seeds from the operating system's randomness and returns that seed."""
        seed = _nondeterministic_seed()
        self._reseed(seed)
        return seed

    def initial_seed(self):
        """The seed this generator was last seeded with."""
        return self._seed

    # ------------------------------------------------------------------ draws
    def random(self, n):
        """``n`` 32-bit draws (``CPUGeneratorImpl::random``) as a uint64 array."""
        if n:
            self._unused = False
        return self._mt.random_raw(n)

    def random64(self, n):
        """``n`` 64-bit draws (``random64``: two 32-bit draws, the first one high)."""
        raw = self.random(2 * n)
        return (raw[0::2] << np.uint64(32)) | raw[1::2]

    # ------------------------------------------------------------------ state
    def get_state(self):
        """The generator's state as PyTorch's 5056-byte ``uint8`` tensor (restorable by torch too)."""
        from .._tensor import _make
        return _make(np.frombuffer(self._state_bytes(), np.uint8).copy())

    def _state_bytes(self):
        st = self._mt.state["state"]
        pos = int(st["pos"])
        nxt, left = (0, 1) if self._unused else (pos, _N + 1 - pos)
        double_ok, float_ok = self.next_double_normal is not None, self.next_float_normal is not None
        return b"".join((
            _HEAD.pack(self._seed, left, 1, nxt),
            np.asarray(st["key"], "<u8").tobytes(),
            _TAIL.pack(0.0, self.next_double_normal if double_ok else 0.0, 0.0, int(double_ok),
                       self.next_float_normal if float_ok else 0.0, float_ok)))

    def set_state(self, new_state):
        """Restores a state from :meth:`get_state` (or from real PyTorch's bytes). Returns the generator."""
        data = _state_array(new_state)
        if data.size != STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the input "
                               f"RNG state size to be {data.size}")
        raw = data.tobytes()
        seed, left, seeded, nxt = _HEAD.unpack_from(raw, 0)
        key = np.frombuffer(raw, "<u8", _N, _HEAD.size)
        _, normal_y, _, normal_ok, float_sample, float_ok = _TAIL.unpack_from(raw, _HEAD.size + 8 * _N)
        if not (seeded and 0 < left <= _N and nxt <= _N and (left + nxt == _N + 1 or (nxt, left) == (0, 1))):
            raise RuntimeError("Invalid mt19937 state")
        self._mt.state = {"bit_generator": "MT19937",
                          "state": {"key": (key & 0xFFFFFFFF).astype(np.uint32), "pos": nxt or _N}}
        self._seed, self._unused = seed, nxt == 0
        self.next_double_normal = normal_y if normal_ok else None
        self.next_float_normal = float(np.float32(float_sample)) if float_ok else None
        return self

    def _snapshot(self):
        return (self._mt.state, self._seed, self._unused, self.next_double_normal, self.next_float_normal)

    def _restore(self, snap):
        self._mt.state, self._seed, self._unused, self.next_double_normal, self.next_float_normal = snap

    def __repr__(self):
        return f"<torch._C.Generator object at {hex(id(self))}>"


def _state_array(new_state):
    from .._tensor import Tensor
    if not isinstance(new_state, Tensor) or new_state._data.dtype != np.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    return new_state._data.reshape(-1)


def fresh_default():
    """The default generator of a new process: seeded nondeterministically, as PyTorch's is."""
    return Generator().manual_seed(_nondeterministic_seed())


default_generator = fresh_default()
