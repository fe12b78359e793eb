// Interactive backward and the Jacobian view. The learner picks a root
// tensor, its gradient (ones, one-hot at an element, or typed numbers) and
// the flags; Python builds and runs the real call and echoes it. The
// Jacobian of the root w.r.t. a leaf fills row by row: all at once through
// "Build all rows", or one row per one-hot backward the learner runs.

import { h, num, refill, shapeText } from "./dom.js";
import { buildJacobianTable, indexLabel } from "./jacobian_table.js";

const ONEHOT_GRID_LIMIT = 64;
// The largest Jacobian, in rows and in columns, that Python builds for the view
// (JACOBIAN_LIMIT in autograd_py/playground/backward.py; a test checks they agree).
// A larger one is not drawn at all: W2's 1 x 100,352 table was 200,000 elements per run.
export const JACOBIAN_LIMIT = 64;
const FILL_STEP_MS = 110;

export class BackwardPanel {
  /**
   * @param {HTMLElement} element the section[data-testid=backward]
   * @param {object} hooks
   * @param {(request: object) => Promise<object>} hooks.backward runs an interactive backward
   * @param {(output: string, input: string) => Promise<object>} hooks.jacobian
   * @param {(name: string|null) => void} hooks.onRootChange
   * @param {() => boolean} hooks.busy true while Python runs something
   */
  constructor(element, hooks) {
    this.element = element;
    this.hooks = hooks;
    this.t = null;
    this.tensors = [];
    this.root = null;
    this.input = null;
    this.kind = "ones";
    this.onehot = 0;
    this.custom = "";
    this.retain = true;
    this.create = false;
    this.error = null;
    this.echo = null;
    this.jac = null; // {output, input, outId, inId, rows, cols, tooLarge, rowLabels, colLabels, cells, origin, calls, fresh}
    this.vjp = null;
    this.activeCall = null;
    this.filling = null;
    this.freed = new Set(); // ids of tensors whose graph was freed by a backward (Python says which)
    this.freedBy = null; // {source, line, call, fix: {line, before, after} | null}: the call that freed it
  }

  setStrings(t) {
    this.t = t;
    this.draw();
  }

  tensor(name) {
    return this.tensors.find((row) => row.names.includes(name)) || null;
  }

  /**
   * New tensors after a command: keeps the choices that still exist.
   * @param {object[]} tensors graph.export's tensor rows
   * @param {{freed?: string[], freedBy?: object|null}} [freedInfo] the result's freed_tensors, freed_by
   */
  update(tensors, { freed = [], freedBy = null } = {}) {
    this.tensors = tensors || [];
    this.freed = new Set(freed);
    this.freedBy = freedBy;
    const roots = this.rootChoices();
    if (!roots.some((row) => row.names[0] === this.root)) {
      // The newest computed tensor is the likeliest root; a leaf only when nothing was computed.
      const computed = roots.filter((row) => !row.is_leaf);
      const pick = computed.length ? computed[computed.length - 1] : roots[roots.length - 1];
      this.root = pick ? pick.names[0] : null;
      this.onehot = 0;
    }
    const inputs = this.inputChoices();
    if (!inputs.some((row) => row.names[0] === this.input)) this.input = inputs.length ? inputs[0].names[0] : null;
    this.syncJacobian();
    this.hooks.onRootChange(this.root);
    this.draw();
  }

  /**
   * A new namespace: the root, input, Jacobian and messages of the old one are gone. `clean` (a
   * lesson picked, Python restarted): the gradient and flags chosen go too, as on a fresh page; a
   * Run of edited code keeps them (the learner's experiment goes on).
   */
  forget({ clean = false } = {}) {
    this.stopFilling();
    this.root = null;
    this.input = null;
    this.onehot = 0;
    this.error = null;
    this.echo = null;
    this.jac = null;
    this.vjp = null;
    this.activeCall = null;
    if (clean) {
      this.kind = "ones";
      this.custom = "";
      this.retain = true;
      this.create = false;
    }
  }

  rootChoices() {
    return this.tensors.filter((row) => row.requires_grad);
  }

  inputChoices() {
    return this.tensors.filter((row) => row.requires_grad && row.is_leaf);
  }

