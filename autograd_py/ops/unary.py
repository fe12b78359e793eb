"""Elementwise functions of one tensor: exp, log, trig, tanh/sigmoid/relu (their fused backward ops
are in ``fused_backward``), the step functions and sign."""
from .. import _fp, forward_mode, grad_mode
from ..node import Node, _sequence, raw_call
from ..saved_tensor import SavedTensor, default_hooks
from .._tensor import _new
from .base import Tensor, _make, _plain_edge, float_data, grad_on, node_recorder, np, record, record_like
from . import zerotensor
from .pointwise import add_scalar, empty_preserving, mul_scalar, preserve_layout
from .fused_backward import sigmoid_backward, tanh_backward, threshold_backward

_ndarray = np.ndarray
_asarray = np.asarray
_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)
_grad_enabled = grad_mode._state
_inference = grad_mode._inference
_fw_levels = forward_mode.levels


def _elementwise(fn, node_cls, saves=None, floating=True, fn32=None):
    """The op ``op(input)``: ``fn`` on the input's data (``fn32`` instead for float32 data, when
    given), recorded as ``node_cls``, which saves the input (``saves="self"``), the result
    (``"result"``) or nothing; a ``floating`` op computes an integer input in the default float
    dtype. The body is written in the op itself, so that an op is one Python call (twice as dear
    in Pyodide)."""

    def op(input):
        cls = input.__class__
        if cls is not Tensor:
            if cls is _ndarray or not isinstance(input, Tensor) and isinstance(input, np.generic):
                # a formula running on NumPy data (numpy_backward)
                return fn(input) if fn32 is None or input.dtype is _F64 or input.dtype != _F32 else fn32(input)
            if not isinstance(input, Tensor):
                if raw_call[0] is None:  # not a formula's number, but a user's: torch.sin(0.5)
                    raise TypeError(f"{op.__name__}(): argument 'input' (position 1) must be Tensor, "
                                    f"not {type(input).__name__}")
                return fn(input)
        data = input._data
        dt = data.dtype
        if floating and dt is not _F64 and dt.kind != "f":
            data = float_data(input)
            dt = data.dtype
        if data.ndim > 1 and 0 in data.strides and data.size > 1:
            # An expanded input: NumPy would lay the result's stride-0 dims innermost; TensorIterator
            # keeps them where they are (preserve_layout's order)
            data = preserve_layout(data, dt)
        res = fn(data) if fn32 is None or dt is _F64 or dt != _F32 else fn32(data)
        if _inference[0]:
            out = _make(res)
        else:  # _make's body: this runs once per op
            out = _new(Tensor)
            out._data = res if res.__class__ is _ndarray else _asarray(res)  # (a NumPy scalar at 0 dims)
            out._version_counter = [0]
        if input._requires_grad and _grad_enabled[0]:
            node = _new(node_cls)  # Node.__init__'s body
            node._seq = next(_sequence)
            node._vars = None
            grad_fn = input._grad_fn
            if _fw_levels or default_hooks or not floating and out._data.dtype.kind not in "fc":
                # (not for an integer tensor given history in place: record raises for it)
                edge = None
            elif grad_fn is not None and input._kept_fn is None and input._fn_shape is None \
                    and input._data.dtype is out._data.dtype:
                edge = (grad_fn, input._output_nr)  # _plain_edge's common case
            else:
                edge = _plain_edge(input, out._data)
            if edge is None:
                if saves == "self":
                    node.save_one("self", input)
                elif saves == "result":
                    node.save_output_one("result", out)
                record_like(out, node, input)
                return out
            # record_like's common case inline: no hooks, forward levels or checks to run
            if saves is not None:  # SavedTensor(input) or SavedTensor(out, True), inline: once per op
                saved = _new(SavedTensor)
                if saves == "self":
                    saved.counter = counter = input._version_counter
                    saved.array = input._data
                    saved.is_output = False
                    saved.tensor = input
                else:
                    saved.counter = counter = out._version_counter
                    saved.array = out._data
                    saved.is_output = True
                    saved.tensor = saved.fw_grads = None
                    saved.output_nr = 0
                    saved.cls = Tensor
                if counter.__class__ is not list:
                    raise RuntimeError(grad_mode.INFERENCE_SAVED)
                saved.version = counter[0]
                saved.hooks = None
                saved.name = saves
                node._vars = saved  # the one saved tensor, without a dict (node_saved.saved_map)
            node._next_functions = (edge,)
            node._input_meta = None
            out._grad_fn = node
            out._requires_grad = True
            if node_recorder[0] is not None:
                node_recorder[0](node)
        elif _fw_levels and grad_on(input):
            node = node_cls()
            if saves == "self":
                node.save_one("self", input)
            elif saves == "result":
                node.save_output_one("result", out)
            record_like(out, node, input)
        return out

    return op


