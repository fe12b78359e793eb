"""How a view was made (PyTorch's ``CreationMeta``), and the errors for writes autograd cannot follow.

A view made where grad mode is off (``no_grad``, ``inference_mode``) of a tensor that requires grad
requires grad too, but has no history; a view from a function returning several views
(``unbind``, ``split``, ``chunk``) has a shared node. Writing into such a view in place while grad
mode is on, or using it after its base was written, is refused with PyTorch's messages.
"""
from ..saved_tensor import op_name

NO_GRAD, INFERENCE, MULTI_OUTPUT = "no_grad", "inference", "multi_output"

_ADVICE = {
    NO_GRAD: " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
             "code by moving both the view and the inplace either both inside the no_grad block (if you don't "
             "want the inplace to be tracked) or both outside (if you want the inplace to be tracked).",
    INFERENCE: " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
               "code by moving both the view and the inplace either both inside the inference_mode block (if "
               "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
               "tracked).",
    MULTI_OUTPUT: " This view is the output of a function that returns multiple views. Such functions do not "
                  "allow the output views to be modified inplace. You should replace the inplace operation by "
                  "an out-of-place one.",
}


def propagate(prev, new):
    """PyTorch's propagate_creation_meta: a view of a special view stays special."""
    if new is None:
        return prev
    return prev if prev == INFERENCE else new


def message(meta, fn, output_nr, indirect):
    """PyTorch's handle_view_on_rebase message for a view made as ``meta`` whose history is ``fn``."""
    modified = "its base or another view of its base has been" if indirect else "is being"
    if meta in (NO_GRAD, INFERENCE) or fn is None:
        prefix = (f"Output {output_nr} of {op_name(fn)} is a view of a view which was created in" if fn is not None
                  else "A view was created in")
        if meta == INFERENCE:
            text = f"{prefix} inference mode and {modified} modified inplace in normal mode."
        else:
            text = f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
    else:
        text = f"Output {output_nr} of {op_name(fn)} is a view and {modified} modified inplace."
    return text + _ADVICE.get(meta, "")


def check_write(t):
    """Raises for an in-place write into ``t`` (grad mode on, ``t`` requires grad) when ``t`` is a
    view that autograd cannot rebase."""
    meta = t._creation_meta
    if meta is not None:
        stale = t.__dict__.get("_stale_view")
        fn, nr = stale if stale is not None else (t._grad_fn, t._output_nr)
        raise RuntimeError(message(meta, fn, nr, indirect=False))


def mark_stale(v):
    """``v``'s base was written: like PyTorch's lazily regenerated ``grad_fn``, reading it now raises."""
    if "_stale_view" not in v.__dict__:
        v._stale_view = (v._grad_fn, v._output_nr)
    v._grad_fn = None


def stale_error(t):
    fn, nr = t._stale_view
    return RuntimeError(message(t._creation_meta, fn, nr, indirect=True))
