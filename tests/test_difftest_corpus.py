"""Replay the recorded difftest corpus (random programs with PyTorch 2.13's output) in autograd_py.

Every program must print what PyTorch printed (numbers within a dtype's tolerance, everything else
exactly), except the ones listed in ``tests/difftest/known_divergences.json``, which must still
diverge: a fixed one has to leave the list, so the list is an honest to-do that only shrinks.
The programs run in a subprocess (``tests/difftest/worker.py ag``) that never imports torch.
"""
import pytest

from difftest import corpus
from difftest.__main__ import replay

MIN_PROGRAMS = 2000


@pytest.fixture(scope="module")
def replayed():
    return replay()


def test_corpus_is_recorded_from_torch_2_13():
    doc = corpus.read_corpus()
    assert doc["torch_version"].startswith("2.13")
    assert len(doc["programs"]) >= MIN_PROGRAMS
    assert len({p["id"] for p in doc["programs"]}) == len(doc["programs"])


def test_every_program_not_listed_matches_torch(replayed):
    known = corpus.read_known()
    failures = [(e["id"], d) for e, d in replayed if d is not None and str(e["id"]) not in known]
    report = "\n".join(
        f"program {pid} ({corpus.group_name(d)}), block {d.block} [{d.label}]:\n"
        f"  torch: {d.expected[:300]}\n  ours:  {d.actual[:300]}" for pid, d in failures[:20])
    assert not failures, (f"{len(failures)} corpus program(s) diverge from PyTorch "
                          f"(`python -m tests.difftest show ID` prints one):\n{report}")


def test_known_divergences_still_diverge(replayed):
    known = corpus.read_known()
    ids = {str(e["id"]) for e, _ in replayed}
    assert set(known) <= ids, f"known_divergences.json lists ids not in the corpus: {sorted(set(known) - ids)[:10]}"
    fixed = sorted((int(e["id"]) for e, d in replayed if d is None and str(e["id"]) in known))
    assert not fixed, (f"{len(fixed)} program(s) in known_divergences.json now match PyTorch; remove them from "
                       f"the list (`python -m tests.difftest known` does it): {fixed[:40]}")
