// Share links on the playground page: the "Copy link" button, opening a link
// found in the URL fragment (on load and on hashchange), and the notice that
// reports what happened. The codec itself is share.js.
//
// Opening a link never runs its code, and never loses the user's own code:
// when the link replaces a different draft of the same lesson, that draft is
// kept (in localStorage, so it survives a reload) until the user takes it
// back with "Back to my code".

import { MAX_STATE_BYTES, MAX_TOKEN_CHARS, ShareError, readShareHash, shareHash } from "./share.js";

const KEPT_KEY = "autograd-playground:kept-drafts:v1";
const LANGS = ["en", "zh"];
const FEEDBACK_MS = 2500;

const ERROR_TEXT = {
  malformed: (t) => t.shareMalformed,
  truncated: (t) => t.shareTruncated,
  "too-large": (t) => t.shareTooLarge(MAX_TOKEN_CHARS),
  expands: (t) => t.shareExpands(MAX_STATE_BYTES / 1024),
  unsupported: (t) => t.shareUnsupported,
};

// Kept drafts: {lessonId: {own, shared}}: `own` is the user's code that a
// link replaced, `shared` the code the link put in its place. Storage may be
// unavailable; the page then only keeps them until it is closed.
let keptInMemory = {};

function loadKept() {
  try {
    const value = JSON.parse(localStorage.getItem(KEPT_KEY) || "{}");
    keptInMemory = value && typeof value === "object" ? value : {};
  } catch {
    // unreadable or unavailable: use what this page kept so far
  }
  return keptInMemory;
}

function saveKept(kept) {
  keptInMemory = kept;
  try {
    if (Object.keys(kept).length) localStorage.setItem(KEPT_KEY, JSON.stringify(kept));
    else localStorage.removeItem(KEPT_KEY);
  } catch {
    // quota or privacy mode: kept in memory only
  }
}

function button(text, testid, onClick) {
  const el = document.createElement("button");
  el.type = "button";
  el.textContent = text;
  el.dataset.testid = testid;
  el.addEventListener("click", onClick);
  return el;
}

export class ShareUI {
  /**
   * @param {object} app what the page lets share links see and do:
   *   lessons: [{id, title: {en, zh}}], the first being the default;
   *   state() -> {code, lesson, lang}, what a link holds;
   *   draftFor(id) -> string|null, the user's saved code of a lesson;
   *   openLesson(id), setLanguage(lang), setCode(code).
   * @param {object} strings the UI strings of the current language
   */
  constructor(app, strings) {
    this.app = app;
    this.t = strings;
    this.notice = null; // {kind: "error", reason} | {kind: "opened"|"kept", lesson}
    this.queue = Promise.resolve(); // hashes are opened one after the other
    this.feedbackTimer = 0;
    this.els = {
      button: document.getElementById("copy-link"),
      feedback: document.getElementById("share-feedback"),
      field: document.getElementById("share-link-field"),
      notice: document.getElementById("share-notice"),
    };
    this.els.button.addEventListener("click", () => this.copyLink());
    this.els.field.addEventListener("focus", () => this.els.field.select());
    // Registered after the page's own handler, which has switched the lesson by now.
    document.getElementById("lessons").addEventListener("change", () => this.offerKept());
  }

  /** Opens a link in the current hash, then follows hash changes. */
  start() {
    window.addEventListener("hashchange", () => this.openHash());
    return this.openHash().then((opened) => opened || this.offerKept());
  }

  setStrings(strings) {
    this.t = strings;
    this.renderNotice();
    if (!this.els.field.hidden) this.els.field.setAttribute("aria-label", this.t.copyByHand);
  }

  /** The link to the current code, lesson and language. */
  async link() {
    const url = new URL(location.href);
    url.hash = "";
    return url.href + (await shareHash(this.app.state()));
  }

  // ---- copying ------------------------------------------------------------

  async copyLink() {
    const { field } = this.els;
    let link;
    try {
      link = await this.link();
    } catch (err) {
      if (!(err instanceof ShareError)) throw err;
      field.hidden = true;
      this.showFeedback(this.t.linkTooLong(MAX_TOKEN_CHARS), false);
      return;
    }
    try {
      await navigator.clipboard.writeText(link); // a TypeError when there is no clipboard
      field.hidden = true;
      this.showFeedback(this.t.linkCopied, true);
    } catch {
      // Refused (no permission, no user gesture left) or unavailable: let the user copy it.
      this.showFeedback(this.t.copyByHand, null);
      field.value = link;
      field.setAttribute("aria-label", this.t.copyByHand);
      field.hidden = false;
      field.focus();
      field.select();
    }
  }

