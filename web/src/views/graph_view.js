// The computation-graph view: an SVG drawing of graph.export's JSON, laid out
// by dagre (graph_layout.js), with pan (drag), zoom (wheel, buttons) and a
// click to select a node. It only renders: which node is freed, which one
// raised, which one the step-through is on, all come from Python.

import { count, fill, h, s, shapeText } from "./dom.js";
import { curvePath, layoutGraph } from "./graph_layout.js";
import { gradientFlow } from "./graph_flow.js";
import { PanZoom } from "./pan_zoom.js";

const LEGEND_ROOM = 26; // px kept free under the graph for the legend

export class GraphView {
  /**
   * @param {HTMLElement} root the section[data-testid=graph]
   * @param {object} options
   * @param {(id: string|null) => void} options.onSelect a node was clicked (null: background)
   * @param {(fix: object) => void} [options.onFix] a quick fix of the marked error was clicked
   *     (without it, as in an embed, no fix is offered)
   * @param {() => boolean} [options.busy] true while Python runs something
   * @param {object} options.t the current language's strings
   */
  constructor(root, { onSelect, onFix = null, busy = () => false, t }) {
    this.root = root;
    this.onSelect = onSelect;
    this.onFix = onFix;
    this.busy = busy;
    this.t = t;
    this.graph = null;
    this.layout = null;
    this.failed = null;
    this.selected = null;
    this.rootPick = null;
    this.step = null;
    this.layouts = new WeakMap(); // graph JSON -> its layout
    this.timeline = null; // {visible: Set, freed: Set} at the timeline's step, or null: the graph as it ends
    this.linked = new Set(); // nodes made by the editor line the cursor is on
    this.flow = null; // the selected node's gradient flow: {up: Set, down: Set}
    this.signature = "";
    this.build();
  }

  build() {
    const t = this.t;
    this.title = h("h2", { text: t.graphTitle });
    this.hint = h("span", { class: "viz-hint", text: t.graphHint });
    this.modeSlot = h("span", { class: "mode-slot" }); // the backward/forward switch, when a run has both
    this.legend = h("div", { class: "legend", "aria-hidden": "true" });
    const button = (label, title, fn) => h("button", { type: "button", class: "icon", title, "aria-label": title, onclick: fn, text: label });
    this.zoomOut = button("−", t.zoomOut, () => this.zoomBy(1 / 1.25));
    this.zoomIn = button("+", t.zoomIn, () => this.zoomBy(1.25));
    this.fitButton = button("⤢", t.zoomFit, () => this.fit());
    this.note = h("div", { class: "graph-note", hidden: true, "data-testid": "graph-truncated" });
    this.alert = h("div", { class: "graph-alert", hidden: true, role: "alert", "data-testid": "graph-alert" });
    this.viewport = s("g", { class: "viewport" });
    // A group, not an image: its nodes are buttons, and an image's children are not interactive.
    this.svg = s("svg", { class: "graph-svg", role: "group", "aria-label": t.graphTitle }, this.defs(), this.viewport);
    this.empty = h("div", { class: "graph-empty", text: t.graphEmpty });
    this.canvas = h("div", { class: "graph-canvas" }, this.svg, this.empty, this.legend);
    this.details = h("aside", { class: "node-details", hidden: true, "data-testid": "node-details" });
    fill(this.root, 
      h("div", { class: "viz-head" }, this.title, this.modeSlot, this.hint, h("span", { class: "grow" }),
        h("div", { class: "zoom" }, this.zoomOut, this.zoomIn, this.fitButton)),
      this.note,
      this.alert,
      h("div", { class: "graph-body" }, this.canvas, this.details),
    );
    this.fillLegend();
    this.wireSelection();
    // The details panel opening or the window resizing changes the canvas: refit, unless
    // the learner has panned or zoomed by hand.
    new ResizeObserver(() => { if (!this.panZoom.userMoved) this.fit(); }).observe(this.canvas);
  }