  setRoot(name) {
    if (!this.tensor(name) || !this.tensor(name).requires_grad) return;
    this.root = name;
    this.onehot = 0;
    this.error = null;
    this.syncJacobian();
    this.hooks.onRootChange(name);
    this.draw();
  }

  setInput(name) {
    const row = this.tensor(name);
    if (!row || !row.is_leaf || !row.requires_grad) return;
    this.input = name;
    this.syncJacobian();
    this.draw();
  }

  /** Keeps the Jacobian on show only while it is still of the same two tensors. */
  syncJacobian() {
    const out = this.tensor(this.root);
    const inp = this.tensor(this.input);
    if (!out || !inp) {
      this.jac = null;
      return;
    }
    if (this.jac && this.jac.outId === out.id && this.jac.inId === inp.id
        && this.jac.output === this.root && this.jac.input === this.input) return;
    this.stopFilling();
    const rows = out.shape.reduce((a, b) => a * b, 1);
    const cols = inp.shape.reduce((a, b) => a * b, 1);
    this.vjp = null;
    this.activeCall = null;
    if (rows > JACOBIAN_LIMIT || cols > JACOBIAN_LIMIT) {
      this.jac = { output: this.root, input: this.input, outId: out.id, inId: inp.id, rows, cols, tooLarge: true };
      return;
    }
    this.jac = {
      output: this.root, input: this.input, outId: out.id, inId: inp.id, rows, cols,
      rowLabels: Array.from({ length: rows }, (_, k) => indexLabel(this.root, out.shape, k)),
      colLabels: Array.from({ length: cols }, (_, k) => indexLabel(this.input, inp.shape, k)),
      cells: Array(rows).fill(null), origin: Array(rows).fill(null), fresh: null,
    };
  }

  // ---- actions ----------------------------------------------------------------

  request() {
    const gradient = { kind: this.kind };
    if (this.kind === "onehot") gradient.index = this.onehot;
    if (this.kind === "custom") gradient.values = this.custom;
    return { root: this.root, gradient, retain_graph: this.retain, create_graph: this.create, watch: this.input || null };
  }

  async runBackward() {
    if (!this.root || this.hooks.busy()) return;
    this.error = null;
    const result = await this.hooks.backward(this.request());
    if (result.request_error) {
      this.error = result.error;
      this.draw();
      return;
    }
    this.echo = result.echo || null;
    // A bad vector keeps what was typed; a good run keeps it too, for the next try.
    this.absorb(result);
  }

  /** Fills a Jacobian row or the vᵀJ check from an interactive backward's result. */
  absorb(result) {
    const row = result.jacobian_row;
    if (row && this.jac && !this.jac.tooLarge && row.output === this.jac.output && row.input === this.jac.input) {
      this.jac.cells[row.row] = row.values;
      this.jac.origin[row.row] = "backward";
      this.jac.fresh = row.row;
    }
    this.vjp = result.vjp_check && this.jac && result.vjp_check.output === this.jac.output ? result.vjp_check : null;
    this.draw();
  }

  async buildAll() {
    if (!this.jac || this.jac.tooLarge || this.hooks.busy()) return;
    this.stopFilling();
    const result = await this.hooks.jacobian(this.jac.output, this.jac.input);
    if (!result.ok) {
      // A freed graph is explained by the note above the form; the traceback is in the output.
      this.error = this.rootFreed() ? null : result.error;
      this.draw();
      return;
    }
    this.error = null;
    const jac = this.jac;
    if (!jac || jac.output !== result.output || jac.input !== result.input) return;
    jac.calls = result.calls;
    let k = 0;
    // Show the matrix filling in, one row (one backward pass) at a time.
    const next = () => {
      if (this.jac !== jac || k >= jac.rows) {
        this.filling = null;
        this.activeCall = null;
        this.draw();
        return;
      }
      jac.cells[k] = result.matrix[k];
      jac.origin[k] = jac.origin[k] === "backward" ? "backward" : "build";
      jac.fresh = k;
      this.activeCall = result.calls[k];
      k += 1;
      this.draw();
      this.filling = setTimeout(next, Math.max(25, Math.min(FILL_STEP_MS, 2500 / jac.rows)));
    };
    next();
  }

  stopFilling() {
    if (this.filling) clearTimeout(this.filling);
    this.filling = null;
  }

