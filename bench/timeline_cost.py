"""What recording the timeline costs a playground run (issue 12: at most 1.5x on W2-sized code).

Each program runs through ``Session.run`` with and without ``timeline=True``, the two alternating
run by run so that a busy spell of the shared machine hits both alike. Printed: the medians of the
process's CPU time (``--clock wall`` for wall-clock time) and their ratio, for the whole ``run``
(the run, the views and the timeline's export) and for the run with its JSON, as the worker's
``run_json`` sends it to the page (the timeline's deltas make most of it).

```
python bench/timeline_cost.py               # every program, 9 runs each
python bench/timeline_cost.py --repeats 21 --only W2 --clock wall
```

Programs: ``W2``, 20 training steps of the 64x784 -> 128 -> 10 tanh MLP of bench/problems.py's W2,
written with plain tensors as a learner would (log_softmax, NLL by indexing, SGD by hand);
``W2-nn``, the same with ``nn.Sequential``, ``F.cross_entropy`` and ``optim.SGD``; ``loop``, a
10,000-iteration loop of scalar Python (one tensor op at the end), where the recorder's cost per
statement shows alone; ``micrograd``, 20 steps of bench W4's 3 -> 4 -> 4 -> 1 MLP on 0-dim tensors
with SGD by hand (some 12,800 statements, 350 nodes a step), what scalar tutorials run.

One thread for NumPy's BLAS and run.py's heap setting (``MALLOC_TOP_PAD_``, see worker.py), so
the shared machine's other work disturbs the medians less.
"""
import os
import sys

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ[_var] = "1"
if "MALLOC_TOP_PAD_" not in os.environ:  # glibc reads it at start-up, hence the re-exec
    os.environ["MALLOC_TOP_PAD_"] = str(64 << 20)
    os.execv(sys.executable, [sys.executable, *sys.argv])

import argparse  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from autograd_py.playground.session import Session, _dumps  # noqa: E402
from page_programs import PROGRAMS  # noqa: E402

CLOCK = [time.process_time]  # CPU time: the shared machine's other work hardly moves it (--clock wall)


def measure(code, repeats):
    """Medians (s) of ``Session.run`` and of the run with its JSON for the page (``run_json``'s
    parts), without and with the timeline; the timeline's steps; the JSON's size."""
    sessions = {False: Session(timeline=False), True: Session(timeline=True)}
    times = {part: {False: [], True: []} for part in ("run", "page")}
    recorded = None  # the last run with the timeline and its JSON
    for i in range(repeats + 1):
        for timeline in ((False, True) if i % 2 else (True, False)):
            gc.collect()
            start = CLOCK[0]()
            result = sessions[timeline].run(code)
            ran = CLOCK[0]()
            text = _dumps(result)
            dumped = CLOCK[0]()
            if not result["ok"]:
                raise RuntimeError(result["error"]["traceback"])
            if i:  # the first round warms up
                times["run"][timeline].append(ran - start)
                times["page"][timeline].append(dumped - start)
            if timeline:
                recorded = result, text
    medians = {part: {k: statistics.median(v) for k, v in runs.items()} for part, runs in times.items()}
    return medians, recorded[0]["timeline"]["total_steps"], len(recorded[1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--only", default=",".join(PROGRAMS))
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args(argv)
    CLOCK[0] = time.process_time if args.clock == "cpu" else time.perf_counter
    print("| program | steps | run off | run on | ratio | run + JSON off | on | ratio | JSON on |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.only.split(","):
        m, steps, size = measure(PROGRAMS[name], args.repeats)
        run, page = m["run"], m["page"]
        print(f"| {name} | {steps} | {run[False] * 1e3:.1f} ms | {run[True] * 1e3:.1f} ms | "
              f"{run[True] / run[False]:.2f}x | "
              f"{page[False] * 1e3:.1f} ms | {page[True] * 1e3:.1f} ms | {page[True] / page[False]:.2f}x | "
              f"{size / 1e3:.0f} kB |", flush=True)


if __name__ == "__main__":
    main()
