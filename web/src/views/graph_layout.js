// Layered layout of the autograd graph JSON (graph.export) with dagre.
//
// The export's edges point the way backward() walks (output -> inputs). The
// view draws them the way data flows forward, like torchviz: leaves and
// their AccumulateGrad nodes at the top, the output at the bottom, so every
// edge is reversed here. Backward runs against the arrows.

import dagre from "@dagrejs/dagre";
import { count, shapeText } from "./dom.js";
import { orderLayers } from "./graph_order.js";
import { networkSimplexRanks } from "./graph_rank.js";

export const CHAR = { title: 7.4, sub: 6.5 }; // monospace advance at the view's font sizes
export const PAD_X = 12;
const MAX_CHARS = 30;
const LINE_H = { one: 30, two: 44 };
const DUPLICATE_GAP = 12; // px between parallel edges (x * x has two)
// network-simplex gives the tidiest ranks; beyond this many nodes the
// cheaper longest-path ranker keeps a large graph's layout fast.
const SIMPLEX_LIMIT = 450;

const WIDE = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

/** Width in px of `text` at a monospace `advance`: a CJK or full-width glyph is about 1.75 of one. */
export function textWidth(text, advance) {
  let width = 0;
  for (const char of text) width += WIDE.test(char) ? advance * 1.75 : advance;
  return width;
}

export function clip(text, most = MAX_CHARS) {
  return text.length > most ? `${text.slice(0, most - 1)}…` : text;
}

function dtypeText(dtype) {
  return dtype && dtype !== "torch.float32" ? ` ${dtype.replace("torch.", "")}` : "";
}

/** The one or two text lines a node shows. */
export function nodeLines(node, t) {
  switch (node.kind) {
    case "tensor":
      return [node.names.join(", "), `${shapeText(node.shape)}${dtypeText(node.dtype)}`];
    case "grad_fn": {
      // A freed node shows graphFreedShort instead (see freedLine); the step-through may
      // show it alive again while replaying the steps before it was freed.
      const saved = (node.saved || []).map((entry) => entry.name);
      return saved.length ? [node.name, `${t.graphSaves} ${saved.join(", ")}`] : [node.name];
    }
    case "accumulate":
      return ["AccumulateGrad"];
    case "collapsed": {
      const ops = Object.entries(node.ops || {}).map(([name, n]) => `${name} ×${count(n)}`);
      return [t.graphCollapsed(count(node.count)), ops.join(", ")];
    }
    case "cut":
      return [node.count != null ? t.graphCut(count(node.count)) : node.name];
    default:
      return [node.name || node.id];
  }
}

function nodeSize(lines) {
  const [title, sub] = lines.map((line) => clip(line));
  const width = Math.max(textWidth(title, CHAR.title), textWidth(sub || "", CHAR.sub)) + 2 * PAD_X;
  return { width: Math.max(64, Math.round(width)), height: sub ? LINE_H.two : LINE_H.one };
}

/**
 * Lays the graph out.
 * @param {object} graph the JSON of graph.export
 * @param {object} t the current language's strings (node texts)
 * @returns {{width, height, nodes: object[], edges: object[], reused: boolean, ranker: string, orderer: string}}
 *   positioned nodes ({id, x, y, width, height, lines, data}; x/y are centres) and
 *   edges ({id, from, to, kind, data, points}) in forward direction; `reused`: placed as the
 *   last graph of the same shape was (see `place`); `ranker`: how its layers were ranked;
 *   `orderer`: how the nodes of each layer were ordered.
 */
export function layoutGraph(graph, t) {
  const byId = new Map();
  for (const node of graph.nodes) {
    const lines = nodeLines(node, t).map((line) => clip(line));
    const freedLine = node.kind === "grad_fn" && node.freed ? t.graphFreedShort : null;
    const size = nodeSize(freedLine && lines.length === 1 ? [...lines, freedLine] : lines);
    if (freedLine) size.width = Math.max(size.width, nodeSize([lines[0], freedLine]).width);
    byId.set(node.id, { id: node.id, lines, freedLine, data: node, ...size });
  }
  const edges = [];
  const pairs = new Map();
  graph.edges.forEach((edge, index) => {
    if (!byId.has(edge.from) || !byId.has(edge.to)) return;
    // Forward direction: what the edge's target was computed from comes first.
    const from = edge.to;
    const to = edge.from;
    const id = `e${index}`;
    const key = `${from}\u0000${to}`;
    const siblings = pairs.get(key) || [];
    siblings.push(id);
    pairs.set(key, siblings);
    edges.push({ id, from, to, kind: edge.kind, data: edge });
  });
  const items = [...byId.values()];
  const placed = place(items, edges);

  const nodes = items.map((item, i) => ({ ...item, x: placed.nodes[i].x, y: placed.nodes[i].y }));
  edges.forEach((edge, e) => {
    const siblings = pairs.get(`${edge.from}\u0000${edge.to}`);
    const shift = (siblings.indexOf(edge.id) - (siblings.length - 1) / 2) * DUPLICATE_GAP;
    // Parallel edges (x * x) bow apart in the middle, across the edge's direction, so both
    // are plainly visible.
    const pts = placed.edges[e];
    const last = pts.length - 1;
    const dx = pts[last].x - pts[0].x;
    const dy = pts[last].y - pts[0].y;
    const len = Math.hypot(dx, dy) || 1;
    edge.normal = { x: -dy / len, y: dx / len };
    edge.points = pts.map((p, i) => {
      const bow = shift * (0.6 + 1.6 * Math.sin((Math.PI * i) / last));
      return { x: p.x + edge.normal.x * bow, y: p.y + edge.normal.y * bow };
    });
    edge.shift = shift;
    edge.parallel = siblings.length;
  });
  return { width: placed.width, height: placed.height, nodes, edges, reused: placed.reused, ranker: placed.ranker,
    orderer: placed.orderer };
}

