"""PyTorch's tensor repr: the same widths, precision, scientific switch, and summarisation."""
import math

import numpy as np

from . import dtypes


class PrintOptions:
    precision = 4
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = None


PRINT_OPTS = PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None):
    """Sets the print options, like ``torch.set_printoptions``."""
    if profile == "default":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, 1000, 3, 80
    elif profile == "short":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
    elif profile == "full":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, math.inf, 3, 80
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    """Chooses one width and notation for all elements, from the non-zero finite values."""

    def __init__(self, values):
        self.floating = values.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        p = PRINT_OPTS.precision
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if finite.size == 0:
            return
        absolute = np.abs(finite)
        lo, hi = float(absolute.min()), float(absolute.max())
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        values_list = finite.tolist()
        if self.int_mode:
            if hi / lo > 1000.0 or hi > 1.0e8:
                self.sci_mode = True
                widths = [len(f"{v:.{p}e}") for v in values_list]
            else:
                widths = [len(f"{v:.0f}") + 1 for v in values_list]
        elif hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
            self.sci_mode = True
            widths = [len(f"{v:.{p}e}") for v in values_list]
        else:
            widths = [len(f"{v:.{p}f}") for v in values_list]
        self.max_width = max(widths)
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    def format(self, value):
        p = PRINT_OPTS.precision
        if self.floating:
            if self.sci_mode:
                text = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                text = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    text += "."
            else:
                text = f"{value:.{p}f}"
        else:
            text = str(value)
        return (self.max_width - len(text)) * " " + text


def _summarized(data):
    """Keeps ``edgeitems`` at each end of every dimension, as PyTorch prints large tensors."""
    e = PRINT_OPTS.edgeitems
    for axis in range(data.ndim):
        if data.shape[axis] > 2 * e:
            head = np.take(data, range(e), axis=axis)
            tail = np.take(data, range(data.shape[axis] - e, data.shape[axis]), axis=axis)
            data = np.concatenate([head, tail], axis=axis)
    return data


def _vector(data, indent, summarize, fmt):
    element_length = fmt.max_width + 2
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))
    e = PRINT_OPTS.edgeitems
    if summarize and data.shape[0] > 2 * e:
        items = [fmt.format(v) for v in data[:e].tolist()] + [" ..."] + \
                [fmt.format(v) for v in data[-e:].tolist()]
    else:
        items = [fmt.format(v) for v in data.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _body(data, indent, summarize, fmt):
    # Recursion here is over dimensions (a handful), never over the autograd graph.
    if data.ndim == 0:
        return fmt.format(data.item())
    if data.ndim == 1:
        return _vector(data, indent, summarize, fmt)
    e = PRINT_OPTS.edgeitems
    if summarize and data.shape[0] > 2 * e:
        rows = [_body(data[i], indent + 1, summarize, fmt) for i in range(e)] + ["..."] + \
               [_body(data[i], indent + 1, summarize, fmt) for i in range(data.shape[0] - e, data.shape[0])]
    else:
        rows = [_body(data[i], indent + 1, summarize, fmt) for i in range(data.shape[0])]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def array_str(data, indent):
    """The bracketed body of a repr, for an ndarray."""
    if data.size == 0:
        return "[]"
    summarize = data.size > PRINT_OPTS.threshold
    shown = _summarized(data) if summarize else data
    return _body(data, indent, summarize, _Formatter(shown))


def _add_suffixes(text, suffixes, indent):
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t, prefix="tensor("):
    data = t._data
    indent = len(prefix)
    suffixes = []
    dt = t.dtype
    default = dt in (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool)
    if t._is_meta:  # PyTorch prints no values for a tensor without data
        suffixes += ["device='meta'", "size=" + str(tuple(data.shape))]
        if not default:
            suffixes.append("dtype=" + repr(dt))
        body = "..."
    elif data.size == 0:
        if data.ndim != 1:
            suffixes.append("size=" + str(tuple(data.shape)))
        if dt is not dtypes.get_default_dtype():
            suffixes.append("dtype=" + repr(dt))
        body = "[]"
    else:
        if not default:
            suffixes.append("dtype=" + repr(dt))
        body = array_str(data, indent)
    try:
        fn = t.grad_fn  # PyTorch's repr reads grad_fn, so a stale view is regenerated (or refused) here too
    except RuntimeError:
        suffixes.append("grad_fn=<Invalid>")
    else:
        if fn is not None:
            suffixes.append(f"grad_fn=<{type(fn).__name__}>")
        elif t._requires_grad:
            suffixes.append("requires_grad=True")
    if t._fw_grads is not None:
        from .forward_mode import tangent
        tangent = tangent(t)
        if tangent is not None:
            suffixes.append(f"tangent={tangent}")
    text = _add_suffixes(prefix + body, suffixes, indent)
    if t._is_param:
        return "Parameter containing:\n" + text
    return text
