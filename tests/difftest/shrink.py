"""Shrink a diverging program: delete blocks, then lines, while the same divergence persists."""
from .compare import compare


def _still(pair, blocks, signature):
    expected, actual = pair.run(blocks)
    found = compare(expected, actual, blocks)
    return found is not None and found.signature() == signature


def shrink(pair, blocks, divergence, budget=400):
    """Return the smallest program found that still shows ``divergence``.

    Args:
        pair (pool.Pair): the two backends.
        blocks (list[str]): the program.
        divergence (compare.Divergence): what must stay (same category and detail).
        budget (int): most programs to run. Defaults to 400.
    """
    signature = divergence.signature()
    original, blocks = list(blocks), list(blocks[:divergence.block + 1])
    runs = 1
    if not _still(pair, blocks, signature):
        return original  # the tail mattered (e.g. a hook or warning printed later); keep it whole
    changed = True
    while changed and runs < budget:
        changed = False
        for k in range(len(blocks) - 1, -1, -1):
            if runs >= budget or k >= len(blocks):
                continue
            candidate = blocks[:k] + blocks[k + 1:]
            runs += 1
            if candidate and _still(pair, candidate, signature):
                blocks, changed = candidate, True
    for k in range(len(blocks)):
        lines = blocks[k].splitlines()
        j = len(lines) - 1
        while j >= 1 and runs < budget:
            if len(lines) > 2:
                trial = lines[:j] + lines[j + 1:]
                candidate = blocks[:k] + ["\n".join(trial)] + blocks[k + 1:]
                runs += 1
                if _still(pair, candidate, signature):
                    blocks, lines = candidate, trial
            j -= 1
    return blocks
