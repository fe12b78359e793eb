// Time travel: ties a run's timeline (autograd_py/playground/timeline.py) to the
// views. At the slider's step the graph shows the nodes that existed then and
// which saved tensors were freed, the gradient panel each .grad as it was, and
// the editor marks the step's line; graph nodes and editor lines link both ways;
// the editor's hover asks Python for a variable at the step. State only.

import { count, h } from "./dom.js";
import { inspectorElement } from "./inspector.js";
import { TimelinePanel } from "./timeline_panel.js";
import { flowFromAnswer } from "./graph_flow.js";
import { graphAt } from "./timeline_graph.js";
import { indexTimeline, stateAt } from "./timeline_state.js";

const NO_MARKS = { markStep() {}, markLinked() {}, setMarks() {} };

export class Timeline {
  /**
   * @param {object} views the Views (graph, grads, steps, showTab)
   * @param {object} hooks Views' hooks: request, busy and `marks` (the editor's, optional)
   */
  constructor(views, hooks) {
    this.views = views;
    this.hooks = hooks;
    this.t = null;
    this.indexed = null;
    this.state = null;
    const bar = h("section", { class: "timeline-bar", "data-testid": "timeline-bar", id: "timeline-bar" });
    document.getElementById("graph").before(bar);
    this.bar = bar;
    this.panel = new TimelinePanel(bar, {
      onStep: (index) => this.show(index),
      openPass: (step) => this.openPass(step),
      passKept: (step) => this.passTrace(step) !== null || (this.indexed.timeline.passes_kept || []).includes(step.pass),
      openIteration: (group, iteration) => this.openIteration(group, iteration),
    });
  }

  get marks() {
    return this.hooks.marks || NO_MARKS;
  }

  setStrings(t) {
    this.t = t;
    this.bar.setAttribute("aria-label", t.tlLabel);
    this.panel.setStrings(t);
    if (this.indexed) this.setGutter();
  }

  /**
   * Every command's result: a run's timeline replaces the last one (a live run's keeps the slider's
   * step); another command's graph keeps it if it is the same graph, else ends it.
   */
  showResult(result, graph) {
    if ("timeline" in result && result.timeline) {
      this.runTrace = result.trace || null; // the run's last pass: the others are asked for
      this.indexed = indexTimeline(result.timeline, graph);
      this.panel.load(result.timeline, { keepPosition: Boolean(result.live) });
      this.setGutter();
      const replay = result.replay;
      if (replay) this.panel.setMessage(this.replayNote(replay));
      if (replay && replay.step != null) this.panel.goToStep(replay.step);
      else this.show(this.panel.index);
      return;
    }
    // A console line that left the run's graph as it was (x.grad, a print): the timeline stays, its
    // last step now showing the graph as it is.
    if (this.indexed && !result.reset && sameNodes(graph, this.indexed.graph)) {
      this.indexed = indexTimeline(this.indexed.timeline, graph);
      this.panel.load(this.indexed.timeline);
      this.show(this.panel.index);
      return;
    }
    // A reset, or a command that changed the graph: the drawn graph is no longer the run's.
    this.indexed = null;
    this.state = null;
    this.panel.load(null);
    this.views.graph.setTimeline(null);
    this.marks.markStep(null);
    if (result.fresh || result.reset) this.marks.setMarks([]);
  }

