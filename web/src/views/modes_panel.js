// The "Forward vs reverse" panel: one Jacobian of the learner's own function, built both
// ways by Python (a compare_modes request). Forward mode fills it a column at a time (one
// JVP per input element), reverse mode a row at a time (one VJP per output element, after
// the one forward pass that records the graph); the two fill side by side, one pass per
// tick, so the pass counts can be watched as well as read. Then: do they agree?

import { h, refill, shapeText } from "./dom.js";
import { buildJacobianTable } from "./jacobian_table.js";

const FILL_STEP_MS = 250; // slow enough to watch a few passes; a large J still fills in about 2.5 s
const FLOAT = /float|double|half/;

export class ModesPanel {
  /**
   * @param {HTMLElement} element the section[data-testid=modes]
   * @param {object} hooks
   * @param {(fn: string, input: string) => Promise<object>} hooks.compare asks Python for both Jacobians
   * @param {() => boolean} hooks.busy true while Python runs something
   */
  constructor(element, hooks) {
    this.element = element;
    this.hooks = hooks;
    this.t = null;
    this.functions = [];
    this.inputs = [];
    this.fn = null;
    this.input = null;
    this.result = null; // the last compare_modes answer that was ok
    this.error = null;
    this.tick = 0; // passes shown so far (the fill animation)
    this.timer = null;
    this.callsOpen = false;
  }

  setStrings(t) {
    this.t = t;
    this.draw();
  }

  /**
   * A command's names: keeps the choices that still exist.
   * @param {object[]} tensors graph.export's tensor rows
   * @param {string[]} functions the user's functions and modules
   */
  update(tensors, functions) {
    this.functions = functions || [];
    this.inputs = (tensors || []).filter((row) => FLOAT.test(row.dtype || "float32")).map((row) => row.names[0]);
    if (!this.functions.includes(this.fn)) this.fn = this.functions.includes("f") ? "f" : this.functions[0] || null;
    if (!this.inputs.includes(this.input)) this.input = this.inputs.includes("x") ? "x" : this.inputs[0] || null;
    this.draw();
  }

