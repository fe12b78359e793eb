// The main page's badge for the offline copy (see offline.js): "Works offline"
// once every file is saved, and a Reload button when a newer version waits.

export class OfflineBadge {
  /**
   * @param {HTMLElement} root the badge element (#offline), with a .offline-text and a button inside
   * @param {object} strings the page's strings (i18n.js)
   */
  constructor(root, strings) {
    this.root = root;
    this.text = root.querySelector(".offline-text");
    this.button = root.querySelector("button");
    this.strings = strings;
    this.state = null;
    this.onUpdate = () => {};
    this.button.addEventListener("click", () => {
      this.button.disabled = true;
      this.onUpdate();
    });
  }

  setStrings(strings) {
    this.strings = strings;
    this.show(this.state);
  }

  /** @param {string|null} state one of offline.js's states */
  show(state) {
    this.state = state;
    const t = this.strings;
    // Nothing to say when the browser cannot keep a copy, nor before anything started.
    this.root.hidden = !state || state === "unsupported";
    if (this.root.hidden) return;
    this.root.dataset.state = state;
    this.text.textContent = t[`offline_${state}`];
    this.root.title = t[`offlineTitle_${state}`];
    this.button.textContent = t.offlineReload;
    this.button.hidden = state !== "update";
  }
}
