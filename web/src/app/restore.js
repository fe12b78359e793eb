// "Original code": puts the lesson's own code back, and offers to undo that
// right away, so a learner's edits are never lost by one click.

/**
 * @param {object} els {button, notice} elements of the page
 * @param {object} app
 * @param {() => string} app.original the current lesson's original code
 * @param {() => string} app.getCode
 * @param {(code: string) => void} app.setCode
 * @param {object} t strings
 */
export class RestoreOriginal {
  constructor(els, app, t) {
    this.els = els;
    this.app = app;
    this.t = t;
    this.undo = null; // the code before the restore, while the notice offers it back
    els.button.addEventListener("click", () => this.restore());
  }

  setStrings(t) {
    this.t = t;
    this.draw();
  }

  restore() {
    const code = this.app.getCode();
    const original = this.app.original();
    if (code === original) return;
    this.undo = code;
    this.app.setCode(original);
    this.draw();
    this.els.notice.querySelector("button").focus();
  }

  undoRestore() {
    if (this.undo === null) return;
    const code = this.undo;
    this.hide();
    this.app.setCode(code);
  }

  /** The notice goes once the learner moves on (edits, another lesson). */
  hide() {
    this.undo = null;
    this.draw();
  }

  draw() {
    const el = this.els.notice;
    el.hidden = this.undo === null;
    if (el.hidden) return el.replaceChildren();
    const text = document.createElement("span");
    text.className = "share-notice-text";
    text.textContent = this.t.restoredNote;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.testid = "restore-undo";
    button.textContent = this.t.restoreUndo;
    button.addEventListener("click", () => this.undoRestore());
    el.replaceChildren(text, button);
  }
}
