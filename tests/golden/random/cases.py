"""The random-number cases recorded from real PyTorch and replayed on autograd_py, bit for bit.

Every case is a function of the torch-like module ``T`` returning plain values or tensors, so the
same code runs under ``torch`` (``record_random.py``) and under ``autograd_py`` (``tests/test_random.py``).
:func:`encode` turns results into JSON: float bit patterns in hex, and for tensors of more than 100
elements a sha256 of their bytes plus the first and last three values.
"""
import base64
import hashlib
import warnings

import numpy as np

SEEDS = (0, 1, 42, 2**31 - 1)
SIZES = (1, 7, 15, 16, 17, 100, 1000)
FLOATS = ("float32", "float64")
FULL = 100  # tensors up to this many elements are stored value by value


def _bits(arr):
    if arr.dtype == np.float32:
        return [f"{v:08x}" for v in arr.view(np.uint32).tolist()]
    if arr.dtype == np.float64:
        return [f"{v:016x}" for v in arr.view(np.uint64).tolist()]
    return arr.astype(np.int64).tolist()


def encode(value):
    """A JSON-able, exact description of a case's result."""
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    if hasattr(value, "detach"):
        arr = np.ascontiguousarray(value.detach().numpy())
        out = {"dtype": str(value.dtype), "shape": list(arr.shape)}
        flat = arr.reshape(-1)
        if flat.size <= FULL:
            out["values"] = _bits(flat)
        else:
            out["sha256"] = hashlib.sha256(flat.tobytes()).hexdigest()
            out["head"], out["tail"] = _bits(flat[:3]), _bits(flat[-3:])
        return out
    if isinstance(value, float):
        return float.hex(value)
    if isinstance(value, bytes):
        return hashlib.sha256(value).hexdigest()
    return value


def state_sha(T):
    return hashlib.sha256(T.get_rng_state().numpy().tobytes()).hexdigest()


def after(T, result):
    """A sampler's result plus what follows it: the state's hash and one more ``rand``."""
    return {"result": result, "state": state_sha(T), "next": T.rand(1).item()}


# ---------------------------------------------------------------------------- samplers
def _sized(name, make):
    def case(T, seed, n, dtype):
        T.manual_seed(seed)
        return after(T, make(T, n, getattr(T, dtype)))
    case.__name__ = name
    return case


SAMPLERS = {
    "rand": _sized("rand", lambda T, n, dt: T.rand(n, dtype=dt)),
    "randn": _sized("randn", lambda T, n, dt: T.randn(n, dtype=dt)),
    "randn_2d": _sized("randn_2d", lambda T, n, dt: T.randn(1, n, dtype=dt)),
    "normal_odd": _sized("normal_odd", lambda T, n, dt: T.empty(n, dtype=dt).normal_(0.37, 2.3)),
    "normal_size": _sized("normal_size", lambda T, n, dt: T.normal(-1.5, 0.02, size=(n,), dtype=dt)),
    "uniform_odd": _sized("uniform_odd", lambda T, n, dt: T.empty(n, dtype=dt).uniform_(-0.3, 1.7)),
    "uniform_wide": _sized("uniform_wide", lambda T, n, dt: T.empty(n, dtype=dt).uniform_(-123.456, 7.89)),
    "exponential": _sized("exponential", lambda T, n, dt: T.empty(n, dtype=dt).exponential_(1.5)),
    "cauchy": _sized("cauchy", lambda T, n, dt: T.empty(n, dtype=dt).cauchy_(0.5, 2.0)),
    "log_normal": _sized("log_normal", lambda T, n, dt: T.empty(n, dtype=dt).log_normal_(0.1, 0.5)),
    "geometric": _sized("geometric", lambda T, n, dt: T.empty(n, dtype=dt).geometric_(0.3)),
    "bernoulli_p": _sized("bernoulli_p", lambda T, n, dt: T.empty(n, dtype=dt).bernoulli_(0.3)),
    "bernoulli_t": _sized("bernoulli_t", lambda T, n, dt: T.bernoulli(T.linspace(0, 1, n, dtype=dt))),
    "random_to": _sized("random_to", lambda T, n, dt: T.empty(n, dtype=dt).random_(1000)),
    "random_from_to": _sized("random_from_to", lambda T, n, dt: T.empty(n, dtype=dt).random_(-7, 2**20)),
    "random_default": _sized("random_default", lambda T, n, dt: T.empty(n, dtype=dt).random_()),
    "randint": _sized("randint", lambda T, n, dt: T.randint(-5, 10, (n,))),
    "randint_big": _sized("randint_big", lambda T, n, dt: T.randint(0, 2**40, (n,))),
    "randperm": _sized("randperm", lambda T, n, dt: T.randperm(n)),
    "rand_like": _sized("rand_like", lambda T, n, dt: T.rand_like(T.zeros(n, dtype=dt))),
    "randn_like": _sized("randn_like", lambda T, n, dt: T.randn_like(T.zeros(n, 1, dtype=dt))),
    "randint_like": _sized("randint_like", lambda T, n, dt: T.randint_like(T.zeros(n, dtype=dt), 3, 9)),
    "transposed_normal": _sized("transposed_normal", lambda T, n, dt: T.empty(n, 3, dtype=dt).t().normal_()),
    "strided_uniform": _sized("strided_uniform", lambda T, n, dt: T.zeros(n, 4, dtype=dt)[:, 1].uniform_(2, 5)),
}
INT_ONLY = {"randint", "randint_big", "randperm"}  # dtype does not apply: recorded once


