"""Records the steps of backward passes as plain JSON, for the step-through view.

Example::

    >>> with trace.record() as steps:
    ...     y.backward()
    >>> [s["name"] for s in steps if s["event"] == "node"]
    ['SumBackward0', 'MulBackward0']
"""
import contextlib

from .. import engine
from .graph import preview


def _grad(t):
    return None if t is None else {"shape": list(t._data.shape), **preview(t._data)}


def _to_json(event):
    kind = event["event"]
    if kind == "node":
        return {"event": "node", "node": f"f{event['node']}", "name": event["name"],
                "grads_in": [_grad(g) for g in event["grads_in"]],
                "grads_out": [{"to": f"f{id(n)}" if n is not None else None, "input_nr": i, "grad": _grad(g)}
                              for i, ((n, _), g) in enumerate(zip(event["edges"], event["grads_out"]))],
                "freed": event["freed"]}
    if kind == "accumulate":
        return {"event": "accumulate", "node": f"f{event['node']}", "variable": f"t{event['variable']}",
                "grad": _grad(event["grad"])}
    if kind == "hook":
        return {"event": "hook", "node": f"f{event['node']}", "output_nr": event["output_nr"],
                "grad": _grad(event["grad"]), "replaced": event["replaced_with"] is not None}
    return {"event": kind}


@contextlib.contextmanager
def record(limit=5000):
    """Collects every engine event inside the block into a list of JSON-able dicts.

    Args:
        limit (int, optional): the most steps kept; later ones are counted, not stored.
            Defaults to 5000.
    """
    steps = []
    dropped = [0]

    def listen(event):
        if len(steps) < limit:
            steps.append(_to_json(event))
        else:
            dropped[0] += 1

    previous = engine.set_listener(listen)
    try:
        yield steps
    finally:
        engine.set_listener(previous)
        if dropped[0]:
            steps.append({"event": "dropped", "count": dropped[0]})
