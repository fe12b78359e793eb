"""Times the autograd workloads W1-W5 on every installed framework and writes a Markdown table.

Each workload is one forward + backward in float64 on one thread. Each framework runs in its own
worker process (``worker.py``), importing only itself, and the workers are timed in turns.
Every framework's result is first checked against a NumPy reference derived by hand
(``problems.py``), so wrong code is never timed unnoticed. Times are medians over repeats;
ratios are against torch.

Usage::

    python bench/run.py                 # full run, writes bench/results.md
    python bench/run.py --quick         # smoke run: few repeats, prints only
    python bench/run.py --only W1,W3    # some workloads (W3 = W3-loop and W3-vec)
"""
import os

# Before NumPy or torch load their BLAS / OpenMP runtimes: everything runs on one thread.
for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS",
             "NUMEXPR_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # the bench modules, and autograd_py from this checkout

import problems  # noqa: E402
import report  # noqa: E402
import timing  # noqa: E402
from frameworks import FRAMEWORKS  # noqa: E402
from worker import MALLOC_TOP_PAD, WorkerClient  # noqa: E402

# (row id, workload whose data it uses, label)
ROWS = [
    ("W1", "W1", "W1: 1000-op elementwise chain on 4 elements (per op)"),
    ("W2", "W2", "W2: MLP 64×784→128→10 training step"),
    ("W3-loop", "W3", "W3: 64×64 Jacobian by 64 VJPs"),
    ("W3-vec", "W3", "W3: 64×64 Jacobian, vectorized"),
    ("W4", "W4", "W4: micrograd scalar MLP 3→4→4→1, 4 samples"),
    ("W5", "W5", "W5: 2nd derivative of Σ x³ sin x, n=1000"),
    ("R1", "R1", "R1: torch.randn(1000, 1000) after manual_seed (no autograd)"),
    ("F1-jacfwd", "W3", "F1: W3's Jacobian by torch.func.jacfwd"),
    ("F2-jacrev", "W3", "F2: W3's Jacobian by torch.func.jacrev"),
    ("F3-vmap", "F3", "F3: per-sample grads, 64-sample linear model, vmap(grad)"),
    ("F3-loop", "F3", "F3: the same by a Python loop of 64 grad calls"),
]
TOLERANCE = 1e-8


def _parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few short repeats; does not write results.md")
    parser.add_argument("--only", default="", help="comma-separated workloads, e.g. W1,W3 or W3-vec")
    parser.add_argument("--repeats", type=int, help="batches per measurement (default 15, quick 3)")
    parser.add_argument("--min-time", type=float, help="seconds per batch (default 0.2, quick 0.01)")
    parser.add_argument("--out", help="Markdown file to write (default bench/results.md; quick: none)")
    parser.add_argument("--no-malloc-pad", action="store_true",
                        help="do not set MALLOC_TOP_PAD_ for the workers (see worker.py)")
    args = parser.parse_args(argv)
    args.repeats = args.repeats or (3 if args.quick else 15)
    args.min_time = args.min_time if args.min_time is not None else (0.01 if args.quick else 0.2)
    if args.out is None and not args.quick:
        args.out = str(HERE / "results.md")
    return args


def _select(only):
    if not only:
        return ROWS
    wanted = [w.strip().upper() for w in only.split(",") if w.strip()]
    rows = [r for r in ROWS if r[0].upper() in wanted or r[1] in wanted]
    unknown = [w for w in wanted if not any(w in (r[0].upper(), r[1]) for r in ROWS)]
    if unknown:
        raise SystemExit(f"unknown workload(s): {', '.join(unknown)}; choose from {[r[0] for r in ROWS]}")
    return rows


def run_row(row_id, workload, workers, repeats, min_time):
    """Checks, then times side by side, every framework on one table row.

    The workers take turns batch by batch, in a rotating order, so that a busy spell of the
    machine (another process) lands on all of them alike: the ratios stay meaningful.

    Returns:
        dict: framework name -> cell with ``seconds`` (median per unit; W1 per op), ``spread``,
        ``calls``, ``gc_share``, ``rounds`` (seconds per call in each round, in order) and
        ``error``, or with ``na``.
    """
    per = problems.make_data(workload)["n_ops"] if workload == "W1" else 1
    cells = {}
    for w in workers:
        cells[w.name] = {"na": w.na} if w.na else w.request(cmd="prepare", row=row_id, workload=workload,
                                                             min_time=min_time)
    timed = [w for w in workers if "na" not in cells[w.name]]
    batches = {w.name: [] for w in timed}
    for r in range(repeats):
        k = r % len(timed) if timed else 0
        for w in timed[k:] + timed[:k]:
            answer = w.request(cmd="batch")
            batches[w.name].append((answer["elapsed"], answer["gc"]))
    for w in timed:
        stats = timing.summarize(batches[w.name], cells[w.name]["calls"])
        cells[w.name].update(seconds=stats["median"] / per, spread=(stats["min"] / per, stats["max"] / per),
                             gc_share=stats["gc_share"],
                             rounds=[elapsed / stats["calls"] for elapsed, _ in batches[w.name]])
    return cells


def main(argv=None):
    args = _parse(argv)
    rows = _select(args.only)
    pad = 0 if args.no_malloc_pad else MALLOC_TOP_PAD
    workers = [WorkerClient(fw.name, pad) for fw in FRAMEWORKS]
    results = {}
    try:
        for row_id, workload, _label in rows:
            for name, cell in run_row(row_id, workload, workers, args.repeats, args.min_time).items():
                results[row_id, name] = cell
                shown = timing.format_seconds(cell["seconds"]) if "seconds" in cell else "n/a: " + cell["na"]
                print(f"  {row_id:8} {name:12} {shown}", file=sys.stderr, flush=True)
    finally:
        for w in workers:
            w.close()
    text = report.render(rows, [w.name for w in workers], results, {w.name: w.version for w in workers},
                         {"repeats": args.repeats, "min_time": args.min_time, "quick": args.quick,
                          "malloc_pad": pad},
                         TOLERANCE)
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
