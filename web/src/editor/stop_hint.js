// A one-line hint under the output while a run floods it or goes on for a
// while: Stop ends the run (a learner who started `while True:` or a print
// loop may not know). Shown only while the run lasts; strings in both languages.

const FLOOD_CHARS = 20_000; // about 3,000 short lines in one run
const LONG_RUN_MS = 4000;

export const STOP_HINT_STRINGS = {
  en: {
    flood: "Lots of output: press Stop (■) to end this run.",
    long: "Still running: press Stop (■) to end it, or wait.",
  },
  zh: {
    flood: "输出很多：按“停止”(■) 可结束这次运行。",
    long: "仍在运行：按“停止”(■) 可结束它，或继续等待。",
  },
};

export class StopHint {
  /**
   * @param {HTMLElement} element a <p role="status"> shown under the output
   * @param {"en"|"zh"} lang
   */
  constructor(element, lang) {
    this.element = element;
    this.lang = lang;
    this.reason = null; // null | "flood" | "long"
    this.chars = 0;
    this.timer = null;
    element.hidden = true;
  }

  setLanguage(lang) {
    this.lang = STOP_HINT_STRINGS[lang] ? lang : "en";
    this.render();
  }

  /** The runtime's state changed: a run starts, or ends (any other state). */
  setRunning(running) {
    if (running === (this.timer !== null)) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.chars = 0;
    this.show(null);
    if (running) this.timer = setTimeout(() => this.show(this.reason || "long"), LONG_RUN_MS);
  }

  /** Text arrived from the running code. */
  noteOutput(length) {
    if (this.timer === null || this.reason === "flood") return;
    this.chars += length;
    if (this.chars >= FLOOD_CHARS) this.show("flood");
  }

  show(reason) {
    this.reason = reason;
    this.render();
  }

  render() {
    this.element.hidden = !this.reason;
    this.element.dataset.reason = this.reason || "";
    this.element.textContent = this.reason ? STOP_HINT_STRINGS[this.lang][this.reason] : "";
  }
}