  // ---- drawing ----------------------------------------------------------------

  draw() {
    const t = this.t;
    if (!t) return;
    const roots = this.rootChoices();
    if (!roots.length) {
      refill(this.element, h("p", { class: "muted pad", text: t.bNoRoots }));
      return;
    }
    refill(this.element, this.rootFreed() ? this.freedNote() : null,
      h("div", { class: "bw-layout" }, this.backwardForm(roots), this.jacobianView()));
  }

  rootFreed() {
    const root = this.tensor(this.root);
    return Boolean(root && this.freed.has(root.id));
  }

  /** Why a backward from this root fails, and the fix when Python found one in the script. */
  freedNote() {
    const t = this.t;
    const by = this.freedBy;
    const where = by ? (by.source === "<editor>" ? t.fLine(by.line) : t.fConsole) : null;
    const text = by ? t.fFreedBy(this.root, by.call, where) : t.fFreed(this.root);
    const fix = by && by.fix;
    return h("div", { class: "freed-help", role: "note", "data-testid": "freed-help" },
      h("p", { text }),
      fix ? h("p", { class: "fix-row" },
        h("button", { type: "button", class: "primary", "data-testid": "freed-fix", disabled: this.hooks.busy(),
          onclick: () => this.hooks.applyFix(fix) }, t.fFix(fix.line)),
        h("code", { class: "fix-preview", text: fix.after.trim() }))
        : h("p", { class: "muted small", text: t.fRerun }));
  }

  backwardForm(roots) {
    const t = this.t;
    const rootSelect = h("select", { "data-testid": "backward-root", "aria-label": t.bRoot,
      onchange: (e) => this.setRoot(e.target.value) },
    roots.map((row) => h("option", { value: row.names[0], text: `${row.names[0]}  ${shapeText(row.shape)}` })));
    rootSelect.value = this.root;
    const root = this.tensor(this.root);
    const scalar = root && root.shape.length === 0;
    const radio = (kind, label) => h("label", { class: `seg${this.kind === kind ? " on" : ""}` },
      h("input", { type: "radio", name: "bw-kind", value: kind, checked: this.kind === kind, "data-testid": `gradient-${kind}`,
        onchange: () => { this.kind = kind; this.error = null; this.draw(); } }), label);
    const check = (key, label, testid) => h("label", { class: "check" },
      h("input", { type: "checkbox", checked: this[key], "data-testid": testid, onchange: (e) => { this[key] = e.target.checked; } }),
      h("code", { text: label }));
    const run = h("button", { type: "button", class: "primary", "data-testid": "backward-run", disabled: this.hooks.busy(),
      onclick: () => this.runBackward() }, h("span", { "aria-hidden": "true", text: "▶ " }), t.bRun);
    return h("div", { class: "bw-form" },
      h("div", { class: "bw-row" }, h("label", { class: "lbl", text: t.bRoot }), rootSelect, h("span", { class: "muted small", text: t.bPickHint })),
      h("div", { class: "bw-row" }, h("span", { class: "lbl", text: t.bGradient }),
        h("div", { class: "segmented", role: "radiogroup" }, radio("ones", t.bOnes), radio("onehot", t.bOneHot), radio("custom", t.bCustom))),
      scalar && this.kind === "ones" ? h("p", { class: "muted small indent", text: t.bScalar }) : null,
      this.kind === "onehot" && root ? this.onehotPicker(root) : null,
      this.kind === "custom" ? this.customInput(root) : null,
      h("div", { class: "bw-row" }, check("retain", "retain_graph", "retain-graph"), check("create", "create_graph", "create-graph"), run),
      this.error ? h("p", { class: "bw-error", role: "alert", "data-testid": "backward-error", text: this.errorText(this.error) }) : null,
      this.echo ? h("p", { class: "bw-echo" }, h("span", { class: "muted", text: `${t.bRan} ` }),
        h("code", { "data-testid": "backward-echo", text: this.echo })) : null);
  }

  errorText(error) {
    const template = error.code && this.t.requestError[error.code];
    return template ? template(error.params || {}) : `${error.type}: ${error.message}`;
  }

