// Gradient flow of a selected node, as Python computed it (autograd_py/playground/graph_reach.py):
// every node of a graph.export JSON marked `reach` carries `reach`, the nodes its gradient
// reaches as a hexadecimal bit set over the order of `nodes`. "down" is the selected node's own
// bits (where its gradient goes, down to the leaves), "up" the nodes whose bits hold it (where its
// gradient comes from, up to the roots). Reading bits only: no walk over the graph here.

/**
 * @param {object} graph graph.export's JSON
 * @param {string} id the selected node
 * @returns {{up: Set<string>, down: Set<string>}|null} both include `id`; null when the graph
 *     carries no reach (a graph the timeline builds for a past step: see flowFromAnswer)
 */
export function gradientFlow(graph, id) {
  if (!graph.reach) return null;
  const nodes = graph.nodes;
  const at = nodes.findIndex((node) => node.id === id);
  if (at < 0 || nodes[at].reach == null) return null;
  const own = nodes[at].reach;
  const up = new Set();
  const down = new Set();
  nodes.forEach((node, i) => {
    if (hasBit(own, i)) down.add(node.id);
    if (node.reach != null && hasBit(node.reach, at)) up.add(node.id);
  });
  return { up, down };
}

/** The flow in Python's answer to a `flow` request (id lists), or null. */
export function flowFromAnswer(answer) {
  return answer && answer.ok ? { up: new Set(answer.up), down: new Set(answer.down) } : null;
}

function hasBit(hex, i) {
  const digit = hex.length - 1 - (i >> 2);
  return digit >= 0 && ((parseInt(hex[digit], 16) >> (i & 3)) & 1) === 1;
}
