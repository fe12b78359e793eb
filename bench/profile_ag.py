"""Profiles autograd_py on one benchmark workload with cProfile.

Prints the functions with the most own time (``tottime``) and the most cumulative time, per
call of the workload, plus the time the garbage collector took (a collection runs every few
hundred container objects made, so a long graph pays for it while it is being recorded).
``--no-backward`` makes ``Tensor.backward`` do nothing, so that W1, W2 and W4 profile the
forward (recording) side alone.

Usage::

    python bench/profile_ag.py W4 [--calls 200] [--top 25] [--no-backward]
"""
import os

import sys  # noqa: E402

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ[_var] = "1"
if "MALLOC_TOP_PAD_" not in os.environ:
    # Same heap setting as run.py's workers (see worker.py); glibc reads it at start-up, hence the
    # re-exec. Set MALLOC_TOP_PAD_=0 to profile with glibc's defaults.
    os.environ["MALLOC_TOP_PAD_"] = str(64 << 20)
    os.execv(sys.executable, [sys.executable, *sys.argv])

import argparse  # noqa: E402
import cProfile  # noqa: E402
import gc  # noqa: E402
import pstats  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import autograd_py  # noqa: E402
import fw_torchlike  # noqa: E402
import problems  # noqa: E402

_WORKLOAD_OF = {"W1": "W1", "W2": "W2", "W3-loop": "W3", "W3-vec": "W3", "W4": "W4", "W5": "W5",
                "F1-jacfwd": "W3", "F2-jacrev": "W3", "F3-vmap": "F3", "F3-loop": "F3"}


class _GcClock:
    """Adds up the time spent in garbage collections while installed."""

    def __init__(self):
        self.seconds = 0.0
        self.collections = 0
        self._start = None

    def __call__(self, phase, info):
        if phase == "start":
            self._start = time.perf_counter()
        elif self._start is not None:
            self.seconds += time.perf_counter() - self._start
            self.collections += 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("row", choices=list(_WORKLOAD_OF))
    parser.add_argument("--calls", type=int, default=100, help="workload calls to profile")
    parser.add_argument("--top", type=int, default=25, help="functions to list")
    parser.add_argument("--no-backward", action="store_true",
                        help="Tensor.backward does nothing: the forward (recording) side alone (W1, W2, W4)")
    args = parser.parse_args(argv)
    if args.no_backward:
        autograd_py.Tensor.backward = lambda self, *args, **kwargs: None

    run, _ = fw_torchlike.WORKLOADS[args.row](autograd_py, problems.make_data(_WORKLOAD_OF[args.row]))
    run()
    gc.collect()
    start = time.perf_counter()
    clock = _GcClock()
    gc.callbacks.append(clock)
    for _ in range(args.calls):
        run()
    gc.callbacks.remove(clock)
    wall = (time.perf_counter() - start) / args.calls
    print(f"{args.row}: {wall * 1e3:.3f} ms per call without profiler; garbage collector "
          f"{clock.seconds / args.calls * 1e3:.3f} ms per call ({clock.collections} collections)")

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(args.calls):
        run()
    profiler.disable()
    stats = pstats.Stats(profiler)
    print(f"\n--- by own time ({args.calls} calls; divide by it for per call) ---")
    stats.sort_stats("tottime").print_stats(args.top)
    print("--- by cumulative time ---")
    stats.sort_stats("cumulative").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
