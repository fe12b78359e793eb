// The "See autograd" views together: the graph with its details panel, and
// the Gradients / Backward & Jacobian / Step-through / Forward vs reverse tabs;
// beside the graph, the forward-mode view of a run with dual tensors. Every command's
// result carries the state (graph, trace, grad history, failed node), which
// is handed to each view; the views' own requests (describe a node, run a
// backward, build a Jacobian) go to Python through `request`. No autograd
// logic lives here.

import { BackwardPanel } from "./backward_panel.js";
import { h } from "./dom.js";
import { ForwardGraphView } from "./forward_view.js";
import { GradsPanel } from "./grads_panel.js";
import { GraphView } from "./graph_view.js";
import { ModesPanel } from "./modes_panel.js";
import { NodeDetails } from "./node_details.js";
import { StepPanel } from "./step_panel.js";
import { Timeline } from "./timeline.js";

const $ = (id) => document.getElementById(id);

export class Views {
  /**
   * @param {object} hooks
   * @param {(type: string, payload: object, options?: object) => Promise<object>} hooks.request
   * @param {(result: object) => void} hooks.report prints a result's error like a console line's
   * @param {(text: string) => void} hooks.echo writes a line to the console as typed input
   * @param {() => boolean} hooks.busy true while Python runs something
   * @param {(fix: {kind: string, line: number, before: string, after: string}) => void} hooks.applyFix
   *     puts a one-line fix into the editor (undoably) and runs it again
   * @param {object} [hooks.marks] the editor's timeline marks (editor/timeline_marks.js's controller)
   * @param {object} t the current language's strings
   */
  constructor(hooks, t) {
    this.hooks = hooks;
    this.t = t;
    this.state = { graph: null, failed: null };
    this.tab = "grads";

    this.timeline = new Timeline(this, hooks);
    this.graph = new GraphView($("graph"), {
      t, onSelect: (id) => this.select(id), onFix: (fix) => hooks.applyFix(fix), busy: () => hooks.busy(),
    });
    this.graph.flowSource = (id) => this.timeline.flowAt(id); // a past step's own graph asks Python
    this.graph.panZoom.pinSize(); // the page's canvas is sized by the pane, never by the graph
    this.details = new NodeDetails(this.graph.details, {
      describe: (id, step) => hooks.request("describe", step == null ? { node: id } : { node: id, step }, { quiet: true }),
      useAsRoot: (name) => { this.backward.setRoot(name); this.showTab("backward"); },
      useAsInput: (name) => { this.backward.setInput(name); this.showTab("backward"); },
      onClose: () => this.graph.select(null),
    });
    this.grads = new GradsPanel($("grads"), { onSelect: (id) => this.graph.select(id) });
    this.backward = new BackwardPanel($("backward"), {
      backward: (request) => this.runBackward(request),
      jacobian: (output, input) => this.buildJacobian(output, input),
      onRootChange: (name) => this.graph.setRootPick(this.tensorId(name)),
      applyFix: (fix) => hooks.applyFix(fix),
      busy: () => hooks.busy(),
    });
    this.steps = new StepPanel($("steps"), { onStep: (state) => this.graph.setStep(state) });
    this.buildForward(t);
    this.modes = new ModesPanel(this.addModesTab(), {
      compare: (fn, input) => hooks.request("compare_modes", { function: fn, input }, { quiet: true }),
      busy: () => hooks.busy(),
    });
    wireTabs([...document.querySelectorAll("[data-tab]")], (button) => this.showTab(button.dataset.tab));
    this.setStrings(t);
    this.showTab(this.tab);
  }

  /** The forward-mode view, beside the graph, and the switch between the two (shown when a run has both). */
  buildForward(t) {
    const section = h("section", { id: "forward-graph", class: "graph-panel", "data-testid": "forward-graph", hidden: true });
    $("graph").after(section);
    this.forward = new ForwardGraphView(section, { t });
    this.forward.panZoom.pinSize(); // as the graph's: a 300-op forward view's fit laid out every text
    this.graphMode = "backward";
    const tab = (mode) => h("button", { type: "button", role: "tab", "data-mode": mode, "data-testid": `graph-mode-${mode}`,
      "aria-controls": mode === "forward" ? "forward-graph" : "graph" });
    this.modeTabs = [tab("backward"), tab("forward")];
    this.modeSwitch = h("span", { class: "graph-modes", role: "tablist", hidden: true }, this.modeTabs);
    wireTabs(this.modeTabs, (button) => this.setGraphMode(button.dataset.mode));
    this.setGraphMode("backward");
  }

  /** The fourth tab, "Forward vs reverse", and its panel (after the page's three). */
  addModesTab() {
    this.modesTab = h("button", { id: "tab-modes", type: "button", role: "tab", "data-tab": "modes",
      "aria-controls": "modes", "data-testid": "modes-tab" });
    document.querySelector(".tabs[role=tablist]").appendChild(this.modesTab);
    const panel = h("section", { id: "modes", class: "tab-panel", role: "tabpanel", "aria-labelledby": "tab-modes",
      "data-testid": "modes", hidden: true });
    $("steps").after(panel);
    return panel;
  }

  setGraphMode(mode) {
    this.graphMode = mode;
    const forward = mode === "forward";
    $("graph").hidden = forward;
    this.forward.root.hidden = !forward;
    const focused = this.modeSwitch.contains(document.activeElement) ? document.activeElement.dataset.mode : null;
    (forward ? this.forward : this.graph).modeSlot.appendChild(this.modeSwitch);
    for (const button of this.modeTabs) {
      const on = button.dataset.mode === mode;
      button.setAttribute("aria-selected", String(on));
      button.tabIndex = on ? 0 : -1;
      if (button.dataset.mode === focused) button.focus(); // moving it to the other head lost the focus
    }
  }

