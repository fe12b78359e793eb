// The details panel beside the graph: what a clicked node is. Tensors are
// described from the graph JSON itself; grad_fn and AccumulateGrad nodes are
// asked for (a "describe" request), because their saved tensors, values and
// backward formula are only sent on demand.

import { block, field, fill, h, shapeText } from "./dom.js";
import { preview } from "./timeline_state.js";

const STATE_KEYS = { alive: "stateAlive", freed: "stateFreed", modified: "stateModified" };

export class NodeDetails {
  /**
   * @param {HTMLElement} element the aside to fill
   * @param {object} hooks
   * @param {(id: string, step: number|null) => Promise<object>} hooks.describe asks Python for a
   *     node's details (at a timeline step, when given)
   * @param {(name: string) => void} hooks.useAsRoot
   * @param {(name: string) => void} hooks.useAsInput
   * @param {() => void} hooks.onClose
   */
  constructor(element, hooks) {
    this.element = element;
    this.hooks = hooks;
    this.t = null;
    this.current = null;
    this.request = 0;
  }

  setStrings(t) {
    this.t = t;
    if (this.current) this.show(this.current.node, this.current.graph, this.current.step);
  }

  hide() {
    this.current = null;
    this.element.hidden = true;
    fill(this.element, );
  }

  /**
   * Shows a node of `graph` (the graph JSON it came from).
   * @param {number|null} [step] the timeline's step when it is not the run's last: the node as
   *     recorded then (a tensor row of that step; Python folds a grad_fn's states to it)
   */
  async show(node, graph, step = null) {
    if (!node) return this.hide();
    this.current = { node, graph, step };
    this.element.hidden = false;
    const t = this.t;
    const head = h("div", { class: "details-head" },
      h("h3", { text: node.kind === "tensor" ? node.names.join(", ") : node.name || node.id }),
      step != null ? h("span", { class: "muted details-at", "data-testid": "details-at", text: t.tlDetailsAt(step) }) : null,
      h("button", { type: "button", class: "icon", title: t.close, "aria-label": t.close, text: "×",
        onclick: () => this.hooks.onClose() }));
    if (node.kind === "tensor") return fill(this.element, head, ...this.tensorBody(node));
    if (node.kind === "collapsed") {
      const ops = Object.entries(node.ops || {}).map(([name, n]) => `${name} × ${n}`).join("\n");
      return fill(this.element, head, h("p", { text: t.dCollapsed }), h("pre", { class: "values", text: ops }));
    }
    if (node.kind === "cut") return fill(this.element, head, h("p", { text: t.dCut }));
    fill(this.element, head, h("p", { class: "muted", text: t.detailsLoading }));
    const ticket = ++this.request;
    const reply = await this.hooks.describe(node.id, step);
    if (ticket !== this.request || !this.current || this.current.node !== node) return undefined;
    if (!reply.ok) return fill(this.element, head, h("p", { class: "error", text: reply.error.message }));
    const info = reply.node;
    const body = info.kind === "accumulate" ? this.accumulateBody(info) : this.gradFnBody(info);
    return fill(this.element, head, info.gone ? h("p", { class: "muted", text: t.tlDetailsGone }) : null, ...body);
  }

  /** The selected node does not exist at the timeline's `step` (the panel stays where it is). */
  showAbsent(step) {
    this.current = null;
    this.request += 1; // an answer still on its way is for another step
    this.element.hidden = false;
    fill(this.element, h("div", { class: "details-head" },
      h("span", { class: "muted details-at", "data-testid": "details-at", text: this.t.tlDetailsAt(step) }),
      h("button", { type: "button", class: "icon", title: this.t.close, "aria-label": this.t.close, text: "×",
        onclick: () => this.hooks.onClose() })),
    h("p", { class: "muted", "data-testid": "details-absent", text: this.t.tlDetailsAbsent }));
  }

  tensorBody(node) {
    const t = this.t;
    const name = node.names[0];
    const gradText = node.grad ? node.grad.text : `None — ${t.reason[node.grad_reason] || node.grad_reason}`;
    const actions = [];
    if (node.requires_grad) {
      actions.push(h("button", { type: "button", text: t.useAsRoot, onclick: () => this.hooks.useAsRoot(name) }));
    }
    if (node.requires_grad && node.is_leaf) {
      actions.push(h("button", { type: "button", text: t.useAsInput, onclick: () => this.hooks.useAsInput(name) }));
    }
    return [
      h("div", { class: "fields" }, field(t.dShape, shapeText(node.shape)), field(t.dDtype, node.dtype),
        field(t.dRequiresGrad, node.requires_grad ? "True" : "False"), field(t.dIsLeaf, node.is_leaf ? "True" : "False"),
        field(t.dGradFn, node.grad_fn || "None"), field(t.dVersion, String(node.version))),
      block(t.dValue, node.value.text),
      block(t.dGrad, gradText, { testid: "details-grad" }),
      actions.length ? h("div", { class: "actions" }, actions) : null,
    ];
  }

  savedList(saved) {
    const t = this.t;
    if (!saved.length) return h("p", { class: "muted", text: t.dNoSaved });
    return h("ul", { class: "saved", "data-testid": "saved-tensors" }, saved.map((entry) => h("li", { class: `saved-${entry.state}` },
      h("code", { class: "saved-name", text: entry.name }),
      entry.shape ? h("span", { class: "muted", text: ` ${shapeText(entry.shape)}` }) : null,
      h("span", { class: `badge badge-${entry.state}`, text: t[STATE_KEYS[entry.state]] || entry.state }),
      entry.value != null ? h("pre", { class: "values small", text: entry.value }) : null)));
  }

  gradFnBody(info) {
    const t = this.t;
    const inputs = (info.next_functions || []).map(([name, nr], i) => h("li", {},
      h("span", { class: "muted", text: `${i}: ` }), h("code", { text: name ? `(${name}, ${nr})` : "(None, 0)" }),
      name ? null : h("span", { class: "muted", text: ` — ${t.inputNone}` })));
    return [
      info.freed ? h("p", { class: "freed-note", text: t.dFreed }) : null,
      h("h4", { text: t.dSaved }),
      this.savedList(info.saved || []),
      inputs.length ? h("h4", { text: t.dInputs }) : null,
      inputs.length ? h("ul", { class: "inputs" }, inputs) : null,
      info.hooks ? h("p", { class: "muted", text: t.dHooks(info.hooks) }) : null,
      h("h4", { text: t.dFormula }),
      // Focusable, so keyboard users can scroll a long formula.
      h("pre", { class: "formula", text: info.formula || "", "data-testid": "formula", tabindex: 0 }),
    ];
  }

  accumulateBody(info) {
    const t = this.t;
    const grad = info.variable_grad ? preview(info.variable_grad).text : "None";
    return [
      field(t.dVariable, (info.variable_names || []).join(", ") || "—"),
      block(t.dGrad, grad, { testid: "details-grad" }),
      info.hooks ? h("p", { class: "muted", text: t.dHooks(info.hooks) }) : null,
    ];
  }
}
