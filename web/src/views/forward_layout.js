// Layered layout of the forward view's JSON (session result `forward`) with dagre.
//
// Forward mode leaves no graph behind: Python recorded each op as it pushed a tangent, with
// the values and tangents as they were then. Here they become a graph read the way the
// tangents flow: the dual inputs at the top, each op, its output below it. Every tensor node
// shows two cells, its value and its tangent, side by side.

import dagre from "@dagrejs/dagre";
import { shapeText } from "./dom.js";
import { CHAR, PAD_X, clip, textWidth } from "./graph_layout.js";
import { orderLayers } from "./graph_order.js";
import { networkSimplexRanks } from "./graph_rank.js";

const CELL_CHARS = 26; // most characters of a value or tangent drawn in a node (the details have it all)
const CELL_GAP = 8;
export const TENSOR_H = 50;
const OP_H = 44;

/** A value's preview ({text}) as one short line; null (no tangent) as null. */
export function cellText(preview) {
  if (!preview) return null;
  return preview.text.replace(/\s+/g, " ").replace(/\[ /g, "[");
}

/** The texts a forward node shows: {title, sub} for an op, {title, value, tangent} for a tensor. */
export function forwardLines(node, t) {
  if (node.kind === "op") return { title: node.data.label, sub: t.fwRule[node.data.rule] || node.data.rule };
  const data = node.data;
  const name = data.names.length ? data.names.join(", ") : t.fwUnnamed;
  const level = data.level > 0 ? `  ${t.fwLevel(data.level)}` : "";
  return {
    title: `${name}  ${shapeText(data.shape)}${level}`,
    value: clip(cellText(data.value), CELL_CHARS),
    tangent: data.tangent ? clip(cellText(data.tangent), CELL_CHARS) : t.fwNoTangent,
  };
}

function sizeOf(kind, lines) {
  if (kind === "op") {
    const text = Math.max(textWidth(lines.title, CHAR.title), textWidth(lines.sub, CHAR.sub));
    return { width: Math.max(72, Math.round(text + 2 * PAD_X)), height: OP_H };
  }
  // Two cells of one width: the longer text, with the tangent's mark ("ṫ ") and some room.
  const cell = Math.round((Math.max(lines.value.length, lines.tangent.length, 6) + 3.5) * CHAR.sub);
  const width = Math.max(textWidth(lines.title, CHAR.title), 2 * cell + CELL_GAP) + 2 * PAD_X;
  return { width: Math.round(width), height: TENSOR_H, cell, gap: CELL_GAP };
}

/**
 * Lays the forward view out, top to bottom.
 * @param {object} forward {tensors, ops, dropped}
 * @param {object} t the current language's strings
 * @returns {{width, height, nodes: object[], edges: object[]}} as layoutGraph's: nodes
 *   ({id, kind, x, y, width, height, lines, data}) and edges ({id, from, to, kind, points}).
 */
export function layoutForward(forward, t) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  // dagre's network simplex, on arrays (graph_rank.js): the same ranks, a fraction of the time
  g.setGraph({ rankdir: "TB", nodesep: 24, ranksep: 28, edgesep: 12, marginx: 20, marginy: 20,
    ranker: networkSimplexRanks });
  const byId = new Map();
  const add = (id, kind, data) => {
    const item = { id, kind, data };
    item.lines = forwardLines(item, t);
    Object.assign(item, sizeOf(kind, item.lines));
    byId.set(id, item);
    g.setNode(id, { width: item.width, height: item.height });
  };
  for (const tensor of forward.tensors) add(tensor.id, "tensor", tensor);
  for (const op of forward.ops) add(op.id, "op", op);
  const edges = [];
  const edge = (from, to, index) => {
    if (!byId.has(from) || !byId.has(to)) return;
    const id = `fe${edges.length}`;
    edges.push({ id, from, to, kind: "tangent", index });
    g.setEdge(from, to, { weight: 2, minlen: 1 }, id);
  };
  for (const op of forward.ops) {
    op.inputs.forEach((input, index) => { if (input) edge(input, op.id, index); });
    for (const output of op.outputs) edge(op.id, output, null);
  }
  // dagre's crossing reduction, on arrays too (graph_order.js): the same orders
  dagre.layout(g, { customOrder: orderLayers });
  const nodes = [...byId.values()].map((item) => ({ ...item, x: g.node(item.id).x, y: g.node(item.id).y }));
  for (const e of edges) {
    e.points = g.edge({ v: e.from, w: e.to, name: e.id }).points;
    e.normal = { x: 0, y: 0 };
    e.shift = 0;
  }
  const label = g.graph();
  return { width: label.width || 0, height: label.height || 0, nodes, edges };
}
