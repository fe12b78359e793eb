// The options of one embedded example, as the host page's <autograd-playground>
// element states them and embed.html reads them back from its URL hash.
// Both sides validate: whatever the hash says, the frame only gets these fields.

export const HASH_PREFIX = "#embed=";
export const PANELS = ["graph", "grads"];
const MIN_HEIGHT = 60;
const MAX_HEIGHT = 2000;
const MAX_TITLE = 200;

/**
 * Normalizes raw options (attribute strings, or decoded JSON).
 * @param {object} raw {code, height, readonly, autorun, lang, show, title, number}
 * @returns {{code: string, height: number|null, readonly: boolean, autorun: boolean,
 *            lang: "en"|"zh"|null, show: string[], title: string|null, number: number|null}}
 *   title is the author's name for the example, number its place on the page (from 1): the frame
 *   names its content by them, as a page of several examples needs distinct names.
 */
export function normalizeOptions(raw) {
  const height = Number.parseInt(raw.height, 10);
  const number = Number.parseInt(raw.number, 10);
  const title = typeof raw.title === "string" ? raw.title.trim().slice(0, MAX_TITLE) : "";
  let show = raw.show;
  if (typeof show === "string") show = show.split(/[\s,]+/);
  if (!Array.isArray(show)) show = PANELS;
  return {
    code: typeof raw.code === "string" ? raw.code : "",
    height: Number.isFinite(height) ? Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, height)) : null,
    readonly: raw.readonly === true,
    autorun: raw.autorun === true,
    lang: raw.lang === "en" || raw.lang === "zh" ? raw.lang : null,
    show: PANELS.filter((panel) => show.includes(panel)),
    title: title || null,
    number: Number.isFinite(number) && number >= 1 ? number : null,
  };
}

/**
 * Strips the indentation common to all non-blank lines, and blank lines at
 * the start and end: code pasted inside indented HTML or Markdown stays valid Python.
 */
export function dedent(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const indents = lines.filter((line) => line.trim()).map((line) => line.match(/^[ \t]*/)[0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut)).join("\n");
}
