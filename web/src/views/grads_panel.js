// The gradient panel: one row per named tensor (graph.export's `tensors`),
// with its .grad or the reason it is None, and the history of that .grad
// across backward passes and commands (computed, accumulated, zeroed, set to
// None), the newest change highlighted.

import { fill, h, shapeText } from "./dom.js";

const py = (b) => (b ? "True" : "False");

export class GradsPanel {
  /**
   * @param {HTMLElement} element the section[data-testid=grads]
   * @param {object} hooks
   * @param {(id: string) => void} hooks.onSelect a row was clicked (its tensor's node id)
   */
  constructor(element, hooks) {
    this.element = element;
    this.hooks = hooks;
    this.t = null;
    this.tensors = [];
    this.history = {};
    this.seenSeq = 0;
    this.freshFrom = 0;
  }

  setStrings(t) {
    this.t = t;
    this.rows = new Map();
    fill(this.element); // the headers too
    this.draw();
  }

  /** New state from a command's result. */
  update(tensors, history) {
    this.tensors = tensors || [];
    this.historyShown = true;
    this.history = history || {};
    let newest = this.seenSeq;
    for (const row of Object.values(this.history)) {
      for (const entry of row.entries) newest = Math.max(newest, entry.seq);
    }
    this.freshFrom = this.seenSeq;
    this.seenSeq = newest;
    this.draw();
  }

  /**
   * The tensors as they were at a timeline step. The history (of the whole run) shows only at
   * its last step: before it, it would tell of changes still to come.
   */
  showTensors(tensors, { last = true } = {}) {
    this.tensors = tensors || [];
    this.historyShown = last;
    this.draw();
  }

  clear() {
    this.seenSeq = 0;
    this.freshFrom = 0;
    this.update([], {});
  }

  draw() {
    const t = this.t;
    if (!t) return;
    if (!this.tensors.length) {
      fill(this.element, h("p", { class: "muted pad", text: t.gEmpty }));
      return;
    }
    // Rows are kept by their content: scrubbing the timeline rebuilds only the rows that changed.
    const previous = this.rows || new Map();
    this.rows = new Map();
    const rows = this.tensors.map((tensor) => {
      const history = this.historyShown === false ? null : this.history[tensor.id];
      const key = JSON.stringify([tensor, history, this.freshFrom]);
      const tr = previous.get(key) || this.row(tensor);
      this.rows.set(key, tr);
      return tr;
    });
    const body = this.element.querySelector("tbody");
    if (body && rows.length === body.children.length && rows.every((tr, i) => body.children[i] === tr)) return;
    if (body) {
      body.replaceChildren(...rows);
      return;
    }
    const head = h("tr", {}, this.columns().map((label) => h("th", { scope: "col", text: label })));
    fill(this.element, h("div", { class: "table-wrap" },
      h("table", { class: "grads-table" }, h("thead", {}, head), h("tbody", {}, rows))));
  }

  columns() {
    const t = this.t;
    return [t.gName, t.gShape, t.gRequiresGrad, t.gIsLeaf, t.gGradFn, t.gValue, t.gGrad];
  }

  row(tensor) {
    const t = this.t;
    // Each cell names its column (data-label), for a narrow panel that shows a row as a card.
    const [, shape, requiresGrad, isLeaf, gradFn, value, gradLabel] = this.columns();
    const grad = tensor.grad
      ? h("pre", { class: "values", text: tensor.grad.text })
      : h("span", { class: "reason", "data-reason": tensor.grad_reason, text: `None — ${t.reason[tensor.grad_reason] || tensor.grad_reason}` });
    const tr = h("tr", { "data-tensor": tensor.names[0], "data-id": tensor.id },
      h("th", { scope: "row", class: "name" }, h("code", { text: tensor.names.join(", ") })),
      h("td", { class: "mono", "data-label": shape, text: shapeText(tensor.shape) }),
      h("td", { class: `mono bool-${tensor.requires_grad}`, "data-label": requiresGrad, text: py(tensor.requires_grad) }),
      h("td", { class: `mono bool-${tensor.is_leaf}`, "data-label": isLeaf, text: py(tensor.is_leaf) }),
      h("td", { class: "mono", "data-label": gradFn, text: tensor.grad_fn || "None" }),
      h("td", { class: "value-cell", "data-label": value }, h("pre", { class: "values", text: tensor.value.text })),
      h("td", { class: "grad-cell", "data-label": gradLabel }, grad,
        this.historyShown === false ? null : this.historyView(this.history[tensor.id])));
    tr.addEventListener("click", () => this.hooks.onSelect(tensor.id));
    return tr;
  }

  historyView(history) {
    if (!history || !history.entries.length) return null;
    const t = this.t;
    const items = [];
    if (history.dropped) items.push(h("span", { class: "chip older", text: t.olderEntries(history.dropped) }));
    history.entries.forEach((entry, index) => {
      const latest = index === history.entries.length - 1;
      const classes = ["chip", `chip-${entry.change}`];
      if (latest) classes.push("latest");
      if (entry.seq > this.freshFrom) classes.push("fresh");
      const value = entry.grad ? entry.grad.text.replace(/\s+/g, " ") : "None";
      const parts = [h("b", { text: t.change[entry.change] || entry.change })];
      if (entry.delta) parts.push(" ", h("span", { class: "delta", text: `+${entry.delta.text.replace(/\s+/g, " ")}` }), " →");
      parts.push(" ", h("span", { class: "chip-value", text: value }));
      items.push(h("span", { class: classes.join(" "), title: this.when(entry.when), "data-change": entry.change }, parts));
    });
    return h("div", { class: "history", "data-testid": "grad-history", "aria-label": t.gHistory }, items);
  }

  when(when) {
    const t = this.t;
    if (when.kind === "after") return t.whenPass(when.pass, when.line);
    if (when.kind === "before") return t.whenBefore(when.pass, when.line);
    return t.whenCommand(when.command);
  }
}
