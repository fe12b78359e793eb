"""autograd_py against its NumPy floor, timed in one Python: the same code in CPython and in Pyodide.

``web_workloads.py`` loads this module (with ``fw_torchlike``, ``problems``, ``floors`` and
``timing``) into the site's Pyodide and also runs it here, in CPython, as a script; both sides
thus time the same workload sources and the same floors with the same clock and batching.

Usage (CPython; prints JSON)::

    python bench/floor_timing.py --rows W1,W4 [--repeats 21] [--min-time 0.1] [--profile W1]
"""
import argparse
import cProfile
import json
import pstats
import re
import statistics
import sys

import numpy as np

import floors
import fw_torchlike
import problems
import least_graph
import timing

ROWS = {"W1": "W1", "W2": "W2", "W3-loop": "W3", "W3-vec": "W3", "W4": "W4", "W5": "W5"}
TOLERANCE = 1e-8  # as bench/run.py's check vs NumPy
# Rows also timed on least_graph, the least a graph-recording autograd does: a floor records
# nothing, so this shows how much of autograd_py's ratio any recording of that graph would cost.
LEAST_GRAPH = ("W1", "W4")


def _sides(row, size="full"):
    """The workload's data, reference, and ``(run, to_numpy)`` for autograd_py and for the floor."""
    import autograd_py  # at first use: main() may first put the site's wheel (--library) on the path

    data = problems.make_data(ROWS[row], size)
    return (problems.reference(ROWS[row], data), fw_torchlike.WORKLOADS[row](autograd_py, data),
            floors.FLOORS[row](data))


def check(row, size="full"):
    """Errors of both sides, each against the hand-derived reference and against each other.

    Args:
        row (str): a key of ``ROWS``.
        size (str): ``"full"`` or ``"tiny"`` (``problems.SIZES``).

    Returns:
        dict: ``autograd_py``, ``floor`` (each vs ``problems.reference``), ``autograd_py_vs_floor``
        and, for rows of ``LEAST_GRAPH``, ``least_graph`` (vs the reference): largest errors relative
        to the largest magnitude of each expected array.
    """
    return _checked(row, size)[0]


def _checked(row, size="full"):
    """Runs each side once (also a warm-up); returns (errors, {side: run}).

    The sides are autograd_py and the floor, and for rows of ``LEAST_GRAPH`` also the least
    graph-recording autograd (``least_graph``) running the same workload code.
    """
    reference, (ag_run, ag_np), (fl_run, fl_np) = _sides(row, size)
    got_ag, got_fl = ag_np(ag_run()), fl_np(fl_run())
    errors = {"autograd_py": problems.max_error(got_ag, reference), "floor": problems.max_error(got_fl, reference),
              "autograd_py_vs_floor": problems.max_error(got_ag, got_fl)}
    runs = {"autograd_py": ag_run, "floor": fl_run}
    if row in LEAST_GRAPH:
        lg_run, lg_np = fw_torchlike.WORKLOADS[row](least_graph, problems.make_data(ROWS[row], size))
        errors["least_graph"] = problems.max_error(lg_np(lg_run()), reference)
        runs["least_graph"] = lg_run
    return errors, runs


