// The script a teacher adds to a course page, once:
//
//   <script src="https://example.org/playground/embed.js" async></script>
//   <autograd-playground show="graph,grads">
//   <script type="text/x-python">
//   import torch
//   ...
//   </script>
//   </autograd-playground>
//
// Each <autograd-playground> shows its code as text until it comes near the
// viewport, then becomes a sandboxed iframe of embed.html on the playground's
// own origin (the origin this script came from). The frame reports its height
// and the element follows it. Attributes: height, readonly, autorun, lang,
// show (see README "Embed"). Nothing here touches Python or the frame's DOM.
//
// Marked code blocks (class "autograd", marked_blocks.js) become such elements too: the
// element stays hidden, and the generator's listing stays as drawn, until the frame has drawn.

import { HASH_PREFIX, dedent, normalizeOptions } from "./embed_options.js";
import { encodeState } from "../share/share.js";
import { upgradeMarkedBlocks } from "./marked_blocks.js";

const script = document.currentScript;
const BASE = new URL(".", script ? script.src : location.href).href;
const ORIGIN = new URL(BASE).origin;
const MAX_FRAME_HEIGHT = 4000;
const LOAD_MARGIN = "300px 0px"; // start a little before the example scrolls into view

const STYLE = `
:host { display: block; margin: 1em 0; }
pre { margin: 0; padding: 12px 14px; border: 1px solid #e2e5ea; border-radius: 8px; background: #f8f9fb;
      font: 13px/1.55 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; white-space: pre-wrap; overflow: auto; }
iframe { display: block; width: 100%; border: 0; }
`;

const frames = new Map(); // the frame's window -> its <autograd-playground> element

window.addEventListener("message", (event) => {
  if (event.origin !== ORIGIN) return;
  const element = frames.get(event.source);
  const msg = event.data;
  if (!element || !msg || msg.type !== "autograd-playground:size") return;
  const height = Number(msg.height);
  if (!Number.isFinite(height) || height <= 0) return;
  element.iframe.style.height = `${Math.min(height, MAX_FRAME_HEIGHT)}px`;
  element.reveal();
});

const observer = new IntersectionObserver((entries) => {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    observer.unobserve(entry.target);
    (watched.get(entry.target) || entry.target).load();
  }
}, { rootMargin: LOAD_MARGIN });
// A marked block's element is hidden while it loads: its listing is watched instead.
const watched = new WeakMap(); // the listing -> its element

function sheet() {
  const css = new CSSStyleSheet();
  css.replaceSync(STYLE);
  return css;
}

/** The example's code: a <script type="text/x-python"> child's text, else the element's own text. */
function readCode(element) {
  const block = element.querySelector('script[type="text/x-python"], script[type="text/python"]');
  return dedent(block ? block.textContent : element.textContent);
}

class AutogradPlayground extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return; // moved within the page: keep what is there
    const root = this.attachShadow({ mode: "open" });
    root.adoptedStyleSheets = [sheet()];
    if (this.sourceBlock) {
      // A marked block: the generator's listing is the placeholder, left as drawn.
      this.code = this.sourceCode;
      this.setAttribute("data-pending", "");
      watched.set(this.sourceBlock, this);
      observer.observe(this.sourceBlock);
      return;
    }
    this.code = readCode(this);
    this.placeholder = document.createElement("pre");
    this.placeholder.textContent = this.code; // text only, never HTML
    root.append(this.placeholder);
    observer.observe(this);
  }

  disconnectedCallback() {
    observer.unobserve(this.sourceBlock || this);
    if (this.iframe) frames.delete(this.iframe.contentWindow);
  }

  /** Shows the drawn frame in place of a marked block's listing (once; printing keeps the listing). */
  reveal() {
    if (!this.sourceBlock || !this.hasAttribute("data-pending")) return;
    this.removeAttribute("data-pending");
    this.sourceBlock.classList.add("autograd-live-source");
  }

  /** The options the frame gets, from the attributes. */
  options() {
    return normalizeOptions({
      code: this.code,
      height: this.getAttribute("height"),
      readonly: this.hasAttribute("readonly"),
      autorun: this.hasAttribute("autorun"),
      lang: this.getAttribute("lang"),
      show: this.hasAttribute("show") ? this.getAttribute("show") : undefined,
      title: this.getAttribute("title"),
      number: this.number(),
    });
  }

  /** This example's place among the page's examples, from 1. */
  number() {
    return [...document.querySelectorAll("autograd-playground")].indexOf(this) + 1;
  }

  /** Replaces the code placeholder by the live example. */
  async load() {
    if (this.iframe) return;
    const iframe = document.createElement("iframe");
    this.iframe = iframe;
    // The frame runs on the playground's origin (its storage, its workers) and nothing more:
    // no popups, forms, top navigation or access to this page.
    iframe.setAttribute("sandbox", "allow-scripts allow-same-origin");
    iframe.title = this.getAttribute("title") || `PyTorch autograd example ${this.number()}`;
    const drawn = this.sourceBlock || this.placeholder;
    iframe.style.height = `${drawn.offsetHeight + 160}px`;
    iframe.src = `${BASE}embed.html${HASH_PREFIX}${await encodeState(this.options())}`;
    this.shadowRoot.replaceChildren(iframe);
    frames.set(iframe.contentWindow, this);
  }

  /** The live example's iframe, or null while it is still a placeholder. */
  get frame() {
    return this.iframe || null;
  }
}

// The elements come alive only after the host page's first paint, so the course's own text is
// never held back by the examples (until then the page's CSS shows the code, or a placeholder).
function afterFirstPaint(callback) {
  requestAnimationFrame(() => setTimeout(callback, 0));
}

// With `async` the script may run while the page is still parsed, before an element's code is.
function whenParsed(callback) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", callback, { once: true });
  else callback();
}

if (window.customElements && !customElements.get("autograd-playground")) {
  whenParsed(() => afterFirstPaint(() => {
    customElements.define("autograd-playground", AutogradPlayground);
    upgradeMarkedBlocks();
    // Material for MkDocs' instant navigation swaps pages without loading this script again.
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(() => upgradeMarkedBlocks());
    }
  }));
}
