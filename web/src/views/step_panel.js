// Step-through of the last backward pass. Python recorded the engine's steps
// (autograd_py.playground.trace's JSON: node runs with their incoming and outgoing
// gradients, accumulations into leaves, hooks, frees); this panel replays
// them with Back / Step / Play and tells the graph which node to highlight.

import { h, refill } from "./dom.js";

const PLAY_MS = 900;
const SHOWN_KINDS = new Set(["begin", "node", "accumulate", "hook", "error", "end"]);

export class StepPanel {
  /**
   * @param {HTMLElement} element the section[data-testid=steps]
   * @param {object} hooks
   * @param {(state: object|null) => void} hooks.onStep the graph highlight for the current step
   */
  constructor(element, hooks) {
    this.element = element;
    this.hooks = hooks;
    this.t = null;
    this.trace = null;
    this.graph = null;
    this.index = 0;
    this.timer = null;
    this.active = false;
    this.emitted = null; // the last highlight handed to the graph
  }

  setStrings(t) {
    this.t = t;
    this.draw();
  }

  /**
   * A new pass (or null to keep the current one) and the current graph, for names. `opened`: the
   * timeline opened this pass (any of the run's), so the head names it by its number.
   */
  update(trace, graph, { opened = false } = {}) {
    this.graph = graph;
    if (trace) {
      this.trace = { ...trace, steps: trace.steps.filter((step) => SHOWN_KINDS.has(step.event)), opened };
      this.index = 0;
      this.stopTimer();
    }
    this.draw();
  }

  clear() {
    this.trace = null;
    this.stopTimer();
    this.draw();
  }

  /** The panel is visible: the graph shows its highlight (only then). */
  setActive(active) {
    this.active = active;
    if (!active) this.pause();
    this.emit();
  }

  // ---- names -------------------------------------------------------------------

  names() {
    const byId = new Map();
    for (const node of this.graph ? this.graph.nodes : []) byId.set(node.id, node);
    const traced = new Map();
    for (const step of this.trace ? this.trace.steps : []) if (step.name) traced.set(step.node, step.name);
    // A root's grad_fn is named after the tensor it made: "y (MulBackward0)".
    const owners = new Map();
    for (const edge of this.graph ? this.graph.edges : []) {
      if (edge.kind !== "grad_fn") continue;
      const tensor = byId.get(edge.from);
      if (tensor) owners.set(edge.to, [...(owners.get(edge.to) || []), ...tensor.names]);
    }
    return { byId, traced, owners };
  }

  label(id, names = this.names()) {
    const node = names.byId.get(id);
    const owners = names.owners.get(id);
    if (owners) return `${owners.join(", ")} (${node ? node.name : names.traced.get(id)})`;
    if (node && node.kind === "accumulate") {
      const leaf = names.byId.get(node.variable);
      return leaf ? `AccumulateGrad (${leaf.names.join(", ")})` : "AccumulateGrad";
    }
    if (node && node.kind === "tensor") return node.names.join(", ");
    if (node) return node.name;
    return names.traced.get(id) || this.t.sUnnamed;
  }

  // ---- replay ------------------------------------------------------------------

  go(index) {
    if (!this.trace) return;
    this.index = Math.max(0, Math.min(this.trace.steps.length - 1, index));
    this.draw();
  }

  play() {
    if (!this.trace) return;
    if (this.timer) return this.pause();
    if (this.index >= this.trace.steps.length - 1) this.index = 0;
    this.timer = setInterval(() => {
      if (this.index >= this.trace.steps.length - 1) this.pause();
      else this.go(this.index + 1);
    }, PLAY_MS);
    this.draw();
    return undefined;
  }

  pause() {
    this.stopTimer();
    if (this.t) this.draw();
  }

  stopTimer() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** What the graph highlights at the current step. */
  highlight() {
    if (!this.trace || !this.active) return null;
    const steps = this.trace.steps;
    const step = steps[this.index];
    const done = new Set();
    const unfreed = new Set();
    steps.forEach((s, i) => {
      if (i < this.index && (s.event === "node" || s.event === "accumulate")) done.add(s.node);
      if (i > this.index && s.event === "node" && s.freed) unfreed.add(s.node);
    });
    let current = step.node || null;
    if (step.event === "begin") current = (step.roots || this.trace.roots || [])[0] || null;
    return { current, done, unfreed, flowing: step.event === "node" };
  }

  emit() {
    const highlight = this.highlight();
    // Nothing to show, as before (the panel hidden): the graph need not go over its nodes again.
    if (!highlight && !this.emitted) return;
    this.emitted = highlight;
    this.hooks.onStep(highlight);
  }

  // ---- drawing -----------------------------------------------------------------

