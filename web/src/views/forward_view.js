// The forward-mode view: the ops that pushed a tangent during the run, drawn the way the
// tangents flowed (dual inputs at the top, outputs below), each tensor with its value and
// its tangent side by side, each op with how its JVP came about. It reuses the graph view's
// canvas, pan, zoom and keyboard handling; the data (and every number) comes from Python.

import { block, field, fill, h, s, shapeText } from "./dom.js";
import { GraphView } from "./graph_view.js";
import { TENSOR_H, layoutForward } from "./forward_layout.js";

export class ForwardGraphView extends GraphView {
  /**
   * @param {HTMLElement} root the section[data-testid=forward-graph]
   * @param {object} options
   * @param {object} options.t the current language's strings
   */
  constructor(root, { t }) {
    super(root, { t, onSelect: (id) => this.showDetails(id) });
    this.root.classList.add("forward-panel");
    this.forward = null;
  }

  build() {
    super.build();
    // Test ids are page-wide: the backward graph's parts keep theirs.
    this.note.dataset.testid = "forward-dropped";
    this.alert.remove();
    this.details.dataset.testid = "forward-details";
    this.applyTexts();
  }

  applyTexts() {
    const t = this.t;
    this.title.textContent = t.fwTitle;
    this.hint.textContent = t.fwHint;
    this.empty.textContent = t.fwEmpty;
    this.svg.setAttribute("aria-label", t.fwTitle);
    this.root.setAttribute("aria-label", t.fwTitle);
  }

  fillLegend() {
    const t = this.t;
    const item = (cls, label) => h("span", { class: "legend-item" }, h("i", { class: `swatch ${cls}` }), label);
    fill(this.legend, item("sw-value", t.fwLegendValue), item("sw-tangent", t.fwLegendTangent),
      item("sw-derived", t.fwLegendDerived), item("sw-jvp", t.fwLegendJvp));
  }

  setStrings(t) {
    this.t = t;
    super.setStrings(t);
    this.applyTexts();
  }

  /**
   * Draws a run's forward view (or clears it for null).
   * @param {object|null} forward {tensors, ops, dropped}
   * @param {object} [options] {keepView: bool}
   */
  render(forward, { keepView = false } = {}) {
    this.forward = forward;
    this.graph = forward; // GraphView re-applies states and redraws while this is set
    const count = forward ? forward.tensors.length + forward.ops.length : 0;
    this.nodeData = new Map();
    this.empty.hidden = count > 0;
    this.showNote(forward && forward.dropped);
    this.alert.hidden = true;
    if (!count) {
      this.layout = null;
      fill(this.viewport);
      this.signature = "";
      this.hideDetails();
      return;
    }
    this.layout = layoutForward(forward, this.t);
    for (const node of this.layout.nodes) this.nodeData.set(node.id, node.data);
    this.draw();
    const signature = this.layout.nodes.map((n) => n.id).join(",");
    if (!keepView || signature !== this.signature) this.fit();
    this.signature = signature;
    if (this.selected && !this.nodeEl(this.selected)) this.select(null, { silent: true });
    if (this.selected) this.showDetails(this.selected);
  }

  /** Tangents flow forward with the values: no gradient flow to highlight here. */
  flowOf() {
    return null;
  }

  showNote(dropped) {
    this.note.hidden = !dropped;
    if (dropped) this.note.textContent = this.t.fwDropped(dropped);
  }

  // Its own arrow (ids are page-wide, and the backward graph's sit in a hidden SVG then).
  defs() {
    return s("defs", {}, s("marker", {
      id: "fw-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse",
    }, s("path", { d: "M0,0 L10,5 L0,10 z", class: "marker-arrow" })));
  }

  drawEdge(edge) {
    const group = super.drawEdge(edge, false);
    group.querySelector("path").setAttribute("marker-end", "url(#fw-arrow)");
    return group;
  }

  applyStates() {
    for (const g of this.viewport.querySelectorAll("g.node")) g.classList.toggle("selected", g.dataset.id === this.selected);
  }

  drawNode(node) {
    return node.kind === "op" ? this.drawOp(node) : this.drawTensor(node);
  }