  defs() {
    const marker = (id) => s("marker", {
      id, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse",
    }, s("path", { d: "M0,0 L10,5 L0,10 z", class: `marker-${id}` }));
    const hatch = s("pattern", { id: "freed-hatch", width: 7, height: 7, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 7, height: 7, class: "hatch-bg" }), s("line", { x1: 0, y1: 0, x2: 0, y2: 7, class: "hatch-line" }));
    return s("defs", {}, marker("arrow"), marker("arrow-detached"), marker("arrow-active"), hatch);
  }

  fillLegend() {
    const t = this.t;
    const item = (cls, label) => h("span", { class: "legend-item" }, h("i", { class: `swatch ${cls}` }), label);
    fill(this.legend, 
      item("sw-leaf", t.legendLeaf), item("sw-tensor", t.legendTensor), item("sw-fn", t.legendFn),
      item("sw-acc", "AccumulateGrad"), item("sw-freed", t.legendFreed),
    );
  }

  setStrings(t) {
    this.t = t;
    this.title.textContent = t.graphTitle;
    this.hint.textContent = t.graphHint;
    this.empty.textContent = t.graphEmpty;
    this.svg.setAttribute("aria-label", t.graphTitle);
    for (const [el, key] of [[this.zoomOut, "zoomOut"], [this.zoomIn, "zoomIn"], [this.fitButton, "zoomFit"]]) {
      el.title = t[key];
      el.setAttribute("aria-label", t[key]);
    }
    this.fillLegend();
    if (this.graph) this.render(this.graph, { failed: this.failed, keepView: true });
  }

  /**
   * Draws a new graph (or clears the view for null).
   * @param {object|null} graph graph.export's JSON
   * @param {object} [options] {failed: {id, name} | null, keepView: bool, keepZoom: bool (live mode:
   *     the zoom and pan stay even though the nodes are new)}
   */
  render(graph, { failed = null, keepView = false, keepZoom = false } = {}) {
    const hadLayout = Boolean(this.layout);
    this.graph = graph;
    this.failed = failed;
    const nodes = graph ? graph.nodes : [];
    this.nodeData = new Map(nodes.map((n) => [n.id, n]));
    this.flow = this.selected && this.nodeData.has(this.selected) ? this.currentFlow(this.selected) : null;
    this.empty.hidden = nodes.length > 0;
    this.showNote(graph && graph.truncated);
    this.showAlert(failed);
    if (!nodes.length) {
      this.layout = null;
      fill(this.viewport);
      this.signature = "";
      return;
    }
    performance.mark("playground:graph-start");
    // A graph drawn again (the timeline going back to the run's own graph) keeps its layout.
    const cached = this.layouts.get(graph);
    this.layout = cached && cached.t === this.t ? cached.layout : layoutGraph(graph, this.t);
    this.layouts.set(graph, { t: this.t, layout: this.layout });
    performance.mark("playground:graph-laid-out");
    this.draw();
    performance.mark("playground:graph-drawn");
    performance.measure("playground:graph-layout", { start: "playground:graph-start", end: "playground:graph-laid-out",
      // reused: the places of the last graph of its shape; ranker, orderer: how its layers were
      // ranked and ordered
      detail: { reused: Boolean(this.layout.reused), ranker: this.layout.ranker, orderer: this.layout.orderer } });
    performance.measure("playground:graph-render", "playground:graph-start", "playground:graph-drawn");
    const signature = nodes.map((n) => n.id).join(",");
    if (!(keepZoom && hadLayout) && (!keepView || signature !== this.signature)) this.fit();
    this.signature = signature;
    if (this.selected && !this.nodeEl(this.selected)) this.select(null, { silent: true });
  }

  showNote(truncated) {
    this.note.hidden = !truncated;
    if (!truncated) return;
    const t = this.t;
    fill(this.note, h("strong", { text: t.truncTitle }), " ",
      t.truncText(count(truncated.total), count(truncated.budget), count(truncated.shown),
        count(truncated.collapsed), count(truncated.cut)),
      h("span", { class: "reason", text: ` (${truncated.autograd_nodes != null
        ? t.truncReason(count(truncated.autograd_nodes), count(truncated.budget)) : truncated.reason})` }));
  }

  /** The marked error's one-line explanation and its quick fixes (all decided by Python). */
  showAlert(failed) {
    this.alert.hidden = !failed;
    if (!failed) return;
    const t = this.t;
    const kind = failed.kind || "freed";
    this.alert.dataset.kind = kind;
    const detail = failed.detail || {};
    const who = (fallback) => (detail.tensor ? detail.tensor : fallback);
    let text;
    if (kind === "version") text = [t.failedVersion];
    else if (kind === "leaf_inplace") text = [t.failedLeaf(who(t.failedLeafWho), detail.view)];
    else if (kind === "nonscalar") text = [t.failedNonscalar(who(t.failedOutputWho), shapeText(detail.shape || []))];
    else if (kind === "unused") text = [t.failedUnused(who(t.failedInputWho), detail.index)];
    else if (kind === "raised") text = [t.failedRaised];
    else text = [t.failedHint, " ", h("code", { text: "retain_graph=True" }), t.failedHintEnd];
    // A tensor the error is about already leads its sentence; a node is named first.
    const head = failed.id && failed.id.startsWith("f") && failed.name ? h("strong", { text: `${failed.name}: ` }) : null;
    const fixes = this.onFix ? failed.fixes || [] : [];
    fill(this.alert, h("p", { class: "alert-text", "data-testid": "graph-alert-text" }, head, ...text),
      fixes.length ? h("div", { class: "fix-list" }, fixes.map((fix) => this.fixRow(fix, detail)),
        h("span", { class: "fix-hint", text: t.fixHint })) : null);
  }

  fixRow(fix, detail) {
    const label = this.t.fixLabel[fix.kind];
    return h("div", { class: "fix-row" },
      h("button", { type: "button", class: "primary", "data-testid": "graph-fix", "data-fix": fix.kind,
        disabled: this.busy(), onclick: () => this.onFix(fix) },
      label ? label(fix.line, detail.tensor) : fix.kind),
      h("code", { class: "fix-preview", text: fix.after.trim() }));
  }

  draw() {
    const { nodes, edges } = this.layout;
    const inputs = new Map(); // forward target -> number of "next" edges into it
    for (const e of edges) if (e.kind === "next") inputs.set(e.to, (inputs.get(e.to) || 0) + 1);
    const edgeEls = edges.map((edge) => this.drawEdge(edge, inputs.get(edge.to) > 1));
    const nodeEls = nodes.map((node) => this.drawNode(node));
    fill(this.viewport, s("g", { class: "edges" }, edgeEls), s("g", { class: "nodes" }, nodeEls));
    this.applyStates();
  }

  drawEdge(edge, numbered) {
    const d = curvePath(edge.points);
    const marker = edge.kind === "detached" ? "arrow-detached" : "arrow";
    const group = s("g", { class: `edge edge-${edge.kind}`, "data-from": edge.from, "data-to": edge.to },
      s("path", { d, "marker-end": `url(#${marker})` }));
    if (edge.kind === "next" && numbered) {
      // The input index, beside the edge just above the node it feeds, on the outer side.
      const [a, b] = edge.points.slice(-2);
      const side = edge.shift < 0 ? -1 : 1;
      const at = { x: a.x + (b.x - a.x) * 0.55 + edge.normal.x * side * 8, y: a.y + (b.y - a.y) * 0.55 + edge.normal.y * side * 8 };
      group.appendChild(s("text", { class: "edge-index", x: at.x, y: at.y + 3.5, "text-anchor": "middle",
        text: String(edge.data.input_nr) }));
    }
    if (edge.kind === "detached") {
      const mid = edge.points[Math.floor(edge.points.length / 2)];
      group.appendChild(s("text", { class: "edge-cut", x: mid.x + 8, y: mid.y + 4, text: "✂ detach()" }));
    }
    return group;
  }

  drawNode(node) {
    const { data } = node;
    const classes = ["node", `node-${data.kind}`];
    if (data.kind === "tensor") {
      if (data.is_leaf && data.requires_grad) classes.push("leaf");
      else if (!data.requires_grad) classes.push("nograd");
    }
    const w = node.width;
    const hgt = node.height;
    const g = s("g", {
      class: classes.join(" "), "data-id": node.id, "data-name": data.name || (data.names || []).join(","),
      transform: `translate(${node.x - w / 2},${node.y - hgt / 2})`, tabindex: 0, role: "button",
      "data-line": data.line ?? null,
    });
    g.appendChild(s("title", { text: [...node.lines, node.freedLine].filter(Boolean).join("\n") }));
    g.appendChild(s("rect", { class: "body", width: w, height: hgt, rx: data.kind === "tensor" ? 9 : 5 }));
    if (data.kind === "tensor") g.appendChild(s("text", { class: "root-tag", x: w + 4, y: 11, text: this.t.rootTag }));
    const [title, sub] = node.lines;
    const twoLines = Boolean(sub || node.freedLine);
    g.appendChild(s("text", { class: "label", x: w / 2, y: twoLines ? 18 : hgt / 2 + 4.5, text: title }));
    if (sub) g.appendChild(s("text", { class: "sub sub-alive", x: w / 2, y: 34, text: sub }));
    if (node.freedLine) g.appendChild(s("text", { class: "sub sub-freed", x: w / 2, y: 34, text: node.freedLine }));
    return g;
  }

  nodeEl(id) {
    return this.viewport.querySelector(`g.node[data-id="${CSS.escape(id)}"]`);
  }

  /** Re-applies selection, failure, backward root, step-through, timeline, line and flow classes. */
  applyStates() {
    const step = this.step || {};
    const tl = this.timeline;
    const flow = this.flow;
    for (const g of this.viewport.querySelectorAll("g.node")) {
      const id = g.dataset.id;
      const data = this.nodeData.get(id);
      const wasFreed = tl ? tl.freed.has(id) : Boolean(data && data.freed);
      const freed = wasFreed && !(step.unfreed && step.unfreed.has(id));
      g.classList.toggle("tl-hidden", Boolean(tl) && !tl.visible.has(id));
      g.classList.toggle("line-linked", this.linked.has(id));
      g.classList.toggle("flow-up", Boolean(flow && flow.up.has(id)));
      g.classList.toggle("flow-down", Boolean(flow && flow.down.has(id)));
      g.classList.toggle("freed", freed);
      g.classList.toggle("selected", id === this.selected);
      g.classList.toggle("failed", Boolean(this.failed && this.failed.id === id));
      g.classList.toggle("root-pick", id === this.rootPick);
      g.classList.toggle("step-current", id === step.current);
      g.classList.toggle("step-done", Boolean(step.done && step.done.has(id)));
    }
    for (const e of this.viewport.querySelectorAll("g.edge")) {
      const active = Boolean(step.current) && e.dataset.to === step.current && step.flowing;
      e.classList.toggle("edge-active", active);
      e.classList.toggle("tl-hidden", Boolean(tl) && !(tl.visible.has(e.dataset.from) && tl.visible.has(e.dataset.to)));
      const { from, to } = e.dataset;
      e.classList.toggle("edge-flow", Boolean(flow) && !e.classList.contains("edge-detached") &&
        ((flow.up.has(from) && flow.up.has(to)) || (flow.down.has(from) && flow.down.has(to))));
      e.querySelector("path").setAttribute("marker-end",
        `url(#${active ? "arrow-active" : e.classList.contains("edge-detached") ? "arrow-detached" : "arrow"})`);
    }
  }

  select(id, { silent = false } = {}) {
    this.selected = id;
    this.flow = id && this.graph ? this.currentFlow(id) : null;
    if (this.graph) this.applyStates();
    if (!silent) this.onSelect(id);
  }

  setRootPick(id) {
    this.rootPick = id;
    if (this.graph) this.applyStates();
  }

  /** Where a selected node's gradient comes from and goes (graph_flow.js), highlighted. */
  flowOf(id) {
    return gradientFlow(this.graph, id);
  }

  /**
   * The flow of `id` in the graph as shown: the drawn graph's own (limited to the nodes a timeline
   * step shows: no path leaves them), or, for a graph without it, Python's answer through
   * `flowSource` when it comes (null meanwhile).
   */
  currentFlow(id) {
    const flow = this.flowOf(id);
    if (!flow) {
      const graph = this.graph;
      if (this.flowSource) {
        this.flowSource(id).then((answer) => {
          if (!answer || this.selected !== id || this.graph !== graph) return;
          this.flow = answer;
          this.applyStates();
        });
      }
      return null;
    }
    const visible = this.timeline && this.timeline.visible;
    if (!visible) return flow;
    const keep = (set) => new Set([...set].filter((n) => visible.has(n)));
    return { up: keep(flow.up), down: keep(flow.down) };
  }

  /** The timeline's step: {visible: Set, freed: Set} of node ids, or null for the graph as it ends. */
  setTimeline(state) {
    this.timeline = state;
    if (this.graph && this.selected && this.nodeData.has(this.selected)) this.flow = this.currentFlow(this.selected);
    if (this.graph) this.applyStates();
  }

  /** Highlights the nodes an editor line made (ids; empty for none). */
  setLinked(ids) {
    this.linked = new Set(ids);
    if (this.graph) this.applyStates();
  }

  /** Step-through state: {current, done: Set, unfreed: Set, flowing: bool} or null. */
  setStep(step) {
    this.step = step;
    if (this.graph) this.applyStates();
  }

  // ---- pan and zoom (pan_zoom.js) ------------------------------------------

  fit() {
    if (!this.layout) return;
    // The legend wraps onto a second line on a phone: keep the graph clear of all of it.
    this.panZoom.fit(this.layout, Math.max(LEGEND_ROOM, this.legend.offsetHeight + 14));
  }

  zoomBy(factor) {
    this.panZoom.zoomBy(factor);
  }

  wireSelection() {
    this.panZoom = new PanZoom({
      svg: this.svg, canvas: this.canvas, viewport: this.viewport,
      onTap: (event) => {
        const node = event.target.closest && event.target.closest("g.node");
        this.select(node ? node.dataset.id : null);
      },
    });
    this.svg.addEventListener("keydown", (event) => {
      const node = event.target.closest && event.target.closest("g.node");
      if (node && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.select(node.dataset.id);
      }
    });
  }
}