  showFeedback(text, ok) {
    const { feedback } = this.els;
    clearTimeout(this.feedbackTimer);
    feedback.textContent = text;
    if (ok === null) delete feedback.dataset.ok;
    else feedback.dataset.ok = String(ok);
    if (ok) this.feedbackTimer = setTimeout(() => (feedback.textContent = ""), FEEDBACK_MS);
  }

  // ---- opening ------------------------------------------------------------

  /** Opens the share in location.hash, if any; resolves to whether there was one. */
  openHash() {
    const hash = location.hash;
    this.queue = this.queue.then(() => this.open(hash));
    return this.queue;
  }

  async open(hash) {
    let state;
    try {
      state = await readShareHash(hash);
      if (state === null) return false; // some other fragment: not ours
      if (typeof state.code !== "string") throw new ShareError("malformed", "the link holds no code");
    } catch (err) {
      if (!(err instanceof ShareError)) console.error("share link:", err);
      this.removeHash();
      this.app.openLesson(this.app.lessons[0].id);
      this.showNotice({ kind: "error", reason: err instanceof ShareError ? err.reason : "malformed" });
      return true;
    }
    this.removeHash();
    const lesson = this.app.lessons.some((l) => l.id === state.lesson) ? state.lesson : this.app.lessons[0].id;
    if (LANGS.includes(state.lang)) this.app.setLanguage(state.lang);
    this.keepOwnDraft(lesson, state.code);
    this.app.openLesson(lesson);
    this.app.setCode(state.code); // saved as the lesson's draft by the page
    this.showNotice({ kind: "opened", lesson });
    return true;
  }

  // A reload must not open the link again over what the user did since.
  removeHash() {
    history.replaceState(history.state, "", location.pathname + location.search);
  }

  keepOwnDraft(lesson, sharedCode) {
    const kept = loadKept();
    const own = this.app.draftFor(lesson);
    const entry = kept[lesson];
    if (entry && own === entry.shared) {
      entry.shared = sharedCode; // the draft was an earlier link's, untouched: the user's code is still entry.own
    } else if (own !== null && own !== sharedCode) {
      kept[lesson] = { own, shared: sharedCode };
    } else {
      return;
    }
    if (kept[lesson].own === sharedCode) delete kept[lesson];
    saveKept(kept);
  }

  /** Shows the "kept" notice when the current lesson has kept code (after a reload or lesson change). */
  offerKept() {
    const lesson = this.app.state().lesson;
    if (this.notice && this.notice.lesson === lesson) return;
    this.showNotice(loadKept()[lesson] ? { kind: "kept", lesson } : null);
  }

  backToMyCode(lesson) {
    const kept = loadKept();
    const entry = kept[lesson];
    delete kept[lesson];
    saveKept(kept);
    this.showNotice(null);
    if (entry && this.app.state().lesson === lesson) this.app.setCode(entry.own);
  }

  // ---- the notice ---------------------------------------------------------

  showNotice(notice) {
    this.notice = notice;
    this.renderNotice();
  }

  renderNotice() {
    const { notice: el } = this.els;
    const notice = this.notice;
    el.hidden = !notice;
    if (!notice) {
      el.replaceChildren();
      return;
    }
    const t = this.t;
    const parts = [];
    if (notice.kind === "error") {
      parts.push(`${ERROR_TEXT[notice.reason](t)} ${t.shareOpenedDefault}`);
    } else {
      const lesson = this.app.lessons.find((l) => l.id === notice.lesson);
      if (notice.kind === "opened") parts.push(t.shareOpened(lesson.title[this.app.state().lang] ?? lesson.title.en));
      if (loadKept()[notice.lesson]) parts.push(notice.kind === "opened" ? t.shareKeptOwn : t.shareKeptNote);
    }
    // Errors interrupt; the rest is news that can wait for a pause.
    el.setAttribute("role", notice.kind === "error" ? "alert" : "status");
    el.dataset.kind = notice.kind;
    if (notice.reason) el.dataset.reason = notice.reason;
    else delete el.dataset.reason;

    const text = document.createElement("span");
    text.className = "share-notice-text";
    text.textContent = parts.join(" ");
    const children = [text];
    if (notice.kind !== "error" && loadKept()[notice.lesson]) {
      children.push(button(t.backToMyCode, "share-back", () => this.backToMyCode(notice.lesson)));
    }
    const close = button("×", "share-dismiss", () => this.showNotice(null));
    close.className = "share-dismiss";
    close.title = t.dismiss;
    close.setAttribute("aria-label", t.dismiss);
    children.push(close);
    el.replaceChildren(...children);
  }
}