  /** A new namespace: nothing of the old one's comparison stays. */
  forget() {
    this.stop();
    this.fn = null;
    this.input = null;
    this.result = null;
    this.error = null;
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  async build() {
    if (!this.fn || !this.input || this.hooks.busy()) return;
    this.stop();
    const result = await this.hooks.compare(this.fn, this.input);
    if (!result.ok) {
      this.result = null;
      this.error = result.error;
      this.draw();
      return;
    }
    this.error = null;
    this.result = result;
    this.tick = 0;
    const total = Math.max(result.forward_passes, result.reverse_passes + result.reverse_recording_passes);
    const step = Math.max(25, Math.min(FILL_STEP_MS, 2500 / Math.max(1, total)));
    // One pass per tick on each side: the side with fewer passes is done first.
    const next = () => {
      if (this.result !== result) return;
      this.tick += 1;
      this.timer = this.tick < total ? setTimeout(next, step) : null;
      this.draw();
    };
    next();
  }

  // ---- drawing ----------------------------------------------------------------

  draw() {
    const t = this.t;
    if (!t) return;
    if (!this.functions.length) {
      refill(this.element, h("div", { class: "modes pad" }, h("p", { class: "muted", text: t.mNoFunction }),
        h("pre", { class: "values", text: t.mExample })));
      return;
    }
    refill(this.element, h("div", { class: "modes" }, this.form(), this.error ? this.errorView() : null,
      this.result ? this.resultView(this.result) : h("p", { class: "muted small", text: t.mExplain })));
  }

  form() {
    const t = this.t;
    const select = (testid, label, values, value, set) => {
      const el = h("select", { "data-testid": testid, "aria-label": label, onchange: (e) => set(e.target.value) },
        values.map((name) => h("option", { value: name, text: name })));
      if (value) el.value = value;
      return el;
    };
    const pickFn = select("modes-function", t.mFunction, this.functions, this.fn, (v) => { this.fn = v; this.clear(); });
    const pickInput = select("modes-input", t.mInput, this.inputs, this.input, (v) => { this.input = v; this.clear(); });
    const build = h("button", { type: "button", class: "primary", "data-testid": "modes-build",
      disabled: !this.fn || !this.input || this.hooks.busy(), onclick: () => this.build(), text: t.mBuild });
    return h("div", { class: "modes-form" },
      h("h3", { text: t.mTitle }),
      h("span", { class: "modes-call" }, h("code", { text: "J = ∂" }), pickFn, h("code", { text: "(" }), pickInput,
        h("code", { text: ") / ∂" }), h("code", { class: "modes-wrt", text: this.input || "?" })),
      build);
  }

  clear() {
    this.stop();
    this.result = null;
    this.error = null;
    this.draw();
  }

  errorView() {
    const error = this.error;
    const template = error.code && this.t.requestError[error.code];
    const text = template ? template(error.params || {}) : `${error.type}: ${error.message}`;
    return h("p", { class: "bw-error", role: "alert", "data-testid": "modes-error", text });
  }

  resultView(r) {
    const t = this.t;
    const m = r.row_labels.length;
    const n = r.col_labels.length;
    const done = !this.timer;
    // Forward: the tick-th JVP fills column tick-1. Reverse: tick 1 is the recording pass,
    // then each tick one VJP fills a row.
    const cols = Math.min(this.tick, n);
    const rows = Math.max(0, Math.min(this.tick - r.reverse_recording_passes, m));
    const base = { rows: m, cols: n, rowLabels: r.row_labels, colLabels: r.col_labels, origin: Array(m).fill(null) };
    const forward = { ...base, fresh: null, freshCol: done ? null : cols - 1,
      cells: r.forward.map((row) => row.map((v, j) => (j < cols ? v : null))) };
    const reverse = { ...base, fresh: done ? null : rows - 1, cells: r.reverse.map((row, i) => (i < rows ? row : null)) };
    return h("div", { class: "modes-result", "data-testid": "modes-result", "data-done": String(done) },
      h("p", { class: "muted small", text: t.mShape(m, n, shapeText(r.out_shape), shapeText(r.in_shape)) }),
      h("div", { class: "modes-pair" },
        this.side("forward", t.mForward, t.mForwardHow(n), t.mForwardCount(cols, n), buildJacobianTable(forward, t,
          { testid: "modes-forward-table", filled: cols })),
        this.side("reverse", t.mReverse, t.mReverseHow(m),
          t.mReverseCount(Math.min(this.tick, r.reverse_recording_passes), rows, m), buildJacobianTable(reverse, t,
            { testid: "modes-reverse-table", filled: rows }))),
      done ? this.verdict(r) : null,
      done ? this.calls(r) : null);
  }

  side(kind, title, how, passes, table) {
    return h("section", { class: `modes-side modes-${kind}`, "data-testid": `modes-${kind}`, "aria-label": title },
      h("h4", { text: title }),
      h("p", { class: "modes-how small", text: how }),
      h("p", { class: "modes-passes", "data-testid": `modes-${kind}-passes`, text: passes }),
      table);
  }

  verdict(r) {
    const t = this.t;
    const diff = r.max_difference === 0 ? "0" : Number(r.max_difference).toExponential(1);
    return h("div", { class: `modes-verdict ${r.agree ? "ok" : "bad"}`, "data-testid": "modes-verdict",
      "data-agree": String(r.agree) },
    h("p", { class: "verdict", text: r.agree ? `✓ ${t.mAgree(diff)}` : `✗ ${t.mDisagree(diff)}` }),
    h("p", { class: "small", text: t.mCost(r.forward_passes, r.reverse_passes, r.reverse_recording_passes) }));
  }

  calls(r) {
    const t = this.t;
    const list = (title, calls, testid) => h("div", { class: "modes-calls-side" }, h("h4", { text: title }),
      h("pre", { class: "values", "data-testid": testid, text: calls.join("\n") }));
    return h("details", { class: "modes-calls", "data-testid": "modes-calls", open: this.callsOpen,
      ontoggle: (e) => { this.callsOpen = e.target.open; } },
      h("summary", { text: t.mCalls(r.forward_calls.length, r.reverse_calls.length) }),
      h("div", { class: "modes-calls-pair" }, list(t.mForward, r.forward_calls, "modes-forward-calls"),
        list(t.mReverse, r.reverse_calls, "modes-reverse-calls")));
  }
}