  drawOp(node) {
    const { width: w, height: hgt, lines, data } = node;
    const g = s("g", {
      class: `node node-fop rule-${data.rule}`, "data-id": node.id, "data-name": data.label,
      transform: `translate(${node.x - w / 2},${node.y - hgt / 2})`, tabindex: 0, role: "button",
    });
    g.appendChild(s("title", { text: `${data.name}\n${this.t.fwRuleLong[data.rule] || lines.sub}` }));
    g.appendChild(s("rect", { class: "body", width: w, height: hgt, rx: 5 }));
    g.appendChild(s("text", { class: "label", x: w / 2, y: 18, text: lines.title }));
    g.appendChild(s("text", { class: "sub rule", x: w / 2, y: 34, text: lines.sub }));
    return g;
  }

  drawTensor(node) {
    const { width: w, lines, data } = node;
    const t = this.t;
    const g = s("g", {
      class: `node node-ftensor${data.names.length ? "" : " unnamed"}`, "data-id": node.id,
      "data-name": data.names.join(","), transform: `translate(${node.x - w / 2},${node.y - TENSOR_H / 2})`,
      tabindex: 0, role: "button",
    });
    const full = (preview) => (preview ? preview.text : t.fwNoTangent);
    g.appendChild(s("title", { text: `${lines.title}\n${t.fwValue}: ${full(data.value)}\n${t.fwTangent}: ${full(data.tangent)}` }));
    g.appendChild(s("rect", { class: "body", width: w, height: TENSOR_H, rx: 9 }));
    g.appendChild(s("text", { class: "label", x: w / 2, y: 16, text: lines.title }));
    // Two equal cells under the name: the value, then the tangent (marked ṫ, tinted).
    const { cell, gap } = node;
    const x1 = (w - 2 * cell - gap) / 2;
    const y = 23;
    g.appendChild(s("rect", { class: "cell cell-value", x: x1, y, width: cell, height: 20, rx: 4 }));
    g.appendChild(s("text", { class: "cell-text", x: x1 + 5, y: y + 14, text: lines.value, "data-part": "value" }));
    const x2 = x1 + cell + gap;
    g.appendChild(s("rect", { class: `cell cell-tangent${data.tangent ? "" : " none"}`, x: x2, y, width: cell, height: 20, rx: 4 }));
    g.appendChild(s("text", { class: "cell-text tangent-text", x: x2 + 5, y: y + 14, "data-part": "tangent" },
      s("tspan", { class: "tangent-mark", text: "ṫ " }), lines.tangent));
    return g;
  }

  // ---- details --------------------------------------------------------------

  showDetails(id) {
    const node = id && this.layout ? this.layout.nodes.find((n) => n.id === id) : null;
    if (!node) return this.hideDetails();
    const t = this.t;
    const head = h("div", { class: "details-head" },
      h("h3", { text: node.kind === "op" ? node.data.label : node.lines.title }),
      h("button", { type: "button", class: "icon", title: t.close, "aria-label": t.close, text: "×",
        onclick: () => this.select(null) }));
    this.details.hidden = false;
    if (node.kind === "op") return fill(this.details, head, ...this.opBody(node.data));
    return fill(this.details, head, ...this.tensorBody(node.data));
  }

  hideDetails() {
    this.details.hidden = true;
    fill(this.details);
  }

  tensorName(id) {
    const row = this.forward.tensors.find((tensor) => tensor.id === id);
    return row && row.names.length ? row.names.join(", ") : this.t.fwUnnamed;
  }

  tensorBody(data) {
    const t = this.t;
    const by = this.forward.ops.find((op) => op.outputs.includes(data.id));
    return [
      h("div", { class: "fields" }, field(t.dShape, shapeText(data.shape)), field(t.fwLevelLabel, String(data.level)),
        field(t.fwMadeBy, by ? by.label : t.fwMadeByDual)),
      block(t.fwValue, data.value.text),
      block(`${t.fwTangent} (ṫ)`, data.tangent ? data.tangent.text : t.fwNoTangent, { cls: "tangent-block" }),
      h("p", { class: "muted small", text: t.fwTangentExplain }),
    ];
  }

  opBody(data) {
    const t = this.t;
    const names = (ids) => ids.map((id) => (id ? this.tensorName(id) : t.fwConstant)).join(", ");
    return [
      h("div", { class: "fields" }, field(t.fwNode, data.name), field(t.fwInputs, names(data.inputs)),
        field(t.fwOutputs, names(data.outputs)), field(t.fwLevelLabel, String(data.level))),
      h("p", { class: `rule-note rule-${data.rule}`, text: t.fwRuleLong[data.rule] || data.rule }),
    ];
  }
}