def measure(row, repeats=21, min_time=0.1):
    """Checks, then times autograd_py and its floor (and the least graph, see ``LEAST_GRAPH``) on one
    workload, batches taking turns.

    Each side gets a warm-up and a batch size lasting about ``min_time`` seconds; then ``repeats``
    rounds of one batch each, the order turning round by round, so a busy spell hits all alike.

    Args:
        row (str): a key of ``ROWS``.
        repeats (int): batches per side.
        min_time (float): seconds per batch.

    Returns:
        dict: per side (``autograd_py``, ``floor``, maybe ``least_graph``) the median, min and max
        seconds per call, calls per batch and the garbage collector's share; ``ratio`` (of the
        medians, autograd_py over the floor), ``ratio_best`` (of the fastest batches: on a busy
        machine, the least disturbed), ``pair_ratios`` (round by round), ``least_graph_ratio`` (its
        median over the floor's, when timed), ``errors`` (see :func:`check`) and ``ok`` (all errors
        within tolerance).
    """
    errors, runs = _checked(row)
    names = list(runs)
    calls = {name: timing.calls_per_batch(fn, min_time) for name, fn in runs.items()}
    batches = {name: [] for name in runs}
    for r in range(repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:  # each side first in turn
            batches[name].append(timing.time_batch(runs[name], calls[name]))
    result = {name: timing.summarize(batches[name], calls[name]) for name in runs}
    pairs = [(a / calls["autograd_py"]) / (f / calls["floor"])
             for (a, _), (f, _) in zip(batches["autograd_py"], batches["floor"])]
    extra = {}
    if "least_graph" in result:
        extra["least_graph_ratio"] = result["least_graph"]["median"] / result["floor"]["median"]
    return {"row": row, **result, "ratio": result["autograd_py"]["median"] / result["floor"]["median"],
            "ratio_best": result["autograd_py"]["min"] / result["floor"]["min"], **extra,
            "pair_ratios": pairs, "errors": errors, "ok": max(errors.values()) <= TOLERANCE,
            "python": sys.version.split()[0], "numpy": np.__version__}


def profile(row, calls=50, top=15):
    """cProfile of autograd_py's run on one workload, the functions with the most own time.

    Args:
        row (str): a key of ``ROWS``.
        calls (int): workload calls profiled (after unprofiled warm-up and timing).
        top (int): entries returned.

    Returns:
        dict: ``calls``, ``total_ms`` (profiled time per call), ``plain_ms`` (time per call without
        the profiler) and ``entries``, each with the
        function (``file:line(name)``, the file shortened to its package path), ``ncalls``,
        ``tottime_ms`` and ``cumtime_ms`` per workload call, and ``share`` of the total own time.
    """
    _, (run, _), _ = _sides(row)
    for _ in range(3):  # first calls pay one-off costs (caches, fresh memory), as in timing.calls_per_batch
        run()
    # Without the profiler first: its per-call hook costs more in Pyodide (each clock read goes
    # out to JavaScript), so the profiled total is not the workload's time. Median of three
    # batches: one short batch is at the mercy of the shared machine.
    plain = statistics.median(timing.time_batch(run, calls)[0] for _ in range(3)) / calls
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        run()
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # (file, line, name) -> (cc, ncalls, tottime, cumtime, callers)
    total = sum(v[2] for v in stats.values())
    rows = sorted(stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
    return {"row": row, "calls": calls, "total_ms": total / calls * 1e3, "plain_ms": plain * 1e3,
            "entries": [{"function": _label(key), "ncalls": v[1] // calls, "tottime_ms": v[2] / calls * 1e3,
                         "cumtime_ms": v[3] / calls * 1e3, "share": v[2] / total if total else 0.0}
                        for key, v in rows]}


def _label(key):
    """``autograd_py/ops/unary.py:12(forward)``: paths from the package (or stdlib) name on, same in both Pythons."""
    path, line, name = key
    if path == "~":  # a built-in; without its type's address, which differs between the two Pythons
        return re.sub(r" at 0x[0-9a-f]+", "", name)
    parts = path.replace("\\", "/").split("/")
    for anchor in ("autograd_py", "numpy", "bench"):
        if anchor in parts[:-1]:
            parts = parts[parts.index(anchor):]
            break
    else:
        parts = parts[-1:]
    return f"{'/'.join(parts)}:{line}({name})"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", default=",".join(ROWS), help="comma-separated rows, e.g. W1,W3-loop")
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--min-time", type=float, default=0.1)
    parser.add_argument("--profile", default="", help="rows to profile instead of timing them")
    parser.add_argument("--profile-calls", type=int, default=50)
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--library", help="folder to import autograd_py from (default: this checkout)")
    args = parser.parse_args(argv)
    if args.library:
        sys.path.insert(0, args.library)
    if args.profile:
        out = [profile(r, args.profile_calls, args.top) for r in args.profile.split(",")]
    else:
        out = [measure(r, args.repeats, args.min_time) for r in args.rows.split(",")]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    from pathlib import Path

    _here = Path(__file__).resolve().parent
    sys.path[:0] = [str(_here), str(_here.parent)]  # the bench modules, and autograd_py from this checkout
    sys.exit(main())
