// The Jacobian matrix as a table: one row per output element, one column per
// input element. Rows not computed yet are empty; the row filled last is
// highlighted, and rows filled by the learner's own one-hot backward are
// marked as such.

import { h, num } from "./dom.js";

/** "y[1, 2]" for flat index 5 of a (2, 3) tensor named y; just "y" for a scalar. */
export function indexLabel(name, shape, flat) {
  if (!shape.length) return name;
  const index = [];
  let rest = flat;
  for (let d = shape.length - 1; d >= 0; d -= 1) {
    index.unshift(rest % shape[d]);
    rest = Math.floor(rest / shape[d]);
  }
  return `${name}[${index.join(", ")}]`;
}

/**
 * @param {object} jac the panel's Jacobian state (rows, cols, labels, cells, origin, fresh)
 * @param {object} t strings
 */
export function buildJacobianTable(jac, t) {
  const head = h("tr", {}, h("td", { class: "corner", text: "" }),
    jac.colLabels.map((label) => h("th", { scope: "col", text: `∂${label}` })));
  const rows = jac.cells.map((values, k) => {
    const classes = [];
    if (values) classes.push("filled");
    if (k === jac.fresh) classes.push("fresh");
    if (jac.origin[k] === "backward") classes.push("from-backward");
    const title = jac.origin[k] === "backward" ? t.jRowFromBackward(k) : null;
    return h("tr", { class: classes.join(" "), "data-row": k, title },
      h("th", { scope: "row", text: `∂${jac.rowLabels[k]}` }),
      Array.from({ length: jac.cols }, (_, j) => h("td", {
        class: values && values[j] !== 0 ? "nz" : null,
        text: values ? num(values[j]) : "",
      })));
  });
  const filled = jac.cells.filter(Boolean).length;
  return h("div", { class: "table-wrap jac-wrap" },
    h("table", { class: "jac-table", "data-testid": "jacobian-table", "data-filled": filled },
      h("thead", {}, head), h("tbody", {}, rows)),
    filled ? null : h("p", { class: "muted small", text: t.jEmpty }));
}
