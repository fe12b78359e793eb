"""The timeline's loop groups, and how any iteration of a long loop can be opened.

Each run of a ``for``/``while`` loop is a group: ``{"id", "line", "end", "first_step", "last_step",
"iterations", "shown", "elided", "parent"}``. ``shown`` lists ``[iteration, first step, last step]``
of the iterations whose steps are stored; ``parent`` is the group of the loop run it is nested in.
``id`` counts loop runs in the order they start, so the same code run again numbers them alike.

A long loop is summarised, not cut off: its first ``keep`` iterations and its last are stored, the
ones between are folded (their deltas merged into the next stored step, ``after_elided``, and
counted in ``elided``). Folding is what keeps a 10,000-iteration loop's timeline small and its
recorder within budget.

Opening a folded iteration re-runs the code (``timeline_replay``) with ``focus = {"group",
"iteration"}``: the recorder then stores that iteration too, as a kept one between two folded
ranges. Why a replay and not stored snapshots: an iteration's steps are what its statements
changed, step by step; keeping enough to show any of 10,000 iterations means keeping every step,
which is the cost folding avoids (a coarse snapshot per iteration would show an iteration's end,
not its steps). A playground run is a function of its code and its start: the replay starts
from the same random generator state (``Timeline.start_generator``), so its steps are the first
run's, unless the code reads the clock, files or other outside state, which the replay's answer
catches only as far as a different step count (``same``). The replay costs a run's time once per
opened iteration; steps outside loops are unaffected.

A folded iteration of an outer loop drops the groups of the loop runs inside it; ``focus`` on an
outer iteration keeps them, so nested loops open level by level.
"""


class LoopGroups:
    """The loop-group part of ``timeline.Timeline`` (a mixin: it uses the timeline's ``active``,
    ``held``, ``groups``, ``keep``, ``focus``, ``resting``, ``_fold`` and ``_store``)."""

    def _enter_loop(self, frame, line):
        self._group_seq += 1
        row = {"id": self._group_seq, "line": line, "end": self.loops.get(line, line), "first_step": self.total,
               "last_step": self.total, "iterations": 1, "shown": [[1, self.total, self.total]], "elided": None,
               "parent": self.active[-1]["row"]["id"] if self.active else None}
        if self.held is not None:
            self.held["iters"][-1][1].append(row)
        else:
            self.groups.append(row)
        self.active.append({"frame": frame, "line": line, "end": row["end"], "row": row, "first": True})

    def _settle(self, row):
        """Brings ``row``'s ``last_step`` and its iteration's last step up to the last step closed:
        done as an iteration or the loop ends, not at every step (every step closed while a loop
        runs is its, and its iteration's, last one so far)."""
        if self.resting is not None:
            return  # settled as the recorder began to rest: later steps are not the loop's
        closed = self.closed
        if closed > row["last_step"]:
            row["last_step"] = closed
        shown = row["shown"]
        if shown and shown[-1][0] == row["iterations"] and closed > shown[-1][2]:
            shown[-1][2] = closed

    def _next_iteration(self, entry):
        row = entry["row"]
        self._settle(row)
        row["iterations"] += 1
        row["shown"].append([row["iterations"], self.total, self.total])
        if self.held is None and row["iterations"] > self.keep:
            self.held = {"entry": entry, "iters": []}
        if self.held is not None and self.held["entry"] is entry:
            iters = self.held["iters"]
            # Two iterations wait: the loop's last line event may be only the check that ends it.
            if len(iters) >= 2:
                self._release_iteration(row, *iters.pop(0))
            iters.append(([], [], row["iterations"]))

    def _exit_loop(self):
        entry = self.active.pop()
        row = entry["row"]
        self._settle(row)
        if row["iterations"] > 1 and entry.get("exhausted"):
            row["iterations"] -= 1  # that header step was the check that ended the loop
            if row["shown"][-1][0] > row["iterations"]:  # (not stored when the recorder rested before it)
                row["shown"].pop()
        if self.held is not None and self.held["entry"] is entry:
            held, self.held = self.held, None
            for steps, groups, _ in held["iters"]:
                self._keep_iteration(steps, groups)

    def _release_iteration(self, row, steps, groups, number):
        """An iteration that was not the loop's last: folded, unless ``focus`` opens it or a loop
        run inside it."""
        focus = self.focus
        if focus is not None and (row["id"] == focus["group"] and number == focus["iteration"]
                                  or any(g["id"] == focus["group"] for g in groups)):
            self._keep_iteration(steps, groups)
        else:
            self._fold_iteration(row, steps, groups, number)

    def _keep_iteration(self, steps, groups):
        self.groups.extend(groups)
        for step in steps:
            self._store(step)

    def _fold_iteration(self, row, steps, groups, number):
        """An iteration that was not the last: its steps become part of the next stored delta."""
        self.groups_dropped += len(groups)
        elided = row["elided"] or {"iterations": 0, "steps": 0, "from_iteration": number}
        elided["iterations"] += 1
        elided["steps"] += len(steps)
        elided["to_iteration"] = number
        row["elided"] = elided
        shown = row["shown"]
        for i in range(len(shown) - 1, -1, -1):  # (near the end: the iterations after it are held)
            if shown[i][0] == number:
                del shown[i]
                break
        for step in steps:
            self._fold(step)