def _unary(input, fn, node_cls, saves=None, floating=True):
    """``_elementwise``'s op for an ``fn`` made per call (``round``'s decimals)."""
    return _elementwise(fn, node_cls, saves, floating)(input)


def _op(name, *args, **kwargs):
    op = _elementwise(*args, **kwargs)
    op.__name__ = op.__qualname__ = name
    return op


class NegBackward0(Node):
    numpy_formula = True
    element_wise = True
    def backward(self, grad):
        return -grad


class AbsBackward0(Node):
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad * sgn(self.saved("self"))  # derivatives.yaml: grad * self.sgn()


class ExpBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return grad * self.saved("result")


class LogBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad / self.saved("self")


class Log1PBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad / add_scalar(self.saved("self"), 1)


class SqrtBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return grad / mul_scalar(self.saved("result"), 2)


class SinBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad * cos(self.saved("self"))


class CosBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("self",)

    def backward(self, grad):
        return grad * -sin(self.saved("self"))


class TanBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        from .powers import pow  # the op (powers imports this module)
        return grad * add_scalar(pow(self.saved("result"), 2), 1)  # grad * (1 + result.pow(2))


class TanhBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return tanh_backward(grad, self.saved("result"))


class SigmoidBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return sigmoid_backward(grad, self.saved("result"))


class ReluBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        return threshold_backward(grad, self.saved("result"))


class ReciprocalBackward0(Node):
    numpy_formula = True
    element_wise = True
    saves = ("result",)

    def backward(self, grad):
        result = self.saved("result")
        return -grad * (result * result)


class ZeroGradBackward(Node):
    """Step functions (sign, floor, round, ...) have a zero gradient almost everywhere.

    ``zeros_like(grad)``, as derivatives.yaml says: not ``grad * 0``, which keeps inf and NaN as NaN.
    """

    element_wise = True
    def backward(self, grad):
        return _make(np.zeros_like(grad._data))


def _zero_grad_node(name):
    return type(name, (ZeroGradBackward,), {"__doc__": f"Zero gradient of {name[:-9].lower()}."})


SignBackward0 = _zero_grad_node("SignBackward0")
FloorBackward0 = _zero_grad_node("FloorBackward0")
CeilBackward0 = _zero_grad_node("CeilBackward0")
RoundBackward0 = _zero_grad_node("RoundBackward0")
TruncBackward0 = _zero_grad_node("TruncBackward0")


def neg(input):
    if input._data.dtype == np.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying "
                           "to invert a mask, use the `~` or `logical_not()` operator instead.")
    return _neg(input)


_neg = _elementwise(np.negative, NegBackward0, floating=False)


abs = _op("abs", np.abs, AbsBackward0, "self", floating=False)


# float32 rounds exp's float64 result (_fp.exp); other dtypes need none of its rounding (nor a call)
exp = _op("exp", np.exp, ExpBackward0, "result", fn32=_fp.exp)


log = _op("log", np.log, LogBackward0, "self", fn32=_fp.via_float64(np.log))


log1p = _op("log1p", np.log1p, Log1PBackward0, "self", fn32=_fp.vector_log1p32)  # SLEEF's, tails included


sqrt = _op("sqrt", np.sqrt, SqrtBackward0, "result")


sin = _op("sin", np.sin, SinBackward0, "self", fn32=_fp.via_float64(np.sin))


cos = _op("cos", np.cos, CosBackward0, "self", fn32=_fp.via_float64(np.cos))


tan = _op("tan", np.tan, TanBackward0, "result", fn32=_fp.via_float64(np.tan))


tanh = _op("tanh", np.tanh, TanhBackward0, "result", fn32=_fp.via_float64(np.tanh))


