// The timeline bar above the graph: a slider over the stored steps of the last
// run, Back/Forward buttons (and the slider's own arrow keys), what the step
// is, a button that opens a backward step's pass in the step-through, and the
// loop groups of the step, outer loops first (a long loop's iterations
// summarised; a stored one is a jump, a folded one is asked for through
// hooks.openIteration, which runs the code again). It only moves a position;
// views.js draws the state at it.

import { count, fill, h } from "./dom.js";

export class TimelinePanel {
  /**
   * @param {HTMLElement} element the bar's container
   * @param {object} hooks
   * @param {(index: number) => void} hooks.onStep the position moved (a 0-based stored step)
   * @param {(step: object) => void} hooks.openPass a backward step's "step through" was pressed
   * @param {(step: object) => boolean} hooks.passKept that step's pass opens without running the code again
   * @param {(group: number, iteration: number) => void} hooks.openIteration a folded iteration
   */
  constructor(element, hooks) {
    this.element = element;
    this.hooks = hooks;
    this.t = null;
    this.timeline = null;
    this.index = 0;
    this.build();
  }

  build() {
    this.label = h("span", { class: "tl-label", id: "timeline-label" });
    this.back = h("button", { type: "button", class: "icon", "data-testid": "timeline-back", onclick: () => this.go(this.index - 1), text: "◀" });
    this.forward = h("button", { type: "button", class: "icon", "data-testid": "timeline-forward", onclick: () => this.go(this.index + 1), text: "▶" });
    this.slider = h("input", { type: "range", min: 1, max: 1, value: 1, step: 1, "data-testid": "timeline",
      "aria-labelledby": "timeline-label", class: "tl-slider" });
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value) - 1));
    this.where = h("span", { class: "tl-where", "data-testid": "timeline-step", "aria-live": "polite" });
    this.pass = h("button", { type: "button", class: "ghost tl-pass", "data-testid": "timeline-open-pass", hidden: true,
      onclick: () => this.hooks.openPass(this.current()) });
    this.groups = h("div", { class: "tl-groups", "data-testid": "timeline-groups" });
    this.note = h("span", { class: "tl-note muted", "data-testid": "timeline-note" });
    fill(this.element,
      h("div", { class: "tl-row" }, this.label, this.back, this.slider, this.forward, this.where, this.pass),
      h("div", { class: "tl-row tl-row-groups" }, this.groups, this.note));
    this.element.hidden = true;
    // The arrows step from anywhere in the bar (the slider moves itself; a list keeps its own).
    this.element.addEventListener("keydown", (event) => {
      const by = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!by || event.target === this.slider || event.target.tagName === "SELECT") return;
      event.preventDefault();
      this.go(this.index + by);
    });
  }

  setStrings(t) {
    this.t = t;
    this.label.textContent = t.tlLabel;
    this.back.title = t.tlBack;
    this.back.setAttribute("aria-label", t.tlBack);
    this.forward.title = t.tlForward;
    this.forward.setAttribute("aria-label", t.tlForward);
    if (this.timeline) this.draw();
  }

  /** A run's timeline (or null: no bar). Keeps the position when asked (live mode), else the end. */
  load(timeline, { keepPosition = false } = {}) {
    const before = this.timeline ? this.current() : null;
    this.timeline = timeline && timeline.steps.length ? timeline : null;
    this.message = "";
    this.element.hidden = !this.timeline;
    if (!this.timeline) return;
    const n = this.timeline.steps.length;
    this.slider.max = String(n);
    let index = n - 1;
    if (keepPosition && before) {
      const same = this.timeline.steps.findIndex((step) => step.step >= before.step);
      if (same >= 0) index = same;
    }
    this.index = index;
    this.draw();
  }

  /** A note about the last request (a replay's), shown until the next run's timeline. */
  setMessage(text) {
    this.message = text;
    if (this.timeline) this.draw();
  }

  current() {
    return this.timeline ? this.timeline.steps[this.index] : null;
  }

  go(index) {
    if (!this.timeline) return;
    const n = this.timeline.steps.length;
    this.index = Math.max(0, Math.min(n - 1, index));
    this.draw();
    this.hooks.onStep(this.index);
  }

  /** Jumps to the stored step numbered `number` (or the first one after it). */
  goToStep(number) {
    const at = this.timeline.steps.findIndex((step) => step.step >= number);
    this.go(at < 0 ? this.timeline.steps.length - 1 : at);
  }

  draw() {
    const t = this.t;
    if (!t || !this.timeline) return;
    const { steps, total_steps: total } = this.timeline;
    const step = steps[this.index];
    this.slider.value = String(this.index + 1);
    this.slider.setAttribute("aria-valuetext", t.tlWhere(count(step.step), count(total), step.line));
    this.back.disabled = this.index === 0;
    this.forward.disabled = this.index === steps.length - 1;
    const parts = [t.tlWhere(count(step.step), count(total), step.line)];
    if (step.kind !== "line") parts.push(step.kind === "grad" ? t.tlGrad : t.tlBackward);
    if (step.after_elided) parts.push(t.tlAfterElided(count(step.after_elided)));
    this.where.textContent = parts.join(" · ");
    this.where.dataset.step = String(step.step);
    this.where.dataset.line = String(step.line ?? "");
    this.pass.hidden = step.kind === "line";
    this.pass.textContent = t.tlOpenPass(step.pass);
    this.pass.dataset.pass = String(step.pass ?? "");
    // Python keeps a run's first passes (and its last); another one opens by running the code again.
    this.pass.title = step.kind === "line" || this.hooks.passKept(step) ? "" : t.tlPassReplay;
    this.drawGroups(step);
    const dropped = this.timeline.total_steps - steps.length;
    const rested = this.timeline.rested_after;
    if (rested != null) this.note.textContent = t.tlRested(count(rested), count(total));
    else this.note.textContent = dropped > 0 ? t.tlFolded(count(steps.length), count(total)) : "";
    if (this.message) this.note.textContent = [this.message, this.note.textContent].filter(Boolean).join(" · ");
  }

  /**
   * The loop groups: those the current step is in, outermost first, each with its stored
   * iterations; outside any loop, the outer loops.
   */
  drawGroups(step) {
    const groups = this.timeline.groups;
    const byId = new Map(groups.map((g) => [g.id, g]));
    const chain = [];
    for (let g = step.group != null ? byId.get(step.group) : null; g; g = g.parent != null ? byId.get(g.parent) : null) {
      chain.unshift(g);
    }
    if (chain.length) {
      fill(this.groups, chain.map((group) => this.groupRow(group, iterationAt(group, step))));
      return;
    }
    const outer = groups.filter((g) => g.parent == null);
    fill(this.groups, outer.slice(0, 6).map((group) => this.groupRow(group, null)));
    if (outer.length > 6) this.groups.append(h("span", { class: "muted", text: "…" }));
  }

  groupRow(group, iteration) {
    const t = this.t;
    const text = t.tlLoop(group.line, count(group.iterations));
    const row = h("span", { class: "tl-group", "data-group": group.id });
    if (iteration == null) {
      row.append(h("button", { type: "button", class: "ghost", "data-testid": "timeline-group", text,
        onclick: () => this.goToStep(group.first_step) }));
      return row;
    }
    // Every stored iteration is an entry; each run of folded ones between two is one entry.
    const select = h("select", { "data-testid": "timeline-iteration", "aria-label": text });
    let previous = 0;
    for (const [number, first] of group.shown) {
      if (number > previous + 1) {
        select.append(h("option", { disabled: true, value: "", text: t.tlElided(count(previous + 1), count(number - 1)) }));
      }
      select.append(h("option", { value: String(first), text: t.tlIteration(count(number)), selected: number === iteration }));
      previous = number;
    }
    // A loop that ran on after the recorder rested: its later iterations were only counted.
    if (previous < group.iterations) {
      select.append(h("option", { disabled: true, value: "", text: t.tlUnrecorded(count(previous + 1), count(group.iterations)) }));
    }
    select.addEventListener("change", () => this.goToStep(Number(select.value)));
    row.append(h("span", { class: "tl-group-name", text }), select);
    if (group.elided) row.append(this.openControl(group));
    return row;
  }

  /** Any iteration by its number: a stored one is a jump, a folded one runs the code again. */
  openControl(group) {
    const t = this.t;
    const input = h("input", { type: "number", min: 1, max: group.iterations, step: 1, class: "tl-open-number",
      inputmode: "numeric", placeholder: `1–${group.iterations}`, "data-testid": "timeline-open-iteration",
      "aria-label": t.tlOpenLabel(count(group.iterations)) });
    const open = () => {
      const n = Number(input.value);
      if (!Number.isInteger(n) || n < 1 || n > group.iterations) return input.reportValidity();
      const stored = group.shown.find(([number]) => number === n);
      return stored ? this.goToStep(stored[1]) : this.hooks.openIteration(group.id, n);
    };
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      open();
    });
    return h("span", { class: "tl-open", title: t.tlOpenTitle }, input,
      h("button", { type: "button", class: "ghost", "data-testid": "timeline-open-iteration-go", text: t.tlOpenGo, onclick: open }),
      h("span", { class: "muted", text: t.tlElidedNote(count(group.elided.iterations)) }));
  }
}

/** The iteration of `group` that stored step `step` is in (its `shown` ranges), or 0 if none. */
function iterationAt(group, step) {
  if (group.id === step.group) return step.iteration;
  const found = group.shown.find(([, first, last]) => first <= step.step && step.step <= last);
  return found ? found[0] : 0;
}
