// The output console. Everything the user's code prints is inserted as text
// (textContent), never as HTML. Chunks are merged and written once per
// animation frame, and the oldest text is dropped past a size limit, so a
// flood of output cannot freeze the page.

const MAX_CHARS = 3_000_000;

export class OutputView {
  /** @param {HTMLElement} element the scrolling log container */
  constructor(element) {
    this.element = element;
    this.queue = [];
    this.scheduled = false;
    this.chars = 0;
  }

  /**
   * Queues text for display.
   * @param {string} kind stdout | stderr | warning | error | note | echo
   * @param {string} text
   */
  write(kind, text) {
    if (!text) return;
    const last = this.queue[this.queue.length - 1];
    if (last && last.kind === kind) last.text += text;
    else this.queue.push({ kind, text });
    if (!this.scheduled) {
      this.scheduled = true;
      requestAnimationFrame(() => this.flush());
    }
  }

  /** Writes a line of its own, starting on a fresh line. */
  line(kind, text) {
    const needsBreak = this.endsMidLine();
    this.write(kind, (needsBreak ? "\n" : "") + text + "\n");
  }

  endsMidLine() {
    const last = this.queue[this.queue.length - 1];
    if (last) return !last.text.endsWith("\n");
    const text = this.element.lastChild ? this.element.lastChild.textContent : "";
    return text.length > 0 && !text.endsWith("\n");
  }

  flush() {
    this.scheduled = false;
    if (!this.queue.length) return;
    const el = this.element;
    const stick = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    const fragment = document.createDocumentFragment();
    this.queue.forEach(({ kind, text }, index) => {
      this.chars += text.length;
      // The queue already merges neighbours; only its head may continue the last span.
      const last = el.lastElementChild;
      if (index === 0 && last && last.dataset.kind === kind && last.textContent.length < 65536) {
        last.appendChild(document.createTextNode(text));
        return;
      }
      const span = document.createElement("span");
      span.className = `out out-${kind}`;
      span.dataset.kind = kind;
      span.textContent = text;
      fragment.appendChild(span);
    });
    this.queue = [];
    el.appendChild(fragment);
    this.trim();
    if (stick) el.scrollTop = el.scrollHeight;
  }

  trim() {
    while (this.chars > MAX_CHARS && this.element.firstChild) {
      this.chars -= this.element.firstChild.textContent.length;
      this.element.removeChild(this.element.firstChild);
    }
  }

  clear() {
    this.queue = [];
    this.chars = 0;
    this.element.replaceChildren();
  }
}