  show(index) {
    if (!this.indexed) return;
    const state = stateAt(index, this.indexed);
    this.state = state;
    performance.mark("playground:timeline-start");
    this.tensors = this.drawStep(state);
    performance.measure("playground:timeline-graph", "playground:timeline-start"); // read by bench/timeline_redraw.py
    // The editor's step line and the gradient table follow once a frame (each makes the page lay
    // out again): scrubbing fast redraws them for the newest step only.
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        if (!this.state || !this.indexed) return;
        this.marks.markStep(this.state.step.line);
        this.views.grads.showTensors(this.tensors, { last: this.state.last });
        this.views.refreshDetails(); // a selected node's details follow the step
      });
    }
  }

  /**
   * Draws the graph at a step; returns its tensor rows. When the step's nodes are all in the run's
   * final graph, that layout stays and the rest is hidden (the graph grows in place); otherwise
   * (nodes since freed, names since rebound) the step's own graph is laid out.
   */
  drawStep(state) {
    const view = this.views.graph;
    const final = this.indexed.graph;
    // Each setTimeline goes over every drawn node: none when the graph already shows its end.
    const untimed = () => view.timeline && view.setTimeline(null);
    const showFinal = () => {
      if (view.graph === final) return;
      untimed();
      view.render(final, { failed: this.views.state.failed, keepView: true });
    };
    this.stepGraph = null;
    if (state.last) {
      showFinal();
      untimed();
      return final.tensors;
    }
    const { graph, subset } = graphAt(state, this.indexed);
    this.stepGraph = graph;
    if (subset) {
      showFinal();
      view.setTimeline({ visible: new Set(graph.nodes.map((node) => node.id)), freed: state.freed });
    } else {
      view.setTimeline(null);
      view.render(graph, { keepView: true });
    }
    return graph.tensors;
  }

  /** Gutter markers: lines that ran a pass, and lines that made drawn nodes (a leaf tensor's too). */
  setGutter() {
    const t = this.t;
    const made = new Map();
    for (const node of this.indexed.graph.nodes) if (node.line != null) made.set(node.line, (made.get(node.line) || 0) + 1);
    const marks = [];
    for (const [line, m] of Object.entries(this.indexed.timeline.lines)) {
      if (m.backward) marks.push({ line: Number(line), kind: "backward", title: t.tlGutterBackward });
      else if (m.nodes && !made.has(Number(line))) made.set(Number(line), m.nodes);
    }
    const passes = new Set(marks.map((m) => m.line));
    for (const [line, n] of made) if (!passes.has(line)) marks.push({ line, kind: "nodes", title: t.tlGutterNodes(n) });
    this.marks.setMarks(marks);
  }

  /**
   * Opens a folded loop iteration: Python runs the code again, storing that iteration too
   * (autograd_py/playground/timeline_replay.py); its result replaces the views' run.
   */
  async openIteration(group, iteration) {
    if (this.hooks.busy()) return;
    this.panel.setMessage(this.t.tlReplaying(count(iteration)));
    const result = await this.hooks.request("open_iteration", { group, iteration });
    if (!result || !("graph" in result)) {
      this.panel.setMessage(result && result.error ? result.error.message : "");
      return;
    }
    this.views.showResult(result);
  }

  replayNote(replay) {
    const t = this.t;
    if (replay.pass != null) {
      if (replay.step == null) return t.tlPassMissed(count(replay.pass));
      return replay.same ? t.tlPassReplayed(count(replay.pass)) : t.tlReplayDiffers;
    }
    if (replay.step == null) return t.tlReplayMissed(count(replay.iteration));
    return replay.same ? t.tlReplayed(count(replay.iteration)) : t.tlReplayDiffers;
  }

  /** The run's own trace of `step`'s pass (its last pass, which the run's result carries), or null. */
  passTrace(step) {
    return this.runTrace && this.runTrace.pass === step.pass ? this.runTrace : null;
  }

  /**
   * A backward step opens its pass in the step-through. Python kept the steps of the run's first
   * passes (autograd_py/playground/timeline_passes.py); another one opens by running the code
   * again, as a folded iteration does, and that run's result replaces the views' run.
   */
  async openPass(step) {
    let trace = this.passTrace(step);
    if (!trace) {
      if (this.hooks.busy()) return;
      const kept = (this.indexed.timeline.passes_kept || []).includes(step.pass);
      if (!kept) this.panel.setMessage(this.t.tlPassReplaying(count(step.pass)));
      const result = await this.hooks.request("pass", { pass: step.pass }, { quiet: kept });
      if (!result) return;
      if ("graph" in result) this.views.showResult(result);
      trace = "graph" in result ? result.pass_trace : result.trace;
      if (!trace) {
        this.panel.setMessage(result.error ? result.error.message : this.t.tlPassMissed(count(step.pass)));
        return;
      }
    }
    this.views.steps.update(trace, this.views.state.graph, { opened: true });
    this.views.showTab("steps");
    const tab = document.getElementById("tab-steps");
    if (tab) tab.focus();
  }

  /**
   * The node `id` as drawn at the slider's step, when that is not the run's last (its details are
   * then asked for at the step; node is null when the step does not draw it), else null.
   * @returns {{node: object|null, step: number}|null}
   */
  pastNode(id) {
    if (!this.state || this.state.last || !this.stepGraph) return null;
    return { node: this.stepGraph.nodes.find((n) => n.id === id) || null, step: this.state.step.step };
  }

  /**
   * Gradient flow of `id` in the graph drawn at a past step from the timeline's rows (which has no
   * reach bits): Python walks that step's graph (graph_reach.flow_at_step).
   * @returns {Promise<{up: Set, down: Set}|null>}
   */
  async flowAt(id) {
    if (!this.state || this.state.last) return null;
    return flowFromAnswer(await this.hooks.request("flow", { node: id, step: this.state.step.step }, { quiet: true }));
  }

  /** A graph node was selected (null: none): the editor marks the line that made it. */
  selectNode(node) {
    this.marks.markLinked(node && node.line ? [node.line] : []);
  }

  /** The editor's cursor is on `line`: the graph highlights the nodes it made. */
  cursorLine(line) {
    const graph = this.views.graph.graph; // the drawn one: a step's own graph, or the run's
    const ids = graph ? graph.nodes.filter((node) => node.line === line).map((node) => node.id) : [];
    this.views.graph.setLinked(ids);
  }

  /** The hover tooltip for `name` at the current step (null: nothing to show). */
  async inspect(name) {
    if (!this.state || this.hooks.busy()) return null;
    const answer = await this.hooks.request("inspect", { name, step: this.state.step.step }, { quiet: true });
    return inspectorElement(answer, this.t);
  }
}

function sameNodes(a, b) {
  return a.nodes.length === b.nodes.length && a.nodes.every((node, i) => node.id === b.nodes[i].id);
}
