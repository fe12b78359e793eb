// Small DOM builders. User data only ever goes in through textContent (or
// attributes set one by one), never through HTML strings, so the page stays
// safe under its Content-Security-Policy whatever the user's code prints.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key === "text") node.textContent = String(value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  return node;
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f, text: "Go"}, ...children). */
export function h(tag, attrs, ...children) {
  return append(apply(document.createElement(tag), attrs), children);
}

/** An SVG element, made with createElementNS. */
export function s(tag, attrs, ...children) {
  return append(apply(document.createElementNS(SVG_NS, tag), attrs), children);
}

/** Replaces an element's children, skipping null/false (replaceChildren would print "null"). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((child) => child != null && child !== false));
  return node;
}

/** A details panel's labelled value: the label, then the value (in code type unless `mono` is false). */
export function field(label, value, { mono = true, testid } = {}) {
  return h("div", { class: "field" }, h("span", { class: "field-label", text: label }),
    h(mono ? "code" : "span", { class: "field-value", text: value, "data-testid": testid }));
}

/** A details panel's labelled block of lines (a tensor's values); `cls` adds a class. */
export function block(label, text, { testid, cls } = {}) {
  return h("div", { class: cls ? `field block ${cls}` : "field block" }, h("span", { class: "field-label", text: label }),
    h("pre", { class: "values", text, "data-testid": testid }));
}

/** Formats a count with thousands separators. */
export function count(n) {
  return Number(n).toLocaleString("en-US");
}

/** "(2, 3)" for a shape list, "()" for a scalar. */
export function shapeText(shape) {
  if (!shape || !shape.length) return "()";
  return `(${shape.join(", ")}${shape.length === 1 ? "," : ""})`;
}

/** A number from the Python side (non-finite ones arrive as strings) as short text. */
export function num(value) {
  if (typeof value === "string") return value;
  if (value == null) return "";
  if (Number.isInteger(value)) return `${value}.`;
  const text = Number(value).toPrecision(4);
  return String(Number(text));
}

// ---- keeping the keyboard's place when a panel is redrawn ----------------------

const lastFocus = new WeakMap(); // panel root -> selector of the control last focused in it
const tracked = new WeakSet();

/** A selector that finds `el` again in a redrawn panel: its test id, cell index, or radio value. */
function focusKey(el) {
  const tag = el.tagName.toLowerCase();
  if (el.dataset.testid) return `${tag}[data-testid="${CSS.escape(el.dataset.testid)}"]`;
  if (el.dataset.index != null) return `${tag}[data-index="${CSS.escape(el.dataset.index)}"]`;
  if (el.name && el.value) return `${tag}[name="${CSS.escape(el.name)}"][value="${CSS.escape(el.value)}"]`;
  return null;
}

function track(root) {
  if (tracked.has(root)) return;
  tracked.add(root);
  root.addEventListener("focusin", (event) => lastFocus.set(root, focusKey(event.target)));
  // A pointer user chose where they are: nothing to give back.
  document.addEventListener("pointerdown", () => lastFocus.delete(root), true);
}

/**
 * Replaces a panel's content, as fill(), and gives the focus back to the control that had it,
 * found again in the new content. Also when the control had lost it meanwhile by being disabled
 * (a request in flight): Enter, Space or a step key can then be pressed again.
 */
export function refill(root, ...children) {
  track(root);
  const active = document.activeElement;
  const inside = active && active !== root && root.contains(active);
  const lost = !active || active === document.body;
  const key = inside ? focusKey(active) : lost ? lastFocus.get(root) : null;
  fill(root, ...children);
  const again = key ? root.querySelector(key) : null;
  if (again && !again.disabled) again.focus({ preventScroll: true });
}
