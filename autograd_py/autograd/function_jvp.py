"""Forward mode for ``torch.autograd.Function``: the user's ``jvp`` staticmethod gives the outputs'
tangents from the inputs' tangents, with the checks PyTorch's ``_process_forward_mode_AD`` makes
(views of inputs get views of the tangents, inputs modified in place get their tangents modified
in place)."""
import numpy as np

from .. import forward_mode
from .._tensor import Tensor, _make

WRONG_COUNT = "Function's jvp returned an invalid number of forward gradients (expected {} but got {})"
NOT_DIFFERENTIABLE = ("Function's jvp returned a gradient at position {}, but  the corresponding forward output is "
                      "not a differentiable Tensor.You should return None at that position instead.")
DIRTY_NOT_INPUT = ("Only input Tensors should be given to ctx.mark_dirty(). If a Tensor is not an input, there is "
                   "no need to pass it to mark_dirty().")
DIRTY_NOT_INPLACE = ("An inplace custom Function is not modifying the forward mode gradients inplace. If the "
                     "forward is modifying an input inplace, then the jvp function must modify the corresponding "
                     "gradient inplace.")
DIRTY_NOT_AS_IS = ("An inplace custom Function is not returning the forward mode gradients as-is. If the forward "
                   "is modifying an input inplace, then the jvp function must modify the gradient inplace and "
                   "return it as-is.")
VIEW_NOT_VIEW = "A custom Function's forward is returning a view (or an input as-is) but the jvp is not returning a view."
VIEW_OTHER_BASE = ("A custom Function is returning a view but the jvp is not returning a view of the same base as "
                   "the given grad input.")
VIEW_OTHER_INPUT = "A custom Function is returning a view but the jvp is not returning a view of the given grad input."
WRONG_SIZE = forward_mode.WRONG_SIZE


def forward_disabled():
    """Runs a Function's ``forward`` with forward mode off, as PyTorch does: its ops push no tangents."""
    return forward_mode.hidden()


def process(cls, ctx, args, outputs, returned_as_is, non_diff, dirty):
    """Gives ``outputs`` their tangents at each active level where an input has one.

    Args:
        cls: the Function class (its ``jvp`` staticmethod).
        ctx: the ``ctx`` of this call (``saved_tensors`` reads what ``save_for_forward`` got).
        args: the arguments ``apply`` got, tensors and others.
        outputs: the outputs ``apply`` returns (aliases for inputs returned as-is).
        returned_as_is: for each output, the input it is an alias of, or None.
        non_diff, dirty: ids of the outputs marked non-differentiable and the inputs marked dirty.
    """
    for level in tuple(forward_mode.levels):
        given = [forward_mode.tangent(a, level) if isinstance(a, Tensor) else None for a in args]
        if all(t is None for t in given):
            continue
        versions = [t._version_counter[0] if t is not None else None for t in given]
        materialize = getattr(ctx, "materialize_grads", True)
        tangents = [t if t is not None or not isinstance(a, Tensor) or not materialize
                    else _make(np.zeros(a._data.shape, a._data.dtype)) for a, t in zip(args, given)]
        ctx._saved_for_forward = tuple(getattr(ctx, "_to_save_forward", ()))
        try:
            with forward_mode.hidden(level):
                result = cls.jvp(ctx, *tangents)
        finally:
            del ctx._saved_for_forward
        result = result if isinstance(result, tuple) else (result,)
        if len(result) != len(outputs):
            raise RuntimeError(WRONG_COUNT.format(len(outputs), len(result)))
        for i, (out, t) in enumerate(zip(outputs, result)):
            if not isinstance(out, Tensor):
                continue
            if id(out) in non_diff or out._data.dtype.kind not in "fc":
                if t is not None:
                    raise RuntimeError(NOT_DIFFERENTIABLE.format(i))
                continue
            if t is None:
                continue
            if id(out) in dirty:
                _check_dirty(out, t, args, given, versions)
            else:
                _check_view(out, t, args, returned_as_is[i], level)
            if t._data.shape != out._data.shape:
                raise RuntimeError(WRONG_SIZE.format(list(out._data.shape), list(t._data.shape)))
            forward_mode.set_tangent(out, t, level)


def _input_index(t, args):
    for j, a in enumerate(args):
        if a is t:
            return j
    return None


def _check_dirty(out, t, args, given, versions):
    j = _input_index(out, args)
    if j is None:
        raise RuntimeError(DIRTY_NOT_INPUT)
    if given[j] is not None:
        if t._version_counter[0] == versions[j]:
            raise RuntimeError(DIRTY_NOT_INPLACE)
        if t is not given[j]:
            raise RuntimeError(DIRTY_NOT_AS_IS)


def _check_view(out, t, args, source, level):
    """An output that views an input (or is one, returned as-is) needs a tangent viewing that
    input's tangent."""
    if source is None and out._base is not None:
        source = next((a for a in args if isinstance(a, Tensor) and (a is out._base or a._base is out._base)), None)
    if source is None:
        return
    given = forward_mode.tangent(source, level)
    if given is None:
        return
    if t._base is None:
        raise RuntimeError(VIEW_NOT_VIEW)
    if given._base is not None:
        if t._base is not given._base:
            raise RuntimeError(VIEW_OTHER_BASE)
    elif t._base is not given:
        raise RuntimeError(VIEW_OTHER_INPUT)
