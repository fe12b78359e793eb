// The output console. Everything the user's code prints is inserted as text
// (textContent), never as HTML. A flood of output cannot freeze the page:
// - text is queued and drawn on animation frames, a piece per frame whose size
//   follows how long the last frame's drawing (and layout) took, so no single
//   task lays out a large piece of new text, on a fast machine or a slow one;
// - the log is a column of blocks ("chunks") of about CHUNK_CHARS each, and new
//   text only ever goes into the last one, so drawing lays out that block alone
//   (one long run of inline text would be laid out again, whole, on every frame);
// - the oldest blocks are dropped past MAX_CHARS.

const MAX_CHARS = 3_000_000;
const CHUNK_CHARS = 8 * 1024;
const FRAME_CHARS = { first: 16 * 1024, least: 8 * 1024, most: 64 * 1024 };
const FRAME_MS = { slow: 24, fast: 8 }; // a frame's drawing: above slow, halve the piece; below fast, double it

export class OutputView {
  /** @param {HTMLElement} element the scrolling log container */
  constructor(element) {
    this.element = element;
    this.queue = [];
    this.scheduled = false;
    this.chars = 0;
    this.open = null; // the chunk new text goes into
    this.frameChars = FRAME_CHARS.first;
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
    this.schedule();
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

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      const start = performance.now();
      this.draw(this.frameChars);
      const ms = performance.now() - start;
      if (ms > FRAME_MS.slow) this.frameChars = Math.max(FRAME_CHARS.least, this.frameChars / 2);
      else if (ms < FRAME_MS.fast) this.frameChars = Math.min(FRAME_CHARS.most, this.frameChars * 2);
      if (this.queue.length) this.schedule();
    });
  }

  /**
   * Draws everything queued, now (a run's end: its text shows before its summary). The frames
   * keep up with Python's batches, so little is left for this one task.
   */
  flush() {
    this.draw(Infinity);
  }

  /** Draws up to `budget` queued chars, oldest first. */
  draw(budget) {
    if (!this.queue.length) return;
    const el = this.element;
    const stick = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    while (this.queue.length && budget > 0) {
      const head = this.queue[0];
      let text = head.text;
      if (text.length > budget) {
        // Cut at a line end when there is one, so a frame shows whole lines.
        const cut = text.lastIndexOf("\n", budget - 1);
        text = text.slice(0, cut >= 0 ? cut + 1 : budget);
        head.text = head.text.slice(text.length);
      } else {
        this.queue.shift();
      }
      budget -= text.length;
      this.append(head.kind, text);
    }
    this.trim();
    // Reading scrollHeight lays the new text out now, inside the time draw() is measured by.
    const height = el.scrollHeight;
    if (stick) el.scrollTop = height;
  }

  append(kind, text) {
    this.chars += text.length;
    let rest = text;
    while (rest) {
      const chunk = this.openChunk();
      const room = CHUNK_CHARS - chunk.size;
      if (rest.length <= room) {
        this.addText(chunk, kind, rest);
        return;
      }
      // It does not fit: fill the chunk up to a line end and close it. A line longer than
      // the room goes on to its end, or is cut past a hard limit (shown as a line break).
      let take = room > 0 ? rest.lastIndexOf("\n", room - 1) + 1 : 0;
      if (take === 0) {
        const end = rest.indexOf("\n");
        take = Math.max(1, Math.min(end >= 0 ? end + 1 : rest.length, 4 * CHUNK_CHARS - chunk.size));
      }
      this.addText(chunk, kind, rest.slice(0, take));
      rest = rest.slice(take);
      this.open = null;
    }
  }

  openChunk() {
    if (!this.open) {
      this.open = document.createElement("div");
      this.open.className = "out-chunk";
      this.open.size = 0;
      this.element.appendChild(this.open);
    }
    return this.open;
  }

  addText(chunk, kind, text) {
    chunk.size += text.length;
    const last = chunk.lastElementChild;
    if (last && last.dataset.kind === kind) {
      last.appendChild(document.createTextNode(text));
      return;
    }
    const span = document.createElement("span");
    span.className = `out out-${kind}`;
    span.dataset.kind = kind;
    span.textContent = text;
    chunk.appendChild(span);
  }

  trim() {
    while (this.chars > MAX_CHARS && this.element.firstChild && this.element.firstChild !== this.open) {
      this.chars -= this.element.firstChild.textContent.length;
      this.element.removeChild(this.element.firstChild);
    }
  }

  clear() {
    this.queue = [];
    this.chars = 0;
    this.open = null;
    this.element.replaceChildren();
  }
}
