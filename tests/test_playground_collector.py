"""The page's garbage-collector settings (``playground.collector``): what the worker sets up."""
import gc

import pytest

from autograd_py.playground import Session, collector

# A learner's scalar loop that keeps its graphs: every statement recorded, ~100,000 containers alive
LOOP = """import torch
w = torch.tensor(0.5, requires_grad=True)
kept = []
for step in range(2000):
    s = w * 1.0
    for k in range(4):
        s = s * w + 0.1
    kept.append(s)
kept[-1].backward()
print(round(w.grad.item(), 6))
"""


@pytest.fixture
def settled():
    before = gc.get_threshold()
    gc.collect()  # (the counts start from nothing: the test does not depend on earlier tests)
    try:
        yield collector.settle()
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def _full_collections(fn):
    seen = []

    def note(phase, info):
        if phase == "stop" and info["generation"] == 2:
            seen.append(info)

    gc.callbacks.append(note)
    try:
        result = fn()
    finally:
        gc.callbacks.remove(note)
    return result, len(seen)


def test_settle_freezes_what_is_loaded_and_makes_full_collections_rarer(settled):
    assert settled == (gc.get_threshold()[0], gc.get_threshold()[1], collector.FULL_COLLECTION_EVERY)
    assert gc.get_freeze_count() > 10_000  # this test process's modules: what a page has loaded


def test_a_recorded_run_is_not_followed_by_a_full_collection(settled):
    """With CPython's default thresholds a full collection came right after every long recorded
    run (the timeline restores them, and the run's middle-generation collections had passed ten);
    settled, none comes in the run nor while its result is made."""
    session = Session(timeline=True)
    result, full = _full_collections(lambda: session.run_json(LOOP))
    assert '"ok": true' in result
    assert full == 0
    gc.set_threshold(700, 10, 10)  # CPython's defaults: the same run is followed by one
    gc.collect()
    result, full = _full_collections(lambda: session.run_json(LOOP))
    assert '"ok": true' in result and full >= 1


def test_young_cycles_are_still_collected(settled):
    """Only full collections are rarer: a cycle dropped in a loop goes with the young generations."""
    import weakref

    class Cycle:
        pass

    dead = []
    for _ in range(3000):  # a few young collections' worth of allocations
        a = Cycle()
        a.self = a
        dead.append(weakref.ref(a))
        del a
    assert sum(ref() is None for ref in dead) > 2000
