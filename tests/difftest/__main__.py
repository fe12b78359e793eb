"""Command line: ``python -m tests.difftest {run,record,known,show}`` from the repository root.

``run --n N --seed S``   generate N fresh programs, run them in PyTorch and autograd_py, shrink
                         and group the divergences, write ``--report`` (default REPORT.md here).
``record``               regenerate the committed corpus from PyTorch (same seed, same bytes).
``known``                rewrite known_divergences.json from autograd_py as it is now (no torch).
``show ID``              print corpus program ID as a standalone script.
"""
import argparse
import pathlib
import sys
import time

from . import corpus as corpus_mod
from .compare import compare
from .generator import generate, program_seed, render
from .pool import Pair, Worker
from .report import group, markdown
from .shrink import shrink

HERE = pathlib.Path(__file__).resolve().parent


def _torch():
    import torch
    if not hasattr(torch, "_C"):
        raise SystemExit("this command needs real PyTorch")
    return torch


def cmd_run(args):
    torch = _torch()
    t0 = time.time()
    programs = [generate(torch, program_seed(args.seed, k)) for k in range(args.n)]
    t_gen = time.time() - t0
    pair = Pair()
    t1 = time.time()
    expected, actual = pair.run_all(programs)
    t_run = time.time() - t1
    found = []
    t2 = time.time()
    for k, (blocks, exp, act) in enumerate(zip(programs, expected, actual)):
        divergence = compare(exp, act, blocks)
        if divergence is None:
            continue
        shrunk = shrink(pair, blocks, divergence) if args.shrink else blocks
        # the shrunk program's own first difference names the group (same signature by construction)
        e2, a2 = pair.run(shrunk)
        found.append((f"{args.seed}:{k}", compare(e2, a2, shrunk) or divergence, shrunk))
    t_shrink = time.time() - t2
    pair.close()
    groups = group(found)
    rate = 100.0 * len(found) / max(1, args.n)
    summary = [
        f"Command: `python -m tests.difftest run --n {args.n} --seed {args.seed}` "
        f"(program k has seed `{args.seed} * 1000003 + k`; ids below are `seed:k`).",
        "",
        f"- programs: {args.n}; diverging: {len(found)} ({rate:.2f}%); groups: {len(groups)}",
        f"- time: generating {t_gen:.1f} s, running both backends {t_run:.1f} s "
        f"({1000 * t_run / max(1, args.n):.1f} s per 1,000 programs), shrinking {t_shrink:.1f} s",
        "- each block of a program runs in its own `try` that prints `type(e).__name__, e`; `show`/`showgrad`"
        " are the printing helpers of `worker.PRELUDE` (`python -m tests.difftest show` renders a script)",
    ]
    pathlib.Path(args.report).write_text(markdown(groups, summary), encoding="utf-8")
    print("\n".join(summary))
    print(f"report: {args.report}")


def cmd_record(args):
    torch = _torch()
    programs = [generate(torch, program_seed(corpus_mod.CORPUS_SEED, k)) for k in range(args.n)]
    worker = Worker("torch")
    outputs = worker.run_all(programs)
    worker.close()
    entries = [{"id": k, "blocks": b, "out": o} for k, (b, o) in enumerate(zip(programs, outputs))]
    corpus_mod.write_corpus(entries, torch.__version__, corpus_mod.CORPUS_SEED)
    print(f"recorded {len(entries)} programs into {corpus_mod.CORPUS}")


def replay():
    """Run every corpus program in autograd_py; return [(entry, divergence or None)]."""
    doc = corpus_mod.read_corpus()
    worker = Worker("ag")
    entries = doc["programs"]
    outputs = worker.run_all([e["blocks"] for e in entries])
    worker.close()
    return [(e, compare(e["out"], out, e["blocks"])) for e, out in zip(entries, outputs)]


def cmd_known(args):
    known = {str(e["id"]): corpus_mod.group_name(d) for e, d in replay() if d is not None}
    corpus_mod.write_known(known)
    print(f"{len(known)} corpus programs diverge; listed in {corpus_mod.KNOWN}")


def cmd_show(args):
    doc = corpus_mod.read_corpus()
    sys.stdout.write(render(doc["programs"][args.id]["blocks"]))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.difftest", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("--n", type=int, default=1000)
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--report", default=str(HERE / "REPORT.md"))
    run.add_argument("--no-shrink", dest="shrink", action="store_false")
    record = sub.add_parser("record")
    record.add_argument("--n", type=int, default=corpus_mod.CORPUS_SIZE)
    sub.add_parser("known")
    show = sub.add_parser("show")
    show.add_argument("id", type=int)
    args = parser.parse_args(argv)
    {"run": cmd_run, "record": cmd_record, "known": cmd_known, "show": cmd_show}[args.command](args)


if __name__ == "__main__":
    main()