// The last graph dagre placed, by shape: the nodes' sizes in order, the edges between their
// indices. A graph of the same shape (the same code run again with another learning rate, or
// another print) gets those places without dagre, which takes 0.2 s on one step of a micrograd
// MLP (350 nodes); dagre is deterministic, so the drawing is the one it would make.
let lastPlaced = null;

/**
 * dagre's centres for `items` (node sizes, in order) and its points for `edges`, by index.
 * @returns {{nodes: {x, y}[], edges: {x, y}[][], width, height, reused: boolean, ranker: string, orderer: string}}
 *   `reused`: the last graph's places, the same shape; `ranker`: "graph_rank" (graph_rank.js's network
 *   simplex) or, past SIMPLEX_LIMIT nodes, dagre's "longest-path"; `orderer`: "graph_order"
 *   (graph_order.js's crossing reduction) or, for a graph with clusters, "dagre"
 */
function place(items, edges) {
  const big = items.length > SIMPLEX_LIMIT;
  const index = new Map(items.map((item, i) => [item.id, i]));
  const shape = [...items.map((item) => `${item.width}x${item.height}`),
    ...edges.map((edge) => `${index.get(edge.from)}>${index.get(edge.to)}${edge.kind === "detached" ? "d" : ""}`)]
    .join(",");
  if (lastPlaced && lastPlaced.shape === shape) return { ...lastPlaced, reused: true };
  // dagre's network simplex, on arrays: the same ranks, 0.5-0.9 s less on micrograd's graph.
  const [rankerName, ranker] = big ? ["longest-path", "longest-path"] : ["graph_rank", networkSimplexRanks];
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({
    rankdir: "TB",
    nodesep: 22,
    ranksep: 30,
    edgesep: 12,
    marginx: 20,
    marginy: 20,
    ranker,
  });
  for (const item of items) g.setNode(item.id, { width: item.width, height: item.height });
  for (const edge of edges) {
    g.setEdge(edge.from, edge.to, { weight: edge.kind === "detached" ? 1 : 2, minlen: 1 }, edge.id);
  }
  // dagre's crossing reduction, on arrays: the same orders, in a fraction of the time
  let orderer = null;
  dagre.layout(g, { customOrder: (layered, dagreOrder) => { orderer = orderLayers(layered, dagreOrder); } });
  const label = g.graph();
  lastPlaced = {
    shape,
    nodes: items.map((item) => { const { x, y } = g.node(item.id); return { x, y }; }),
    edges: edges.map((edge) => g.edge({ v: edge.from, w: edge.to, name: edge.id }).points),
    width: label.width || 0,
    height: label.height || 0,
    ranker: rankerName,
    orderer,
  };
  return { ...lastPlaced, reused: false };
}

/** SVG path data for a smooth curve through points (a uniform B-spline, like d3's curveBasis). */
export function curvePath(points) {
  const fmt = (v) => Math.round(v * 10) / 10;
  if (points.length < 3) return points.map((p, i) => `${i ? "L" : "M"}${fmt(p.x)},${fmt(p.y)}`).join("");
  let d = `M${fmt(points[0].x)},${fmt(points[0].y)}`;
  let [x0, y0, x1, y1] = [points[0].x, points[0].y, points[0].x, points[0].y];
  const bezier = (x, y) => {
    d += `C${fmt((2 * x0 + x1) / 3)},${fmt((2 * y0 + y1) / 3)} ${fmt((x0 + 2 * x1) / 3)},${fmt((y0 + 2 * y1) / 3)} `
      + `${fmt((x0 + 4 * x1 + x) / 6)},${fmt((y0 + 4 * y1 + y) / 6)}`;
  };
  points.slice(1).forEach((p, i) => {
    if (i === 0) {
      [x1, y1] = [p.x, p.y];
      return;
    }
    if (i === 1) d += `L${fmt((5 * x0 + x1) / 6)},${fmt((5 * y0 + y1) / 6)}`;
    bezier(p.x, p.y);
    [x0, y0, x1, y1] = [x1, y1, p.x, p.y];
  });
  bezier(x1, y1);
  d += `L${fmt(x1)},${fmt(y1)}`;
  return d;
}
