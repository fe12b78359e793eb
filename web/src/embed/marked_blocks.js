// Marked code blocks: an ordinary highlighted listing with the class `autograd`, as
// Markdown generators draw it, becomes a live example. The shapes they emit:
//
//   MkDocs (attr_list + pymdownx)  <div class="autograd highlight"><pre><code>…  (or a linenos table)
//   Python-Markdown fenced_code    <pre><code class="language-python autograd">…
//   Sphinx / MyST  :class:         <div class="autograd highlight-python notranslate"><div class="highlight"><pre>…
//   Quarto / Pandoc {.python .autograd}  <div class="sourceCode"><pre class="sourceCode python autograd"><code>…
//   Hugo {class="autograd"}        <div class="highlight autograd"><pre><code>…  (or a linenos table)
//
// The options come from a first line `# autograd: show=grads autorun readonly height=300 lang=zh`
// (removed from the code; every generator keeps a comment), or from data-* attributes on the
// marked element where the generator can emit them. The listing stays exactly as drawn until the
// live example has drawn itself; printing and readers without JavaScript always get the listing.

import { dedent } from "./embed_options.js";

export const MARK = "autograd";
const OPTIONS_LINE = /^[ \t]*#[ \t]*autograd:(.*)$/;
const OPTION = /([A-Za-z]+)(?:=("[^"]*"|'[^']*'|\S*))?/g;
const FLAGS = ["autorun", "readonly"];
const VALUES = ["show", "height", "lang", "title"];
// Line numbers drawn inside the code: Pygments (linenos), Chroma (ln, lnt), Pandoc's anchors are empty.
const GUTTER = ".linenos, .lineno, .ln, .lnt, .linenodiv, [data-linenos]";
// While an example loads it is hidden and takes no room; the listing shows. When printing,
// the listing always shows and the live example never does. Out of flow while pending: an
// empty block in flow that clips (overflow: hidden) keeps the margins around it from
// collapsing, which moved the listing by a margin as the element went in.
const PAGE_STYLE = `
.autograd-live-source { display: none !important; }
autograd-playground[data-pending] { display: block; position: absolute; left: 0; width: 100%; height: 0; margin: 0; overflow: hidden; visibility: hidden; }
@media print {
  .autograd-live-source { display: revert !important; }
  autograd-playground[data-from-block] { display: none !important; }
}
`;

/** The block to hide for a marked element: a marked <code> stands for its <pre>. */
function blockOf(marked) {
  return marked.localName === "code" ? marked.closest("pre") || marked : marked;
}

/**
 * The code as the reader sees it: the text of the code element, without line-number gutters
 * (a table's number column, or numbers inline in the code) and without highlighting markup.
 */
export function listingText(block) {
  const cells = block.querySelectorAll("td");
  const scope = cells.length ? cells[cells.length - 1] : block; // a linenos table: the code is the last cell
  const code = scope.matches("code") ? scope : scope.querySelector("code") || scope.querySelector("pre") || scope;
  const copy = code.cloneNode(true);
  for (const gutter of copy.querySelectorAll(GUTTER)) gutter.remove();
  // Chroma's inline line numbers without CSS classes are only told apart by being unselectable.
  for (const span of copy.querySelectorAll("span[style*='user-select:none'], span[style*='user-select: none']")) {
    span.remove();
  }
  return copy.textContent;
}

/**
 * Splits a first-line `# autograd: ...` comment off the code.
 * @returns {{code: string, options: object}} options as attribute strings (flags as "")
 */
export function parseOptionsLine(text) {
  const code = dedent(text);
  const lines = code.split("\n");
  const match = lines.length ? lines[0].match(OPTIONS_LINE) : null;
  if (!match) return { code, options: {} };
  const options = {};
  for (const [, key, raw] of match[1].matchAll(OPTION)) {
    const name = key.toLowerCase();
    if (FLAGS.includes(name)) options[name] = "";
    else if (VALUES.includes(name) && raw !== undefined) options[name] = raw.replace(/^(["'])(.*)\1$/, "$2");
  }
  return { code: dedent(lines.slice(1).join("\n")), options };
}

/** Options from data-autorun, data-show, ... on the marked element (the comment line wins). */
function dataOptions(marked) {
  const options = {};
  for (const name of [...FLAGS, ...VALUES]) {
    const value = marked.getAttribute(`data-${name}`);
    if (value === null) continue;
    if (FLAGS.includes(name)) {
      if (value !== "false") options[name] = "";
    } else options[name] = value;
  }
  return options;
}

let styled = false;
function addPageStyle() {
  if (styled) return;
  styled = true;
  // A constructed sheet, not a <style> element: a strict CSP (style-src 'self') allows it.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(PAGE_STYLE);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/**
 * Puts an <autograd-playground> before each marked block not yet upgraded. The element keeps the
 * block as its source: it loads when the block nears the viewport, and hides the block only once
 * its frame has drawn (embed.js).
 * @returns {HTMLElement[]} the elements made
 */
export function upgradeMarkedBlocks(root = document) {
  const made = [];
  for (const marked of root.querySelectorAll(`.${MARK}`)) {
    if (marked.localName === "autograd-playground" || marked.closest("autograd-playground")) continue;
    if (marked.parentElement && marked.parentElement.closest(`.${MARK}`)) continue; // the outer mark counts
    const block = blockOf(marked);
    if (block.dataset.autogradUpgraded) continue;
    block.dataset.autogradUpgraded = "1";
    const { code, options } = parseOptionsLine(listingText(block));
    const element = document.createElement("autograd-playground");
    for (const [name, value] of Object.entries({ ...dataOptions(marked), ...options })) element.setAttribute(name, value);
    element.setAttribute("data-from-block", "");
    element.sourceBlock = block;
    element.sourceCode = code;
    block.before(element);
    made.push(element);
  }
  if (made.length) addPageStyle();
  return made;
}
