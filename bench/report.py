"""The Markdown report: one row per workload, times with ratios to torch, targets and checks."""
import datetime
import platform
import statistics

import numpy as np

from timing import format_seconds

REFERENCE = "torch"
SUBJECT = "autograd_py"
RIVALS = ("MyGrad", "HIPS")
# autograd_py's target time as a fraction of torch's; rows without one only need to beat the rivals.
# Issue 13's (W1 0.7, W2, W4 and W5 0.9, W3-vec 0.3); R1's, torch.randn's bits, is older.
TARGETS = {"W1": 0.7, "W2": 0.9, "W3-vec": 0.3, "W4": 0.9, "W5": 0.9, "R1": 3.0}


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _ratio(cell, ref):
    """Time relative to ``ref``: the median over rounds of the ratio of the two batches of a round.

    The batches of one round run back to back, so pairing them cancels most of the drift of a
    shared machine's load, which the ratio of the two overall medians would not.
    """
    if "seconds" not in cell or ref is None or "seconds" not in ref:
        return None
    mine, theirs = cell.get("rounds"), ref.get("rounds")
    if mine and theirs and len(mine) == len(theirs):
        return statistics.median(a / b for a, b in zip(mine, theirs))
    return cell["seconds"] / ref["seconds"]


class _Notes:
    """Numbered footnotes for n/a cells, shared by equal reasons."""

    def __init__(self):
        self.reasons = []

    def mark(self, reason):
        if reason not in self.reasons:
            self.reasons.append(reason)
        return f"n/a [{self.reasons.index(reason) + 1}]"


def _time_cell(cell, ref, notes, name):
    if "na" in cell:
        return notes.mark(f"{name}: {cell['na']}")
    text = format_seconds(cell["seconds"])
    ratio = _ratio(cell, ref)
    if name != REFERENCE and ratio is not None:
        text += f" ({ratio:.2f}×)"
    return text


def _target_text(row_id):
    parts = [f"≤ {TARGETS[row_id]:g}× torch"] if row_id in TARGETS else []
    return "; ".join(parts + ["< " + ", ".join(RIVALS)])


def _verdict(row_id, results):
    """✓/✗ per target; '?' where a number is missing."""
    subject = results.get((row_id, SUBJECT), {})
    if "seconds" not in subject:
        return "— (no autograd_py time)"
    marks = []
    if row_id in TARGETS:
        ratio = _ratio(subject, results.get((row_id, REFERENCE)))
        marks.append("ratio " + ("?" if ratio is None else "✓" if ratio <= TARGETS[row_id] else "✗"))
    for rival in RIVALS:
        other = results.get((row_id, rival), {})
        if "seconds" not in other:
            marks.append(f"{rival} –")
        else:
            marks.append(f"{rival} " + ("✓" if _ratio(subject, other) < 1 else "✗"))
    return " · ".join(marks)


def _check(row_id, names, results, tolerance):
    errors = {n: results[row_id, n]["error"] for n in names if "error" in results.get((row_id, n), {})}
    if not errors:
        return "—"
    wrong = [f"{n} WRONG ({e:.1e})" for n, e in errors.items() if not e <= tolerance]
    if wrong:
        return "; ".join(wrong)
    return f"ok ×{len(errors)} (≤ {max(errors.values()):.0e})"


def _gc_table(rows, names, results):
    """Share of each timed batch spent in Python's cyclic garbage collector, when it matters anywhere."""
    shares = {key: cell["gc_share"] for key, cell in results.items() if "gc_share" in cell}
    if not any(v >= 0.01 for v in shares.values()):
        return []
    lines = ["Share of the time spent in Python's garbage collector (graphs with reference cycles are "
             "only freed by it; each framework runs in its own process, so a collection walks only "
             "that framework's objects):", "",
             "| Workload | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 1)]
    for row_id, _workload, _label in rows:
        cells = [f"{shares[row_id, n]:.0%}" if (row_id, n) in shares else "—" for n in names]
        lines.append(f"| {row_id} | " + " | ".join(cells) + " |")
    return lines + [""]


def render(rows, names, results, versions, settings, tolerance):
    """The whole report as Markdown.

    Args:
        rows (list): ``(row_id, workload, label)`` in table order.
        names (list of str): framework names, torch first.
        results (dict): ``(row_id, name) -> cell`` from ``run.run_cell``.
        versions (dict): ``name -> version`` or None when not installed.
        settings (dict): ``repeats``, ``min_time``, ``quick``.
        tolerance (float): the largest accepted error against the NumPy reference.

    Returns:
        str: the report, ending in a newline.
    """
    notes = _Notes()
    header = ["Workload"] + names + [f"{SUBJECT}/{REFERENCE}", "target", "met", "check vs NumPy"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row_id, _workload, label in rows:
        ref = results.get((row_id, REFERENCE))
        cells = [label] + [_time_cell(results[row_id, n], ref, notes, n) for n in names]
        ratio = _ratio(results.get((row_id, SUBJECT), {}), ref)
        cells += ["—" if ratio is None else f"**{ratio:.2f}×**", _target_text(row_id),
                  _verdict(row_id, results), _check(row_id, names, results, tolerance)]
        lines.append("| " + " | ".join(cells) + " |")

    gc_lines = _gc_table(rows, names, results)
    installed = ", ".join(f"{n} {v}" if v else f"{n} (not installed)" for n, v in versions.items())
    mode = "QUICK smoke run (few short repeats; numbers are rough)" if settings["quick"] else "full run"
    out = [
        "# autograd benchmark",
        "",
        f"{mode}; {datetime.date.today().isoformat()}; Python {platform.python_version()}, "
        f"NumPy {np.__version__}; {installed}.",
        f"{_cpu_model()}, one thread (OMP/MKL/OpenBLAS = 1, torch.set_num_threads(1)), float64; "
        "one process per framework, timed in turns"
        + (f"; MALLOC_TOP_PAD_={settings['malloc_pad'] >> 20} MB (no glibc heap-trim churn, as in Pyodide)."
           if settings.get("malloc_pad") else "; glibc malloc defaults."),
        f"Each time is the median over {settings['repeats']} batches of ≥ {settings['min_time']:g} s "
        "(forward + backward, per call; W1 per op). "
        "(×) = time / torch's time, the median over rounds of the ratio of batches run back to back "
        "(robust to the machine's load drifting); lower is better.",
        "",
    ] + lines + [""]
    if notes.reasons:
        out += [f"[{i}] {reason}  " for i, reason in enumerate(notes.reasons, 1)] + [""]
    out += gc_lines
    out += [
        "W3 by VJPs: torch and autograd_py run one forward and 64 `autograd.grad(..., retain_graph=True)`; "
        "HIPS one `make_vjp` and 64 VJPs; MyGrad frees its graph in `backward()`, so it runs 64 forwards. "
        "W3 vectorized: `torch.autograd.functional.jacobian(f, x, vectorize=True)`; HIPS `jacobian` "
        "(which loops over VJPs internally).",
        f"check: every framework's result vs a hand-derived NumPy reference, error relative to the "
        f"largest reference magnitude; tolerance {tolerance:g}.",
        "",
    ]
    return "\n".join(out)