  draw() {
    const t = this.t;
    if (!t) return;
    if (!this.trace) {
      refill(this.element, h("p", { class: "muted pad", text: t.sNone }));
      this.emit();
      return;
    }
    const { steps } = this.trace;
    const names = this.names();
    const button = (label, testid, fn, disabled) => h("button", { type: "button", "data-testid": testid, disabled, onclick: fn, text: label });
    const controls = h("div", { class: "step-controls" },
      button(`↺ ${t.sRestart}`, "step-restart", () => this.go(0), this.index === 0),
      button(`◀ ${t.sBack}`, "step-back", () => this.go(this.index - 1), this.index === 0),
      button(`${t.sStep} ▶`, "step-next", () => this.go(this.index + 1), this.index >= steps.length - 1),
      button(this.timer ? `‖ ${t.sPause}` : `▷ ${t.sPlay}`, "step-play", () => this.play(), false),
      h("span", { class: "step-pos", "data-testid": "step-pos", text: t.sOf(this.index + 1, steps.length) }));
    const list = h("ol", { class: "step-list", "data-testid": "step-list" }, steps.map((step, i) => h("li", {
      class: `${i === this.index ? "current" : ""} ${i < this.index ? "past" : ""} ev-${step.event}`,
      onclick: () => this.go(i),
    }, this.summary(step, names))));
    refill(this.element, 
      h("div", { class: "step-head" }, h("strong", { "data-testid": "step-pass", "data-pass": this.trace.pass,
        text: (this.trace.opened ? t.sPassOf : t.sPass)(this.trace.pass, steps.length, this.trace.line) }), controls),
      h("div", { class: "step-body" }, this.card(steps[this.index], names), list),
      this.trace.dropped ? h("p", { class: "muted small", text: t.sDropped(this.trace.dropped) }) : null,
    );
    // Hidden, the list has no box to scroll: asking would only make the page lay out at once.
    const current = this.active ? list.children[this.index] : null;
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    this.emit();
  }

  summary(step, names) {
    const t = this.t;
    switch (step.event) {
      case "begin": return `${t.sBegin} ${(step.roots || []).map((id) => this.label(id, names)).join(", ")}`;
      case "node": return this.label(step.node, names);
      case "accumulate": return `AccumulateGrad → ${t.sAccumulate(this.leafName(step, names))}`;
      case "hook": return `${this.label(step.node, names)}: ${t.sHook(step.output_nr)}`;
      case "error": return `${step.name || this.label(step.node, names)} — ${this.errorText(step)}`;
      default: return this.endText();
    }
  }

  errorText(step) {
    const t = this.t;
    const texts = { version: t.sErrorVersion, nonscalar: t.sErrorNonscalar, unused: t.sErrorUnused,
      raised: t.sErrorRaised, other: t.sErrorOther };
    return texts[step.kind] || t.sError;
  }

  /** A pass that raised did not finish: its last step says so. */
  endText() {
    const failed = this.trace && this.trace.steps.some((step) => step.event === "error");
    return failed ? this.t.sEndError : this.t.sEnd;
  }

  leafName(step, names) {
    const leaf = names.byId.get(step.variable);
    return leaf ? leaf.names.join(", ") : "?";
  }

  grad(grad) {
    return h("pre", { class: "values", text: grad ? grad.text : this.t.sNoGrad });
  }

  card(step, names) {
    const t = this.t;
    const rows = [];
    const title = (text, cls) => h("div", { class: `card-title ${cls || ""}`, "data-testid": "step-current", "data-event": step.event, text });
    if (step.event === "node") {
      rows.push(title(this.label(step.node, names)), h("p", { class: "muted", text: t.sNode }));
      step.grads_in.forEach((g) => rows.push(h("div", { class: "flow in" }, h("span", { class: "flow-label", text: t.sGradIn }), this.grad(g))));
      step.grads_out.forEach((out) => rows.push(h("div", { class: "flow out" },
        h("span", { class: "flow-label", text: t.sGradOut(out.input_nr, out.to ? this.label(out.to, names) : "None") }), this.grad(out.grad))));
      if (step.freed) rows.push(h("p", { class: "freed-note", text: t.sFreed }));
    } else if (step.event === "accumulate") {
      rows.push(title("AccumulateGrad"), h("p", { text: t.sAccumulate(this.leafName(step, names)) }), this.grad(step.grad));
    } else if (step.event === "hook") {
      rows.push(title(`${t.sHook(step.output_nr)}${step.replaced ? ` ${t.sHookReplaced}` : ""}`), this.grad(step.grad));
    } else if (step.event === "error") {
      rows.push(title(step.name || this.label(step.node, names), "error"), h("p", { class: "error", text: this.errorText(step) }));
    } else if (step.event === "begin") {
      rows.push(title(this.summary(step, names)));
    } else {
      rows.push(title(this.endText()));
    }
    return h("div", { class: `step-card ev-${step.event}` }, rows);
  }
}
