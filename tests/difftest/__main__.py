"""Command line: ``python -m tests.difftest {run,record,known,show}`` from the repository root.

``run --n N --seed S``   generate N fresh programs, run them in PyTorch and autograd_py, shrink
                         and group the divergences, write ``--report`` (default REPORT.md here).
``record``               regenerate the committed corpus from PyTorch (same seed, same bytes).
``known [--rebuild]``    drop fixed programs from known_divergences.json (no torch); a new
                         divergence is a regression and is reported, not added (--rebuild: all).
``show ID``              print corpus program ID as a standalone script.
"""
import argparse
import pathlib
import sys
import time

from . import corpus as corpus_mod
from .compare import compare
from .generator import program_seed, render
from .pool import Pair, Worker, crashed
from .report import group, group_key, markdown
from .shrink import shrink

HERE = pathlib.Path(__file__).resolve().parent


def _torch():
    import torch
    if not hasattr(torch, "_C"):
        raise SystemExit("this command needs real PyTorch")
    return torch


def generate_all(worker, run_seed, n):
    """``{k: blocks}`` for programs 0..n-1 of ``run_seed``; a program PyTorch crashed on is left out."""
    programs = {}
    for k in range(n):
        blocks = worker.generate(program_seed(run_seed, k))
        if blocks is not None:
            programs[k] = blocks
    return programs


def cmd_run(args):
    pair = Pair()
    t0 = time.time()
    generated = generate_all(pair.torch, args.seed, args.n)
    t_gen = time.time() - t0
    t1 = time.time()
    expected, actual = pair.run_all(list(generated.values()))
    t_run = time.time() - t1
    torch_crashes = [k for k, out in zip(generated, expected) if crashed(out)]
    skipped = sorted(set(range(args.n)) - set(generated)) + torch_crashes
    keep = [i for i, out in enumerate(expected) if not crashed(out)]
    ids = [list(generated)[i] for i in keep]
    programs = [list(generated.values())[i] for i in keep]
    expected, actual = [expected[i] for i in keep], [actual[i] for i in keep]
    t2 = time.time()
    found = shrink_and_group(pair, ids, programs, expected, actual, args)
    n_found = sum(len(entries) for _, entries in found)
    t_shrink = time.time() - t2
    pair.close()
    groups = group(found)
    rate = 100.0 * n_found / max(1, len(programs))
    summary = [
        f"Command: `python -m tests.difftest run --n {args.n} --seed {args.seed}` "
        f"(program k has seed `{args.seed} * 1000003 + k`; ids below are `seed:k`).",
        "",
        f"- autograd_py: the working tree on top of commit {_head()} at "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- programs: {len(programs)} compared ({args.n} generated; left out because PyTorch itself "
        f"crashed (segfault) making or running them: {', '.join(f'{args.seed}:{k}' for k in skipped) or 'none'})",
        f"- diverging: {n_found} ({rate:.2f}%); groups: {len(groups)}",
        f"- time: generating {t_gen:.1f} s, running both backends {t_run:.1f} s "
        f"({1000 * t_run / max(1, args.n):.1f} s per 1,000 programs), shrinking {t_shrink:.1f} s",
        "- each block of a program runs in its own `try` that prints `type(e).__name__, e`; `show`/`showgrad`"
        " are the printing helpers of `worker.PRELUDE` (`python -m tests.difftest show` renders a script)",
    ]
    pathlib.Path(args.report).write_text(markdown(groups, summary), encoding="utf-8")
    print("\n".join(summary))
    print(f"report: {args.report}")


def _head():
    import subprocess
    proc = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=HERE)
    return proc.stdout.strip() or "unknown"


def shrink_and_group(pair, ids, programs, expected, actual, args):
    """Shrink the smallest few programs of each first-difference signature; the rest of the
    signature's programs join the group of its first shrunk program.

    Returns a list of ``(key, entries)`` with entries ``(id, divergence, blocks, shrunk)``.
    """
    by_signature = {}
    for k, blocks, exp, act in zip(ids, programs, expected, actual):
        divergence = compare(exp, act, blocks)
        if divergence is not None:
            signature = divergence.signature() + (divergence.label,)
            by_signature.setdefault(signature, []).append((f"{args.seed}:{k}", divergence, blocks))
    found = []
    for members in by_signature.values():
        members.sort(key=lambda m: (sum(len(b) for b in m[2]), m[0]))
        key = None
        for n, (pid, divergence, blocks) in enumerate(members):
            # wrong values are grouped by the ops of their minimal program, so each is shrunk
            if n < args.shrink_per_group or divergence.category == "value":
                blocks = shrink(pair, blocks, divergence)
                exp, act = pair.run(blocks)
                divergence = compare(exp, act, blocks) or divergence
                key = key or group_key(divergence, blocks)
                found.append((group_key(divergence, blocks) if divergence.category == "value" else key,
                              [(pid, divergence, blocks, True)]))
            else:
                found.append((key, [(pid, divergence, blocks, False)]))
    return found


def cmd_record(args):
    version = _torch().__version__  # only to check and name it; programs run in the worker
    worker = Worker("torch")
    generated = generate_all(worker, corpus_mod.CORPUS_SEED, args.n)
    outputs = worker.run_all(list(generated.values()))
    worker.close()
    entries = [{"id": k, "blocks": b, "out": o} for (k, b), o in zip(generated.items(), outputs)
               if not crashed(o)]
    corpus_mod.write_corpus(entries, version, corpus_mod.CORPUS_SEED)
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
    """Drop fixed programs from the list; with ``--rebuild`` (after ``record``) list every divergence.

    Without ``--rebuild`` a program that diverges but is not listed is a regression: it is
    reported, not added, so the list only shrinks.
    """
    listed = corpus_mod.read_known()
    diverging = {str(e["id"]): corpus_mod.group_name(d) for e, d in replay() if d is not None}
    if args.rebuild:
        known = diverging
    else:
        known = {pid: name for pid, name in diverging.items() if pid in listed}
        new = sorted((pid for pid in diverging if pid not in listed), key=int)
        for pid in new:
            print(f"regression (not added): program {pid}: {diverging[pid]}")
    corpus_mod.write_known(known)
    print(f"{len(known)} corpus programs listed in {corpus_mod.KNOWN} ({len(listed) - len(known)} fewer)")
    if not args.rebuild and new:
        raise SystemExit(1)


def cmd_show(args):
    doc = corpus_mod.read_corpus()
    entry = next(p for p in doc["programs"] if p["id"] == args.id)
    sys.stdout.write(render(entry["blocks"]))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tests.difftest", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("--n", type=int, default=1000)
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--report", default=str(HERE / "REPORT.md"))
    run.add_argument("--shrink-per-group", type=int, default=2,
                     help="programs shrunk per first-difference signature (default 2)")
    record = sub.add_parser("record")
    record.add_argument("--n", type=int, default=corpus_mod.CORPUS_SIZE)
    known = sub.add_parser("known")
    known.add_argument("--rebuild", action="store_true", help="list every divergence (after record)")
    show = sub.add_parser("show")
    show.add_argument("id", type=int)
    args = parser.parse_args(argv)
    {"run": cmd_run, "record": cmd_record, "known": cmd_known, "show": cmd_show}[args.command](args)


if __name__ == "__main__":
    main()
