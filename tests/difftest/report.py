"""Group shrunk divergences by cause and write them as markdown, most severe first."""
from collections import defaultdict

from .compare import CATEGORIES, TITLES

_SKIP_LABELS = {"leaf", "grads"}


def group_key(divergence, shrunk):
    """Category and cause; for wrong values also where: the block that printed the first wrong
    value (every value before it matched, so its op is at fault), or for a wrong gradient, whose
    op is not on the line, the ops left in the minimal program."""
    if divergence.category != "value":
        return divergence.category, divergence.detail, ""
    if not divergence.detail.startswith("grad"):
        return divergence.category, divergence.detail, _op(divergence.label)
    ops = sorted({_op(b.splitlines()[0].lstrip("# ")) for b in shrunk} - _SKIP_LABELS)
    return divergence.category, divergence.detail, " + ".join(ops)


def _op(label):
    return label.replace(" (no_grad)", "")


def _where(key, entries):
    if key[2]:
        return key[2]
    labels = sorted({e[1].label for e in entries})
    return ", ".join(labels[:6]) + (", ..." if len(labels) > 6 else "")


def group(found):
    """``found``: ``[(key, entries)]`` -> merged by key, most severe and most frequent first."""
    groups = defaultdict(list)
    for key, entries in found:
        groups[key].extend(entries)
    order = sorted(groups, key=lambda k: (CATEGORIES.index(k[0]), -len(groups[k]), k))
    return [(key, groups[key]) for key in order]


def markdown(groups, summary):
    """The report: ``summary`` lines, a table of groups, then one minimal program per group."""
    out = ["# Differential testing report: autograd_py against PyTorch 2.13", ""]
    out += summary
    for category in CATEGORIES:
        chosen = [g for g in groups if g[0][0] == category]
        out.append(f"- {TITLES[category].lower()}: {sum(len(e) for _, e in chosen)} programs in {len(chosen)} groups")
    out += ["", "| # | kind | cause | where | programs |", "|---|---|---|---|---|"]
    for n, (key, entries) in enumerate(groups, 1):
        category, detail, where = key[0], key[1], _where(key, entries)
        out.append(f"| {n} | {category} | `{_cell(detail)}` | {_cell(where)} | {len(entries)} |")
    for category in CATEGORIES:
        chosen = [(n, g) for n, g in enumerate(groups, 1) if g[0][0] == category]
        if not chosen:
            continue
        out += ["", f"## {TITLES[category]} ({sum(len(g[1]) for _, g in chosen)} programs)"]
        for n, (key, entries) in chosen:
            detail, where = key[1], _where(key, entries)
            pid, divergence, shrunk, _ = min((e for e in entries if e[3]),
                                             key=lambda e: (sum(len(b) for b in e[2]), e[0]))
            ids = ", ".join(str(e[0]) for e in entries[:8]) + (" ..." if len(entries) > 8 else "")
            out += ["", f"### {n}. {detail} ({where}): {len(entries)} program(s)", "",
                    f"Programs: {ids}. Minimal program from {pid}:", "", "```python"]
            out += ["\n".join(shrunk), "```", "", "```text",
                    f"torch: {divergence.expected[:600] or '(prints nothing here: PyTorch runs it)'}",
                    f"ours:  {divergence.actual[:600] or '(prints nothing here)'}", "```"]
    return "\n".join(out) + "\n"


def _cell(text):
    return text.replace("|", "\\|").replace("`", "'")[:140]
