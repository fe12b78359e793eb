// Live mode (off by default): about 600 ms after the learner stops typing, the
// editor runs again and the views update in place. A run that takes too long
// is stopped; a half-typed line (a SyntaxError) leaves the last good view on
// show. The toggle and its note sit in the editor's toolbar.

import { h } from "../views/dom.js";

export const LIVE_DELAY_MS = 600;
export const LIVE_LIMIT_MS = 4000;
const INCOMPLETE = new Set(["SyntaxError", "IndentationError", "TabError"]);

export class LiveMode {
  /**
   * @param {HTMLElement} after the toolbar element the toggle follows
   * @param {object} hooks
   * @param {() => Promise<object>} hooks.run runs the editor; resolves with the result
   * @param {() => void} hooks.clearOutput clears the output console
   * @param {(result: object) => void} hooks.show shows a run's result and views (in place)
   * @param {() => Promise<string>} hooks.stop stops the running code
   * @param {() => string} hooks.state Python's state ("ready", "running", "loading", "error")
   * @param {object} t the current language's strings
   */
  constructor(after, hooks, t) {
    this.hooks = hooks;
    this.on = false;
    this.timer = null;
    this.generation = 0;
    this.box = h("input", { type: "checkbox", "data-testid": "live-toggle", id: "live-toggle" });
    this.box.addEventListener("change", () => this.setOn(this.box.checked));
    this.text = h("span", {});
    this.label = h("label", { class: "live-toggle", for: "live-toggle" }, this.box, this.text);
    this.note = h("span", { class: "live-note", "data-testid": "live-note", role: "status" });
    after.after(this.label, this.note);
    this.status = null;
    this.clearPending = false;
    this.setStrings(t);
  }

  setStrings(t) {
    this.t = t;
    this.text.textContent = t.liveLabel;
    this.label.title = t.liveTitle;
    this.showNote(this.status);
  }

  setOn(on) {
    this.on = on;
    this.box.checked = on;
    clearTimeout(this.timer);
    if (on) this.schedule(0);
    else this.showNote(null);
  }

  /** The editor's text changed. */
  edited() {
    if (this.on) this.schedule(LIVE_DELAY_MS);
  }

  schedule(ms) {
    clearTimeout(this.timer);
    const generation = ++this.generation;
    this.timer = setTimeout(() => this.fire(generation), ms);
  }

  async fire(generation) {
    if (!this.on || generation !== this.generation) return;
    if (this.hooks.state() !== "ready") {
      if (this.hooks.state() !== "error") this.schedule(300); // after the current run, or once loaded
      return;
    }
    this.showNote({ kind: "running" });
    let stopped = false;
    const limit = setTimeout(() => {
      stopped = true;
      this.hooks.stop();
    }, LIVE_LIMIT_MS);
    // The output is cleared once the run prints, or once it ends: a half-typed line keeps the last.
    this.clearPending = true;
    const result = await this.hooks.run();
    clearTimeout(limit);
    const kept = keepsLastView(result);
    if (this.clearPending && !kept) this.hooks.clearOutput();
    this.clearPending = false;
    if (!kept) this.hooks.show(result);
    const error = result && result.error;
    if (stopped || (error && (error.type === "Restarted" || error.type === "KeyboardInterrupt"))) {
      this.showNote({ kind: "stopped" });
    } else if (error && INCOMPLETE.has(error.type)) {
      this.showNote({ kind: "syntax", line: error.lineno });
    } else {
      this.showNote({ kind: "updated" });
    }
  }

  /** Python is about to print: a live run's first output replaces the last run's. */
  beforeOutput() {
    if (!this.clearPending) return;
    this.clearPending = false;
    this.hooks.clearOutput();
  }

  showNote(status) {
    this.status = status;
    const t = this.t;
    const kind = status ? status.kind : "";
    this.note.dataset.kind = kind;
    this.note.textContent = !status ? "" : kind === "running" ? t.liveRunning : kind === "updated" ? t.liveUpdated
      : kind === "syntax" ? t.liveSyntax(status.line ?? "?") : t.liveStopped(LIVE_LIMIT_MS / 1000);
  }
}

/** True when a live result must not replace the views: the code did not parse, or the run was stopped. */
function keepsLastView(result) {
  const error = result && result.error;
  return Boolean(error && (INCOMPLETE.has(error.type) || error.type === "Restarted" || error.type === "KeyboardInterrupt"));
}
