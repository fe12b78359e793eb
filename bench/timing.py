"""Timing one callable: calibrated inner loops, median over repeats."""
import gc
import statistics
import time


def measure(fn, repeats, min_time):
    """Seconds per call of ``fn``: the median over ``repeats`` batches of calls.

    Each batch makes enough calls to last about ``min_time`` seconds, so the clock's resolution
    does not matter for fast workloads. The garbage collector stays enabled, as in real use
    (graphs with reference cycles are only freed by it), but runs between batches so that one
    batch does not pay for the garbage of another.

    Args:
        fn (callable): takes no arguments; one call is one unit of work.
        repeats (int): number of batches.
        min_time (float): target duration of one batch, in seconds.

    Returns:
        dict: ``median``, ``min`` and ``max`` seconds per call, ``calls`` per batch.
    """
    start = time.perf_counter()
    fn()
    once = time.perf_counter() - start
    calls = max(1, int(min_time / max(once, 1e-9)))
    per_call = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        per_call.append((time.perf_counter() - start) / calls)
    return {"median": statistics.median(per_call), "min": min(per_call), "max": max(per_call),
            "calls": calls}


def format_seconds(seconds):
    """``12.3 µs``, ``4.56 ms`` or ``1.23 s``: three significant digits."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale or unit == "µs":
            value = seconds / scale
            digits = 0 if value >= 100 else 1 if value >= 10 else 2
            return f"{value:.{digits}f} {unit}"
    raise AssertionError("unreachable")
