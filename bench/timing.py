"""Timing building blocks: calibrated batches of calls, the collector's share, medians."""
import gc
import statistics
import time


def calls_per_batch(fn, min_time, warmup=3):
    """How many calls of ``fn`` last about ``min_time`` seconds (at least one).

    Calls it ``warmup`` times and goes by the fastest: first calls pay one-off costs (imports,
    caches, fresh memory pages) that a batch should not be sized by.
    """
    once = float("inf")
    for _ in range(warmup):
        start = time.perf_counter()
        fn()
        once = min(once, time.perf_counter() - start)
    return max(1, int(min_time / max(once, 1e-9)))


def time_batch(fn, calls):
    """Runs ``fn`` ``calls`` times after a full collection.

    The garbage collector stays enabled inside the batch, as in real use (graphs with reference
    cycles are only freed by it); collecting first keeps one batch from paying for another's
    garbage.

    Returns:
        tuple: (seconds for the whole batch, seconds of it spent in the garbage collector).
    """
    gc.collect()
    clock = _GcClock()
    gc.callbacks.append(clock)
    try:
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        elapsed = time.perf_counter() - start
    finally:
        gc.callbacks.remove(clock)
    return elapsed, clock.seconds


def summarize(batches, calls):
    """Per-call statistics of ``(elapsed, gc_seconds)`` batches of ``calls`` calls each.

    Returns:
        dict: ``median``, ``min``, ``max`` seconds per call, ``calls`` and ``gc_share``, the
        fraction of all batch time spent in the garbage collector.
    """
    per_call = [elapsed / calls for elapsed, _ in batches]
    total = sum(elapsed for elapsed, _ in batches)
    return {"median": statistics.median(per_call), "min": min(per_call), "max": max(per_call),
            "calls": calls, "gc_share": sum(g for _, g in batches) / total if total else 0.0}


class _GcClock:
    """Adds up the time of the collections that run while it is installed in ``gc.callbacks``."""

    def __init__(self):
        self.seconds = 0.0
        self._start = None

    def __call__(self, phase, info):
        if phase == "start":
            self._start = time.perf_counter()
        elif self._start is not None:
            self.seconds += time.perf_counter() - self._start
            self._start = None


def format_seconds(seconds):
    """``12.3 µs``, ``4.56 ms`` or ``1.23 s``: three significant digits."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale or unit == "µs":
            value = seconds / scale
            digits = 0 if value >= 100 else 1 if value >= 10 else 2
            return f"{value:.{digits}f} {unit}"
    raise AssertionError("unreachable")
