"""``torch.autograd.backward`` and ``torch.autograd.grad``, with PyTorch's checks and messages."""
import sys
import warnings

import numpy as np

from .. import engine
from .._warn import warn_once
from .._tensor import Size, Tensor, _make

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
    "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
    "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters to "
    "None after use to break the cycle and avoid the leak. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp:1307.)"
)


_BATCHED = __name__.rsplit(".", 2)[0] + ".batching.batched"
_modules_get = sys.modules.get


def _as_tuple(x):
    if x.__class__ is Tensor:
        return (x,)
    if x is None:
        return (None,)
    if isinstance(x, (Tensor, engine.GradientEdge)):
        return (x,)
    return tuple(x)


def _make_grads(outputs, grads, allow_none=False):
    """Checks or creates the gradient of each output (ones for scalars), as ``_make_grads`` does."""
    if len(outputs) == 1 == len(grads) and outputs[0].__class__ is Tensor:
        out, grad = outputs[0], grads[0]  # the common cases, first
        if grad.__class__ is Tensor:
            if grad._data.shape == out._data.shape and grad._data.dtype is out._data.dtype:
                return [grad]
        elif grad is None and out._requires_grad:
            d = out._data
            if not d.ndim and d.dtype.kind == "f" and d.__class__ is np.ndarray:
                # the implicit gradient of a 0-dim loss: ones_like's array, at a seventh of its cost
                return [_make(np.asarray(1.0, d.dtype))]
    result = []
    for i, (out, grad) in enumerate(zip(outputs, grads)):
        if isinstance(grad, Tensor):
            if grad._data.shape != out._data.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {Size(grad._data.shape)} and "
                    f"output[{i}] has a shape of {Size(out._data.shape)}.")
            if grad._data.dtype != out._data.dtype:
                grad = grad._cast(out._data.dtype)  # the engine casts root gradients, as PyTorch's does
            result.append(grad)
        elif grad is None:
            if out._requires_grad:
                if out._data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if out._data.dtype.kind != "f":
                    raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                                       f"{out.dtype}")
                result.append(_make(np.ones_like(out._data)))
            else:
                result.append(None)
        else:
            raise TypeError("gradients can be either Tensors or None, but got " + type(grad).__name__)
    return result


