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
