"""Timing callables side by side: calibrated inner loops, interleaved batches, medians."""
import gc
import statistics
import time


def measure_interleaved(fns, repeats, min_time):
    """Seconds per call of each callable: the median over ``repeats`` batches of calls.

    The callables take turns batch by batch (in a rotating order), so that a slow spell of the
    machine, e.g. another process, lands on all of them alike rather than on whichever was
    being timed then: the ratios between them stay meaningful on a shared machine.

    Each batch makes enough calls to last about ``min_time`` seconds, so the clock's resolution
    does not matter for fast workloads. The garbage collector stays enabled, as in real use
    (graphs with reference cycles are only freed by it), but runs between batches so that one
    batch does not pay for the garbage of another.

    Args:
        fns (dict): name -> callable taking no arguments; one call is one unit of work.
        repeats (int): batches per callable.
        min_time (float): target duration of one batch, in seconds.

    Returns:
        dict: name -> {``median``, ``min``, ``max`` seconds per call, ``calls`` per batch,
        ``gc_share``: the fraction of the timed batches spent in the garbage collector}.
    """
    calls = {}
    for name, fn in fns.items():
        start = time.perf_counter()
        fn()
        once = time.perf_counter() - start
        calls[name] = max(1, int(min_time / max(once, 1e-9)))
    per_call = {name: [] for name in fns}
    total = {}
    names = list(fns)
    clock = _GcClock()
    for r in range(repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            fn, n = fns[name], calls[name]
            gc.collect()
            clock.start_batch(name)
            start = time.perf_counter()
            for _ in range(n):
                fn()
            elapsed = time.perf_counter() - start
            clock.end_batch()
            per_call[name].append(elapsed / n)
            total[name] = total.get(name, 0.0) + elapsed
    return {name: {"median": statistics.median(ts), "min": min(ts), "max": max(ts), "calls": calls[name],
                   "gc_share": clock.seconds.get(name, 0.0) / total[name]}
            for name, ts in per_call.items()}


class _GcClock:
    """Adds up, per callable, the time the garbage collector takes inside its timed batches."""

    def __init__(self):
        self.seconds = {}
        self._name = None
        self._start = None

    def __call__(self, phase, info):
        if self._name is None:
            return
        if phase == "start":
            self._start = time.perf_counter()
        elif self._start is not None:
            self.seconds[self._name] = self.seconds.get(self._name, 0.0) + time.perf_counter() - self._start
            self._start = None

    def start_batch(self, name):
        self._name = name
        gc.callbacks.append(self)

    def end_batch(self):
        gc.callbacks.remove(self)
        self._name = None


def format_seconds(seconds):
    """``12.3 µs``, ``4.56 ms`` or ``1.23 s``: three significant digits."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale or unit == "µs":
            value = seconds / scale
            digits = 0 if value >= 100 else 1 if value >= 10 else 2
            return f"{value:.{digits}f} {unit}"
    raise AssertionError("unreachable")
