// "Original code": puts the lesson's own code back, and offers to undo that
// right away, so a learner's edits are never lost by one click. A quick fix
// applied from the graph is offered back the same way (offer).

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
    this.note = null; // what the notice says: null for the restore's own note
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
    this.note = null;
    this.app.setCode(original);
    this.draw();
    this.els.notice.querySelector("button").focus();
  }

  /**
   * Offers to take back another one-click change of the editor (a quick fix), as for a restore.
   * @param {string} code the editor's code before the change
   * @param {(t: object) => string} note what the notice says, in the current language
   */
  offer(code, note) {
    this.undo = code;
    this.note = note;
    this.draw();
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
    this.note = null;
    this.draw();
  }

  draw() {
    const el = this.els.notice;
    el.hidden = this.undo === null;
    if (el.hidden) return el.replaceChildren();
    const text = document.createElement("span");
    text.className = "share-notice-text";
    text.textContent = this.note ? this.note(this.t) : this.t.restoredNote;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.testid = "restore-undo";
    button.textContent = this.note ? this.t.fixUndo : this.t.restoreUndo;
    button.addEventListener("click", () => this.undoRestore());
    el.replaceChildren(text, button);
  }
}