  onehotPicker(root) {
    const numel = root.shape.reduce((a, b) => a * b, 1);
    if (numel > ONEHOT_GRID_LIMIT) {
      return h("div", { class: "bw-row" }, h("span", { class: "lbl", text: this.t.bElement }),
        h("input", { type: "number", min: 0, max: numel - 1, value: this.onehot, "data-testid": "onehot-index",
          onchange: (e) => { this.onehot = Math.max(0, Math.min(numel - 1, Number(e.target.value) || 0)); } }),
        h("code", { class: "muted", text: indexLabel(root.names[0], root.shape, this.onehot) }));
    }
    const cols = root.shape.length ? root.shape[root.shape.length - 1] : 1;
    const cells = Array.from({ length: numel }, (_, k) => h("button", {
      type: "button", class: `cell${k === this.onehot ? " on" : ""}`, "data-index": k,
      title: indexLabel(root.names[0], root.shape, k), "aria-pressed": String(k === this.onehot),
      onclick: () => { this.onehot = k; this.draw(); },
    }, h("span", { class: "cell-index", text: indexLabel("", root.shape, k) || "[]" }), h("span", { class: "cell-value", text: k === this.onehot ? "1" : "0" })));
    const grid = h("div", { class: "onehot-grid", "data-testid": "onehot-grid" }, cells);
    grid.style.gridTemplateColumns = `repeat(${Math.min(cols, 16)}, auto)`;
    return h("div", { class: "bw-row top" }, h("span", { class: "lbl", text: this.t.bElement }), grid);
  }

  customInput(root) {
    const t = this.t;
    const numel = root ? root.shape.reduce((a, b) => a * b, 1) : 0;
    return h("div", { class: "bw-row" }, h("span", { class: "lbl", text: shapeText(root ? root.shape : []) }),
      h("input", { type: "text", class: "vector", value: this.custom, placeholder: t.bCustomPlaceholder, spellcheck: "false",
        "data-testid": "custom-gradient", "aria-label": `${t.bCustom} (${numel})`,
        oninput: (e) => { this.custom = e.target.value; },
        onkeydown: (e) => { if (e.key === "Enter") this.runBackward(); } }));
  }

  jacobianView() {
    const t = this.t;
    const inputs = this.inputChoices();
    const inputSelect = h("select", { "data-testid": "jacobian-input", "aria-label": t.jWrt, onchange: (e) => this.setInput(e.target.value) },
      inputs.map((row) => h("option", { value: row.names[0], text: row.names[0] })));
    if (this.input) inputSelect.value = this.input;
    const jac = this.jac;
    const build = h("button", { type: "button", "data-testid": "jacobian-build", disabled: !jac || jac.tooLarge || this.hooks.busy(),
      onclick: () => this.buildAll(), text: t.jBuild });
    const parts = [h("div", { class: "jac-head" }, h("h3", { text: t.jTitle }),
      h("code", { class: "jac-of", text: `∂${this.root || "?"} / ∂` }), inputSelect, build)];
    parts.push(h("p", { class: "muted small", text: t.jExplain }));
    if (jac && jac.tooLarge) {
      parts.push(h("p", { class: "muted small", "data-testid": "jacobian-too-large",
        text: t.requestError.jacobian_too_large({ rows: jac.rows, cols: jac.cols, limit: JACOBIAN_LIMIT }) }));
    } else if (jac) parts.push(buildJacobianTable(jac, t));
    if (this.activeCall) parts.push(h("p", { class: "jac-call" }, h("code", { text: this.activeCall })));
    if (this.vjp) parts.push(this.vjpView(this.vjp));
    return h("div", { class: "jacobian", "data-testid": "jacobian" }, parts);
  }

  vjpView(check) {
    const t = this.t;
    const list = (values) => `[${values.map(num).join(", ")}]`;
    return h("div", { class: `vjp ${check.match ? "ok" : "bad"}`, "data-testid": "vjp-check" },
      h("p", { text: t.jVjp }),
      h("div", { class: "vjp-grid" },
        h("code", { text: "v" }), h("code", { text: list(check.v) }),
        h("code", { text: "vᵀJ" }), h("code", { text: list(check.vjp) }),
        h("code", { text: t.jDelta(check.input) }), h("code", { text: list(check.delta) })),
      h("p", { class: "verdict", text: check.match ? `✓ ${t.jMatch}` : `✗ ${t.jNoMatch}` }));
  }
}
