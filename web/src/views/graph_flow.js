// Gradient flow of a selected node, read off the drawn graph's edges (which
// graph.export points the way backward() walks: tensor -> its grad_fn -> the
// next functions -> AccumulateGrad -> leaf). "up" holds every node on a path
// from the node to a root (where its gradient comes from), "down" every node
// its gradient reaches, down to the leaves. A detach() edge carries none.

/**
 * @param {object} graph graph.export's JSON
 * @param {string} id the selected node
 * @returns {{up: Set<string>, down: Set<string>}} both include `id`
 */
export function gradientFlow(graph, id) {
  const forward = new Map();
  const backward = new Map();
  for (const edge of graph.edges) {
    if (edge.kind === "detached") continue;
    if (!forward.has(edge.from)) forward.set(edge.from, []);
    if (!backward.has(edge.to)) backward.set(edge.to, []);
    forward.get(edge.from).push(edge.to);
    backward.get(edge.to).push(edge.from);
  }
  return { up: reach(id, backward), down: reach(id, forward) };
}

function reach(start, adjacency) {
  const seen = new Set([start]);
  const queue = [start];
  for (let head = 0; head < queue.length; head += 1) {
    for (const next of adjacency.get(queue[head]) || []) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}