def _np_sigmoid(x):
    # ATen's kernel: 1 / (1 + exp(-x)) in the input's dtype, so exp(-x) = inf gives 0, as PyTorch's
    # sigmoid(-100.) = 0.0 (float32; float64 from -745). Its float32 vector form takes SLEEF's exp.
    one = x.dtype.type(1)
    with np.errstate(over="ignore"):
        if x.dtype == _F32:
            return _fp.vectorized_loop32(lambda v: one / (one + _fp.vector_exp32(-v)),
                                         lambda v: one / (one + _fp.exp(-v)), x)
        return one / (one + np.exp(-x))


sigmoid = _op("sigmoid", _np_sigmoid, SigmoidBackward0, "result")


def _np_relu(d):
    # d < 0, not np.maximum: PyTorch's relu keeps -0.0 (and NaN) as it is
    return np.where(d < 0, 0, d).astype(d.dtype, copy=False)


relu = _op("relu", _np_relu, ReluBackward0, "result", floating=False)


reciprocal = _op("reciprocal", np.reciprocal, ReciprocalBackward0, "result")


def _np_sign(d):
    if d.dtype.kind == "b":
        return d.copy()
    if d.dtype.kind == "f":
        return np.nan_to_num(np.sign(d), nan=0.0)  # PyTorch's (0 < x) - (x < 0): 0 for NaN
    return np.sign(d)


sign = _op("sign", _np_sign, SignBackward0, floating=False)


class SgnBackward0(Node):
    element_wise = True
    saves = ("result", "self")

    def backward(self, grad):
        # sgn_backward: (grad - sgn * sgn * grad) / (2 |x|), 0 where x == 0; for real x PyTorch
        # returns an efficient zero tensor: zeros whatever the gradient (inf, NaN), no history, and
        # never added into in place by the engine.
        x, s = self.saved("self"), self.saved("result")
        if x._data.dtype.kind != "c":
            return zerotensor.mark(_make(np.zeros(grad._data.shape, dtype=x._data.dtype)))
        from .advanced_indexing import masked_fill
        a = abs(x)
        return masked_fill((grad - s * s * grad) / mul_scalar(a, 2.0), a == 0, 0)


def sgn(input):
    """The sign of each element (for real tensors, ``sign``); abs's gradient multiplies by it."""
    out = _make(_np_sign(input._data))
    if input._requires_grad and grad_mode._state[0] or forward_mode.levels and grad_on(input):
        node = SgnBackward0()
        node.save(self=input)
        node.save_output(result=out)
        record(out, node, (input,))
    return out


def _rounding(fn, name):
    """``fn`` (floor, ceil, trunc, round) as ATen's kernels: integers come back as they are, in
    their dtype (NumPy 2.0, Pyodide's, returns float64 for them; 2.1 and later keep the dtype), and
    bool has no kernel."""
    def kernel(d):
        if d.dtype.kind in "iu":
            return d.copy()
        if d.dtype.kind == "b":
            raise NotImplementedError(f"\"{name}_vml_cpu\" not implemented for 'Bool'")
        return fn(d)
    kernel.__name__ = name
    return kernel


floor = _op("floor", _rounding(np.floor, "floor"), FloorBackward0, floating=False)


ceil = _op("ceil", _rounding(np.ceil, "ceil"), CeilBackward0, floating=False)


def round(input, decimals=0):
    return _unary(input, _rounding(lambda d: np.round(d, decimals), "round"), RoundBackward0, floating=False)


trunc = _op("trunc", _rounding(np.trunc, "trunc"), TruncBackward0, floating=False)


class FracBackward0(Node):
    """derivatives.yaml's ``self: grad`` and ``result: self_t``: the tangent is the input's itself."""
    element_wise = True
    args = ()
    fw_alias = True

    def backward(self, grad):
        return grad


def frac(input):
    """The fractional part of each element, ``input - trunc(input)`` (with the input's sign).

    Example::

        >>> torch.frac(torch.tensor([1.5, -2.25, 3.]))
        tensor([ 0.5000, -0.2500,  0.0000])
    """
    if input._data.dtype.kind not in "fc":
        raise NotImplementedError(f'"frac_cpu" not implemented for \'{input.dtype.legacy_name[:-6]}\'')
    return _frac(input)


_frac = _elementwise(lambda d: d - np.trunc(d), FracBackward0)
