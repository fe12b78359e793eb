"""The page's requests about the last run's timeline, answered for ``Session.request_json``:

- ``inspect`` ``{name, step}``: a variable at a step, for the editor's hover (``Session.inspect``);
- ``describe`` ``{node, step}``: a clicked node's details at a step (``timeline_past``);
- ``open_iteration`` ``{group, iteration}``: a folded loop iteration, by a replay (``timeline_replay``);
- ``flow`` ``{node, step}``: gradient flow in the graph drawn at a step (``graph_reach``);
- ``pass`` ``{pass}``: a backward pass's steps for the step-through (``timeline_passes``).

Each answers ``{"ok": False, "error": {"code": "no_timeline"}, "request_error": True}`` when the
session has no timeline (no run recorded one, or a reset since).
"""
from . import graph
from .backward import RequestError
from .graph_reach import flow_at_step
from .timeline_passes import open_pass
from .timeline_past import describe_at
from .timeline_replay import open_iteration

KINDS = ("inspect", "open_iteration", "flow", "pass")  # and describe with a step
NO_TIMELINE = {"ok": False, "error": {"type": "RequestError", "code": "no_timeline", "message": "run the code first",
                                      "params": {}}, "request_error": True}


def handles(kind, request):
    """Whether ``answer`` takes this request (a ``describe`` only with a step)."""
    return kind in KINDS or kind == "describe" and request.get("step") is not None


def answer(session, kind, request, graph_budget):
    """The answer to a request ``handles`` took.

    Args:
        session (session.Session): the page's session.
        kind (str): the request's type.
        request (dict): its fields.
        graph_budget (int): most nodes of a graph the page draws (``session.GRAPH_BUDGET``).

    Returns:
        dict: the answer (see the module's docstring).
    """
    timeline = session._timeline
    if timeline is None:
        return NO_TIMELINE
    if kind == "open_iteration":
        return open_iteration(session, request.get("group"), request.get("iteration"))
    if kind == "pass":
        number = request.get("pass")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise RequestError("bad_request", "pass needs a pass number", kind="pass")
        return open_pass(session, number)
    step = request.get("step")
    if not isinstance(step, int) or isinstance(step, bool):
        raise RequestError("bad_request", f"{kind} needs a step number", kind=kind)
    if kind == "inspect":
        if not isinstance(request.get("name"), str):
            raise RequestError("bad_request", "inspect needs a name and a step number", kind="inspect")
        return timeline.inspect(request["name"], step)
    node = request.get("node")
    if not isinstance(node, str):
        raise RequestError("bad_request", f"{kind} needs a node id", kind=kind)
    if kind == "describe":
        return describe_at(session.namespace, timeline, node, step)
    final = graph.export(session.namespace, budget=graph_budget, provenance=session._provenance)
    return flow_at_step(timeline, final, step, node)