def _check_roots(outputs):
    for i, out in enumerate(outputs):
        # A view without history that requires grad only through its base (made under no_grad, or
        # before the base's requires_grad_()) has no edge to backward into; given requires_grad_()
        # itself, it is a leaf with its own accumulator.
        # grad_fn (a property) is read for views only: for any other tensor it just returns _grad_fn
        if not out._requires_grad or (out._base is not None and out.grad_fn is None and out._rg_from_base):
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """Computes the sum of gradients of ``tensors`` w.r.t. graph leaves, accumulating into ``.grad``.

    Args:
        tensors (Tensor or sequence of Tensor): the tensors to differentiate.
        grad_tensors (Tensor or sequence of Tensor or None, optional): the vector in the
            vector-Jacobian product for each tensor; None is allowed for scalars. Defaults to None.
        retain_graph (bool, optional): keep the saved tensors for another backward. Defaults to
            ``create_graph``.
        create_graph (bool, optional): record the backward pass, for higher-order derivatives.
            Defaults to ``False``.
        inputs (Tensor or sequence of Tensor, optional): accumulate only into these.

    Example::

        >>> x = torch.tensor([1., 2.], requires_grad=True)
        >>> torch.autograd.backward([(x * x).sum()])
        >>> x.grad
        tensor([2., 4.])
    """
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning, stacklevel=2)
        if grad_tensors is None:
            grad_tensors = grad_variables
        else:
            raise RuntimeError("'grad_tensors' and 'grad_variables' (deprecated) arguments both passed to "
                               "'backward'. Please only use 'grad_tensors'.")
    if inputs is not None and len(_as_tuple(inputs)) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    tensors = _as_tuple(tensors)
    grads = _as_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(tensors)
    grads = _make_grads(tensors, grads)  # pairs them up first: extra gradients are ignored, as in PyTorch
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    _check_roots(tensors)
    inputs = list(_as_tuple(inputs)) if inputs is not None else None
    if inputs is not None:
        for t in inputs:
            if not t._requires_grad:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            t.retain_grad()  # PyTorch makes non-leaf inputs retain their grad; the engine fills it
    if create_graph and (inputs is None or any(t._grad_fn is None for t in inputs)):
        warn_once(CREATE_GRAPH_WARNING)
    engine.run_backward(list(tensors), grads, retain_graph, create_graph, inputs=inputs, accumulate=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Computes and returns the gradients of ``outputs`` w.r.t. ``inputs`` (no ``.grad`` is touched).

    Args:
        outputs (Tensor or sequence of Tensor): outputs of the differentiated function.
        inputs (Tensor or sequence of Tensor): inputs w.r.t. which the gradient is returned.
        grad_outputs (Tensor or sequence of Tensor, optional): the vector in the vector-Jacobian
            product, one per output; None for scalar outputs. Defaults to None.
        retain_graph (bool, optional): keep saved tensors. Defaults to ``create_graph``.
        create_graph (bool, optional): record the backward pass, so the result can be
            differentiated again. Defaults to ``False``.
        only_inputs (bool, optional): deprecated and ignored (a warning is emitted when False).
        allow_unused (bool, optional): return None for inputs that were not used, instead of
            raising. Defaults to ``materialize_grads``.
        materialize_grads (bool, optional): return zeros instead of None for unused inputs.

    Returns:
        tuple of Tensor: one gradient per input.

    Example::

        >>> x = torch.tensor(3., requires_grad=True)
        >>> (dy,) = torch.autograd.grad(x ** 3, x, create_graph=True)
        >>> dy, torch.autograd.grad(dy, x)[0]
        (tensor(27., grad_fn=<MulBackward0>), tensor(18.))
    """
    batched = _modules_get(_BATCHED)  # not imported yet: no vmap is running (an import costs here)
    if outputs.__class__ is Tensor and inputs.__class__ is Tensor and (grad_outputs is None or grad_outputs.__class__
            is Tensor) and only_inputs is True and not is_grads_batched and not materialize_grads and (
            batched is None or not batched.levels) and inputs._requires_grad and outputs._requires_grad and (
            outputs._base is None):
        # grad(y, x[, v]) (a Jacobian's rows, W5's passes): no check below can fail before the pass
        # but _make_grads's, and _check_roots holds for an output that requires grad and is no view
        out_data = outputs._data
        if grad_outputs is not None and grad_outputs._data.shape == out_data.shape and (
                grad_outputs._data.dtype is out_data.dtype):
            grads = [grad_outputs]
        else:
            grads = _make_grads((outputs,), (grad_outputs,))
        g = engine.run_backward((outputs,), grads, create_graph if retain_graph is None else retain_graph,
                                create_graph, inputs=(inputs,), accumulate=False)[0]
        if g is None:
            if not allow_unused:
                raise RuntimeError("The differentiated Tensor at index 0 appears to not have been used in "
                                   "the graph. Set allow_unused=True if this is the desired behavior.")
        elif not create_graph and g._grad_fn is not None:
            g = g.detach()
        return (g,)
    if batched is not None and batched.levels:
        from ..batching import autograd_bridge
        if autograd_bridge.any_batched(outputs, inputs, grad_outputs):
            return autograd_bridge.grad(grad, outputs, inputs, grad_outputs, dict(
                retain_graph=retain_graph, create_graph=create_graph, only_inputs=only_inputs,
                allow_unused=allow_unused, is_grads_batched=is_grads_batched, materialize_grads=materialize_grads))
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.",
                      FutureWarning, stacklevel=2)
    outputs = (outputs,) if outputs.__class__ is Tensor else _as_tuple(outputs)
    inputs = (inputs,) if inputs.__class__ is Tensor else _as_tuple(inputs)
    if is_grads_batched:
        from ..batching import grads_batched
        gos = _as_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
        if len(gos) != len(outputs):
            raise RuntimeError(f"got {len(outputs)} tensors and {len(gos)} gradients")
        return grads_batched.grad(grad, outputs, inputs, gos, retain_graph, create_graph, allow_unused,
                                  materialize_grads)
    if len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    grads = (grad_outputs,) if grad_outputs.__class__ is Tensor else _as_tuple(grad_outputs) \
        if grad_outputs is not None else (None,) * len(outputs)
    grads = _make_grads(outputs, grads)
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    if len(outputs) != 1 or not outputs[0]._requires_grad or outputs[0]._base is not None:
        _check_roots(outputs)  # what it checks holds for one output that requires grad and is no view
    for t in inputs:
        if t.__class__ is Tensor and t._requires_grad:
            continue
        # A view requires grad once its base does (``requires_grad_`` after the view was taken),
        # though it has no history of its own: its gradient is then unused, not an error.
        if not isinstance(t, engine.GradientEdge) and not t._requires_grad and not (
                t._base is not None and t._base._requires_grad):
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    result = engine.run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs, accumulate=False)
    for i, g in enumerate(result):
        if g is None:
            if materialize_grads:
                result[i] = _make(np.zeros_like(inputs[i]._data))
            elif not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in "
                                   "the graph. Set allow_unused=True if this is the desired behavior.")
        elif not create_graph and g._grad_fn is not None:
            result[i] = g.detach()
    return tuple(result)
