"""How the page's Python collects garbage: what the worker sets up once the playground is loaded.

Full collections walk every tracked object alive. In the page, what a run recorded (its timeline,
its passes, the views' rows: ~140,000 containers after a 20-step micrograd loop) stays alive until
the next run replaces it, and nearly all of it is freed by reference counting then: a full
collection finds a few hundred objects in cycles among them. With CPython's default of one full
collection per ten of the middle generation, one came right after every such run, while the
page waited for its result (72 ms of a 530 ms ``run_json`` in CPython). Ten times rarer, one comes
every few runs. The young generations are collected as often as ever, so short-lived cycles (an
autograd graph dropped inside a loop) go as soon as before.
"""
import gc

FULL_COLLECTION_EVERY = 100  # collections of the middle generation per full one (CPython: 10)


def settle():
    """Prepares the collector for the page's runs: call once, after the playground is imported.

    What is loaded by then lives as long as the page, so it is frozen: full collections no longer
    walk it (some 30,000 objects). Full collections come ``FULL_COLLECTION_EVERY`` collections of
    the middle generation apart.

    Returns:
        tuple: the collector's thresholds now.

    Example::

        >>> from autograd_py.playground import collector
        >>> collector.settle()[2]
        100
    """
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)
    return gc.get_threshold()