def sampler_keys():
    for name in SAMPLERS:
        for dtype in (("int64",) if name in INT_ONLY else FLOATS):
            for n in SIZES:
                for seed in SEEDS:
                    yield f"{name}/{dtype}/n={n}/seed={seed}", (name, seed, n, dtype)


def run_sampler(T, spec):
    name, seed, n, dtype = spec
    return encode(SAMPLERS[name](T, seed, n, dtype))


# ---------------------------------------------------------------------------- the rest
def _sequences(T):
    out = {}
    for seed in SEEDS:
        T.manual_seed(seed)
        out[f"randn3_randn1/{seed}"] = [T.randn(3), T.randn(1), T.randn(1), T.rand(1)]
        T.manual_seed(seed)
        out[f"cache_across_dtypes/{seed}"] = [T.randn(1, dtype=T.float64), T.randn(2), T.randn(17), T.randn(1)]
        T.randn(1)
        T.manual_seed(seed)
        out[f"manual_seed_clears_cache/{seed}"] = [T.randn(1), T.randn(5, dtype=T.float64)]
        T.manual_seed(seed)
        out[f"normal_overloads/{seed}"] = [
            T.normal(T.arange(4.0), 0.5), T.normal(2.0, T.arange(1.0, 5.0)),
            T.normal(T.zeros(2, 1), T.ones(1, 3)), T.normal(T.zeros(20), T.ones(20) * 3),
            T.normal(0.0, 1.0, size=(2, 2), requires_grad=True), T.normal(T.zeros(3, dtype=T.float64), 2.0)]
        T.manual_seed(seed)
        out[f"keywords/{seed}"] = [T.randn(size=(2, 3)), T.rand(2, 3, dtype=T.float64, requires_grad=True),
                                   T.randn((2, 3)), T.randint(10, (4,)), T.randint(low=2, high=9, size=(3,))]
        T.manual_seed(seed)
        probs = T.tensor([[0.1, 0.5, 0.0, 2.0, 0.4], [1.0, 1.0, 1.0, 1.0, 1.0]])
        out[f"multinomial/{seed}"] = [
            T.multinomial(probs, 1), T.multinomial(probs, 3), T.multinomial(probs, 4, replacement=True),
            T.multinomial(probs[0], 2), T.multinomial(probs.double(), 9, replacement=True),
            T.multinomial(T.rand(100), 1), T.multinomial(T.rand(3, 50), 10), probs.multinomial(2)]
    T.manual_seed(6)  # large enough for randn's unchecked fast path, and a chunk boundary
    out["large_randn"] = [T.randn(140001), T.randn(65552, dtype=T.float64), T.rand(1)]
    T.manual_seed(4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        drawn = [T.empty(5).random_(2**30), T.empty(5, dtype=T.float64).random_(-(2**60), 2**60)]
    out["float_bounds_updated"] = [drawn, [str(w.message).split(" (Triggered internally")[0] for w in caught]]
    x = T.ones(3, requires_grad=True)
    calls = (("normal_", ()), ("uniform_", ()), ("bernoulli_", (0.5,)), ("bernoulli_", (T.full((3,), 0.5),)),
             ("exponential_", ()), ("random_", ()), ("random_", (5,)), ("random_", (2, 7)), ("cauchy_", ()),
             ("log_normal_", ()), ("geometric_", (0.5,)))
    out["grad_fn_names"] = [type(getattr(x * 1, name)(*args).grad_fn).__name__ for name, args in calls]
    return out


def _generators(T):
    out = {}
    g = T.Generator()
    out["fresh_generator"] = [g.initial_seed(), T.rand(3, generator=g), T.randn(20, generator=g)]
    for seed in SEEDS + (-1, -(2**63), 2**64 - 1, 2**40 + 5, 67280421310721):
        g = T.Generator()
        same = g.manual_seed(seed) is g
        out[f"seed/{seed}"] = [same, g.initial_seed(), T.rand(2, generator=g), T.randn(3, generator=g)]
        T.manual_seed(seed)
        out[f"global_seed/{seed}"] = [T.initial_seed(), T.rand(2)]
    buf, ints = T.zeros(4), T.zeros(2, 3, dtype=T.int64)
    T.manual_seed(8)
    same = [T.randn(4, out=buf) is buf, T.randint(0, 5, (2, 3), out=ints) is ints,
            T.normal(T.zeros(4), 2.0, out=buf) is buf]
    out["out_and_device"] = [same, buf, ints, str(T.Generator(device="cpu").device), T.rand(1)]
    g = T.Generator().manual_seed(5)
    T.randn(3, generator=g)
    state = g.get_state()
    first = [T.randn(5, generator=g), T.rand(2, generator=g)]
    g.set_state(state)
    out["set_state_replays"] = [str(state.dtype), list(state.shape), first, T.randn(5, generator=g),
                                T.rand(2, generator=g)]
    T.manual_seed(3)
    T.randn(1)
    with T.random.fork_rng():
        T.manual_seed(99)
        inside = T.randn(4)
    out["fork_rng"] = [inside, T.randn(4), T.rand(2)]
    T.manual_seed(0)
    out["state_bytes/seeded"] = base64.b64encode(T.get_rng_state().numpy().tobytes()).decode()
    T.randn(3)
    out["state_bytes/after_randn3"] = base64.b64encode(T.get_rng_state().numpy().tobytes()).decode()
    T.rand(700)
    out["state_bytes/after_rand700"] = base64.b64encode(T.get_rng_state().numpy().tobytes()).decode()
    out["after_state_bytes"] = [T.randn(1), T.randn(18)]
    return out


def _nn(T):
    nn, F = T.nn, T.nn.functional
    out = {}
    for seed in SEEDS:
        T.manual_seed(seed)
        lin = nn.Linear(4, 3)
        out[f"linear/{seed}"] = [lin.weight, lin.bias, nn.Embedding(10, 3).weight, nn.Linear(20, 30).weight,
                                 lin(T.ones(2, 4))]
        for name, args in (("uniform_", (-0.3, 0.7)), ("normal_", (0.1, 0.02)), ("xavier_uniform_", ()),
                           ("xavier_normal_", (1.5,)), ("kaiming_uniform_", ()), ("kaiming_normal_", (0, "fan_out")),
                           ("trunc_normal_", (0.0, 0.02)), ("trunc_normal_", (0.0, 1.0, -0.1, 0.2)),
                           ("constant_", (0.25,)), ("zeros_", ()), ("ones_", ())):
            for shape in ((3, 4), (20, 30), (4, 3, 2)):
                T.manual_seed(seed)
                w = getattr(nn.init, name)(T.empty(shape), *args)
                out[f"init/{name}{args}/{shape}/{seed}"] = [w, T.rand(1)]
        T.manual_seed(seed)
        out[f"dropout/{seed}"] = [F.dropout(T.ones(n), p) for n in (7, 16, 1000) for p in (0.1, 0.5)]
        T.manual_seed(seed)
        drop = nn.Dropout(0.25)
        out[f"dropout_module/{seed}"] = [drop(T.ones(3, 5)), drop(T.ones(5, 3).t()), T.rand(1)]
    T.manual_seed(0)
    out["randperm_1_to_1000"] = [hashlib.sha256(T.randperm(n).numpy().tobytes()).hexdigest() for n in range(1, 1001)]
    return out


def _errors(T):
    calls = {
        "randn_negative": lambda: T.randn(-1),
        "rand_int_dtype": lambda: T.rand(2, dtype=T.int64),
        "randn_int_dtype": lambda: T.randn(2, dtype=T.int64),
        "randint_from_to": lambda: T.randint(5, 2, (3,)),
        "normal_negative_std": lambda: T.normal(0.0, -1.0, size=(2,)),
        "uniform_reversed": lambda: T.empty(3).uniform_(2, 1),
        "bernoulli_p": lambda: T.empty(3).bernoulli_(1.5),
        "exponential_lambda": lambda: T.empty(3).exponential_(-1),
        "generator_float_seed": lambda: T.Generator().manual_seed(1.5),
        "seed_overflow": lambda: T.manual_seed(2**64),
        "state_size": lambda: T.set_rng_state(T.zeros(3, dtype=T.uint8)),
        "state_dtype": lambda: T.set_rng_state(T.zeros(5056)),
        "randperm_negative": lambda: T.randperm(-1),
        "multinomial_zero": lambda: T.multinomial(T.tensor([0.0, 0.0]), 1),
        "multinomial_too_many": lambda: T.multinomial(T.tensor([1.0, 2.0]), 3),
        "leaf_inplace": lambda: T.ones(2, requires_grad=True).normal_(),
        "generator_cuda": lambda: T.Generator("cuda"),
        "randint_one_arg": lambda: T.randint(3),
        "normal_no_size": lambda: T.normal(0.0, 1.0),
        "cauchy_sigma": lambda: T.empty(2).cauchy_(0.0, -1.0),
        "geometric_p": lambda: T.empty(2).geometric_(1.5),
        "log_normal_std": lambda: T.empty(2).log_normal_(0.0, 0.0),
        "random_reversed": lambda: T.empty(2).random_(5, 2),
        "normal_tensor_std": lambda: T.normal(T.zeros(2), T.tensor([1.0, -1.0])),
        "exponential_int": lambda: T.empty(2, dtype=T.int64).exponential_(),
        "cauchy_int": lambda: T.empty(2, dtype=T.int64).cauchy_(),
        "bernoulli_int_probs": lambda: T.bernoulli(T.ones(3, dtype=T.int64)),
        "rand_float_size": lambda: T.rand(2.5),
        "rand_float_in_size": lambda: T.rand((2, 2.5)),
        "uniform_span": lambda: T.empty(3, dtype=T.float64).uniform_(-1e308, 1e308),
        "uniform_out_of_float": lambda: T.empty(3).uniform_(-1e39, 0),
        "random_int8_bounds": lambda: T.empty(3, dtype=T.int8).random_(0, 300),
        "random_float_cast_bounds": lambda: T.empty(3).random_(2**24 + 1, 2**24 + 2),
    }
    out = {}
    for name, call in calls.items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the warnings are compared in _sequences
                call()
            out[name] = None
        except Exception as e:  # noqa: BLE001  (the message is what is recorded)
            out[name] = [type(e).__name__, str(e).split("\n")[0]]
    return out


GROUPS = {"sequences": _sequences, "generators": _generators, "nn": _nn, "errors": _errors}


def run_group(T, name):
    return encode(GROUPS[name](T))
