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
 * @param {object} jac the panel's Jacobian state (rows, cols, labels, cells, origin, fresh;
 *     optionally freshCol: the column filled last, when it fills column by column)
 * @param {object} t strings
 * @param {object} [options] testid: the table's data-testid; filled: what data-filled says
 *     (the number of rows with values, unless given)
 */
export function buildJacobianTable(jac, t, { testid = "jacobian-table", filled = null } = {}) {
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
      Array.from({ length: jac.cols }, (_, j) => {
        const value = values ? values[j] : null;
        const cell = [];
        if (value != null && value !== 0) cell.push("nz");
        if (values && value == null) cell.push("empty");
        if (value != null && j === jac.freshCol) cell.push("fresh-col");
        return h("td", { class: cell.join(" ") || null, text: value == null ? "" : num(value) });
      }));
  });
  const count = filled ?? jac.cells.filter(Boolean).length;
  return h("div", { class: "table-wrap jac-wrap" },
    h("table", { class: "jac-table", "data-testid": testid, "data-filled": count },
      h("thead", {}, head), h("tbody", {}, rows)),
    count ? null : h("p", { class: "muted small", text: t.jEmpty }));
}