  setStrings(t) {
    this.t = t;
    this.graph.setStrings(t);
    this.details.setStrings(t);
    this.grads.setStrings(t);
    this.timeline.setStrings(t);
    this.backward.setStrings(t);
    this.steps.setStrings(t);
    this.forward.setStrings(t);
    this.modes.setStrings(t);
    this.modesTab.textContent = t.tabModes;
    this.modeSwitch.setAttribute("aria-label", t.gmLabel);
    for (const button of this.modeTabs) button.textContent = button.dataset.mode === "forward" ? t.gmForward : t.gmBackward;
  }

  showTab(name) {
    this.tab = name;
    for (const button of document.querySelectorAll("[data-tab]")) {
      const on = button.dataset.tab === name;
      button.setAttribute("aria-selected", String(on));
      button.tabIndex = on ? 0 : -1;
      $(button.dataset.tab).hidden = !on;
    }
    this.steps.setActive(name === "steps");
  }

  tensorId(name) {
    const graph = this.state.graph;
    const row = graph && graph.tensors.find((tensor) => tensor.names.includes(name));
    return row ? row.id : null;
  }

  /** Takes in the views' part of a command's result (run, console line, backward, reset). */
  showResult(result) {
    if (!result || !("graph" in result)) return;
    const graph = result.graph || { nodes: [], edges: [], tensors: [], truncated: null };
    // A Run is a new script (and Reset an empty namespace): nothing of the last one stays on show,
    // except in live mode, where the views update in place (the selection, the zoom).
    const fresh = Boolean((result.fresh && !result.live) || result.reset);
    if (fresh) this.forget({ clean: Boolean(result.reset) });
    this.state = { graph, failed: result.failed_node || null };
    this.graph.render(graph, { failed: this.state.failed, keepView: !fresh, keepZoom: Boolean(result.live) });
    this.grads.update(graph.tensors, result.grad_history);
    this.backward.update(graph.tensors, { freed: result.freed_tensors, freedBy: result.freed_by });
    this.steps.update(result.trace || null, graph);
    this.showForward(result.forward || null, fresh, graph);
    this.modes.update(graph.tensors, result.functions);
    this.timeline.showResult(result, graph);
    if (this.state.failed) this.graph.select(this.state.failed.id);
    else this.refreshDetails();
  }

  /**
   * A command's forward view: a run's replaces the last one; a console line without dual
   * tensors keeps it. A run with dual tensors and no grad_fn opens on the forward view.
   */
  showForward(forward, fresh, graph) {
    if (!forward && !fresh) return;
    this.forward.render(forward, { keepView: !fresh });
    this.modeSwitch.hidden = !forward;
    if (!forward) this.setGraphMode("backward");
    else if (fresh && !graph.nodes.some((node) => node.kind === "grad_fn")) this.setGraphMode("forward");
  }

  /** Drops every choice and highlight made for the previous namespace (`clean`: a new lesson's). */
  forget({ clean = false } = {}) {
    // (Nothing selected: the drawing, about to be replaced, need not be gone over again.)
    if (this.graph.selected != null) this.graph.select(null, { silent: true });
    this.details.hide();
    this.steps.clear();
    this.grads.clear();
    this.backward.forget({ clean });
    this.forward.select(null, { silent: true });
    this.forward.hideDetails();
    this.modes.forget();
  }

  select(id) {
    const graph = this.state.graph;
    // A timeline step may draw nodes freed by the run's end: they link to their line, without details.
    const drawn = this.graph.graph || graph;
    this.timeline.selectNode(id && drawn ? drawn.nodes.find((n) => n.id === id) : null);
    // Scrubbed back, the details are the node's as the timeline recorded them at the step.
    const past = id ? this.timeline.pastNode(id) : null;
    const node = past ? past.node : id && graph ? graph.nodes.find((n) => n.id === id) : null;
    if (past && !node) return this.details.showAbsent(past.step); // not made yet, or gone, then
    if (!node) return this.details.hide();
    // Clicking a tensor that requires grad also makes it the backward root.
    if (node.kind === "tensor" && node.requires_grad && !past) this.backward.setRoot(node.names[0]);
    return this.details.show(node, graph, past ? past.step : null);
  }

  refreshDetails() {
    const id = this.graph.selected;
    if (id) this.select(id);
  }

  setBusy() {
    const busy = this.hooks.busy();
    for (const el of document.querySelectorAll('[data-testid="backward-run"], [data-testid="jacobian-build"], [data-testid="graph-fix"], [data-testid="freed-fix"], [data-testid="modes-build"]')) {
      el.disabled = busy;
    }
  }

  async runBackward(request) {
    const result = await this.hooks.request("backward", request);
    if (result.request_error) return result;
    this.hooks.report(result);
    this.showResult(result);
    return result;
  }

  async buildJacobian(output, input) {
    const result = await this.hooks.request("jacobian", { output, input }, { quiet: true });
    if (result.ok && result.calls.length) {
      this.hooks.echo(this.t.echoJacobian(output, input, result.calls.length));
      this.hooks.echo(result.calls[0]);
    } else if (!result.ok && !result.request_error) {
      this.hooks.report(result);
      if (result.failed_node) this.graph.render(this.state.graph, { failed: result.failed_node, keepView: true });
    }
    return result;
  }
}

/** The tab pattern of ARIA: one Tab stop, arrows (and Home/End) move between the tabs. */
function wireTabs(tabs, show) {
  for (const button of tabs) {
    button.addEventListener("click", () => show(button));
    button.addEventListener("keydown", (event) => {
      const at = tabs.indexOf(button);
      const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      const next = tabs[(to + tabs.length) % tabs.length];
      show(next);
      next.focus();
    });
  }
}
