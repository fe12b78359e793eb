"""Opening a folded loop iteration: the last run's code runs again, storing that iteration too.

Why a replay, and what makes it the same run, is in ``timeline_loops``'s docstring. The replay is
a run as the Run button makes one (a fresh namespace; the views and the timeline are the new
run's), from the first run's random generator state, and without streaming its output again (the
console shows the first run's; ``stdout`` is in the answer all the same).
"""
from ..random import generator as _random
from .backward import RequestError


def open_iteration(session, group, iteration):
    """Runs the last run's code again with ``focus`` on iteration ``iteration`` of loop run ``group``.

    Args:
        session (session.Session): the page's session; its last run recorded a timeline.
        group (int): a loop group's ``id`` (see ``timeline_loops``).
        iteration (int): 1-based.

    Returns:
        dict: ``Session.run``'s answer plus ``replay``: ``{"group", "iteration", "step", "same"}``,
        ``step`` the first step of that iteration in the new timeline (None when it was not
        reached, or the recorder rested before it), ``same`` whether the run took as many steps
        as the first; ``{"ok": False, "error", "request_error": True}`` without a timeline.
    """
    old = session._timeline
    if old is None:
        return {"ok": False, "error": {"type": "RequestError", "code": "no_timeline",
                                       "message": "run the code first", "params": {}}, "request_error": True}
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in (group, iteration)):
        raise RequestError("bad_request", "open_iteration needs a group id and an iteration number",
                           kind="open_iteration")
    result, same = rerun(session, focus={"group": group, "iteration": iteration})
    timeline = result.get("timeline")
    step = None
    if timeline:
        row = next((g for g in timeline["groups"] if g["id"] == group), None)
        first = next((s[1] for s in row["shown"] if s[0] == iteration), None) if row is not None else None
        step = first
    result["replay"] = {"group": group, "iteration": iteration, "step": step, "same": same}
    return result


def rerun(session, focus=None, pass_focus=None):
    """Runs the last run's code again as the same run, keeping what ``focus`` and ``pass_focus`` ask.

    Args:
        session (session.Session): the page's session; its last run recorded a timeline.
        focus (dict, optional): ``{"group", "iteration"}``, a loop iteration the timeline stores.
        pass_focus (int, optional): a backward pass whose steps are kept (``timeline_passes``).

    Returns:
        tuple: ``Session.run``'s answer, and whether the run took as many steps as the last one.
    """
    old = session._timeline
    code, generator, total = old.code, old.start_generator, old.total
    session.reset()
    if generator is not None:
        session.globals.values["generator"] = generator
        if session.globals._active:  # a request runs with the session's settings in force already
            _random.default_generator._restore(generator)
    on_output, session.on_output = session.on_output, None
    session.timeline_focus, session.pass_focus = focus, pass_focus
    try:
        result = session.run(code, fresh=False)
    finally:
        session.on_output, session.timeline_focus, session.pass_focus = on_output, None, None
    timeline = result.get("timeline")
    return result, bool(timeline) and timeline["total_steps"] == total
