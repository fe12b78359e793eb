// dagre's crossing reduction (its `order` phase), making the same choices on flat arrays.
//
// dagre orders each layer by barycenters (Gansner et al., "A Technique for Drawing Directed
// Graphs"): a depth-first initial order, then sweeps up and down the layers, each layer sorted by
// the mean order of its neighbours in the layer just sorted, keeping the order with the fewest
// crossings (Barth et al.'s bilayer accumulator tree) until four sweeps in a row find none
// fewer. dagre 3.1.3 builds a graphlib graph per layer and walks string-keyed maps for every
// sort, layer matrix and crossing count: 45-85 ms of a warm layout of one micrograd step (348
// nodes, 920 with the dummies that split its edges), 90-190 ms of the first. This does the same
// work on integer indices, in dagre's order: the same depth-first walk, the same sweeps and bias,
// the same ties, the same placing of a reversed edge's dummy next to its twin's, the same best.
// So its orders are dagre's, and the drawing is the one dagre would make.

/**
 * A dagre `customOrder`: sets `order` on every node label of `g` (the layered graph dagre hands
 * its order phase: ranked, every edge between adjacent ranks, long edges split by dummy nodes).
 * A graph with clusters (nodes with children) goes to dagre's own `order` instead. dagre hands a
 * customOrder no earlier layout of the same Graph object (its `useDynamic` tie-breaks), so this is
 * dagre's order for a Graph laid out once, as the views' graphs are.
 * @param {object} g a graphlib Graph
 * @param {function} dagreOrder dagre's own order phase, which dagre passes its customOrder
 * @returns {string} which ran: "graph_order" or "dagre"
 */
export function orderLayers(g, dagreOrder) {
  if (g.children().length !== g.nodeCount()) {
    dagreOrder(g);
    return "dagre";
  }
  const net = layeredNet(g);
  const order = initOrder(net);
  const down = [];
  const up = [];
  for (let r = 1; r <= net.maxRank; r++) down.push(layerGraph(net, r, net.ins));
  for (let r = net.maxRank - 1; r >= 0; r--) up.push(layerGraph(net, r, net.outs));
  const counter = newCounter(net);
  let best = null;
  let bestCount = Infinity;
  for (let i = 0, lastBest = 0; lastBest < 4; ++i, ++lastBest) {
    sweep(net, i % 2 ? down : up, i % 4 >= 2, order);
    const crossings = crossCount(net, order, counter);
    if (crossings < bestCount) {
      lastBest = 0;
      bestCount = crossings;
      best = order.slice();
    } else if (crossings === bestCount) {
      best = order.slice();
    }
  }
  net.ids.forEach((id, v) => { g.node(id).order = best[v]; });
  return "graph_order";
}

// The graph as arrays: nodes in graphlib's order (g.nodes(): integer-like ids first), each node's
// edges in graphlib's order (the order of g.edges(), which its per-node tables keep too), and its
// successors as g.successors lists them (integer-like ids first, then as the pairs were first
// joined).
function layeredNet(g) {
  const ids = g.nodes();
  const index = new Map(ids.map((id, v) => [id, v]));
  const n = ids.length;
  const net = { ids, rank: new Int32Array(n), maxRank: 0, layers: [], ins: [], outs: [], successors: [],
    dummyPair: new Int32Array(n).fill(-1), reversed: new Uint8Array(n) };
  const pairs = new Map();
  ids.forEach((id, v) => {
    const label = g.node(id);
    net.rank[v] = label.rank;
    net.maxRank = Math.max(net.maxRank, label.rank);
    net.ins.push({ nodes: [], weights: [] });
    net.outs.push({ nodes: [], weights: [] });
    net.successors.push(g.successors(id).map((w) => index.get(w)));
    // A long edge's dummies: which (tail, head) pair of nodes they stand for, and whether that edge
    // was turned round to break a cycle (sortSubgraph keeps such twins side by side).
    if (label.dummy === "edge") {
      const key = `${label.edgeObj.v}\u0000${label.edgeObj.w}`;
      if (!pairs.has(key)) pairs.set(key, pairs.size);
      net.dummyPair[v] = pairs.get(key);
      net.reversed[v] = label.edgeLabel.reversed ? 1 : 0;
    }
  });
  for (let r = 0; r <= net.maxRank; r++) net.layers.push([]);
  ids.forEach((_, v) => net.layers[net.rank[v]].push(v));
  for (const e of g.edges()) {
    const weight = g.edge(e).weight;
    const v = index.get(e.v);
    const w = index.get(e.w);
    net.outs[v].nodes.push(w);
    net.outs[v].weights.push(weight);
    net.ins[w].nodes.push(v);
    net.ins[w].weights.push(weight);
  }
  return net;
}

// dagre's initOrder: a depth-first walk from every node, ranks ascending (a stable sort of
// graphlib's order), each node put last in its layer when first reached; on an explicit stack.
function initOrder(net) {
  const order = new Int32Array(net.ids.length);
  const sizes = new Int32Array(net.maxRank + 1);
  const seen = new Uint8Array(net.ids.length);
  const starts = net.ids.map((_, v) => v).sort((a, b) => net.rank[a] - net.rank[b]);
  const visit = (v) => {
    seen[v] = 1;
    order[v] = sizes[net.rank[v]]++;
  };
  for (const start of starts) {
    if (seen[start]) continue;
    visit(start);
    const stack = [[start, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const next = net.successors[top[0]];
      if (top[1] === next.length) {
        stack.pop();
        continue;
      }
      const w = next[top[1]++];
      if (seen[w]) continue;
      visit(w);
      stack.push([w, 0]);
    }
  }
  return order;
}

// dagre's buildLayerGraph for one rank: its nodes (the movable ones, in graphlib's order) and each
// one's neighbours on the side the sweep comes from, in the order they first appear, parallel
// edges as one of their summed weight (none in practice: dagre doubles every edge's minlen, so
// each edge has dummies of its own).
function layerGraph(net, rank, sides) {
  const movable = net.layers[rank];
  const neighbours = movable.map((v) => {
    const { nodes, weights } = sides[v];
    const merged = { nodes: [], weights: [] };
    nodes.forEach((u, k) => {
      const at = merged.nodes.indexOf(u);
      if (at < 0) {
        merged.nodes.push(u);
        merged.weights.push(weights[k]);
      } else {
        merged.weights[at] += weights[k];
      }
    });
    return merged;
  });
  return { movable, neighbours };
}

// dagre's sweepLayerGraphs: each layer sorted in turn, the bias to the right switched after every
// layer that had a tie when `switchBias`.
function sweep(net, layerGraphs, switchBias, order) {
  let biasRight = true;
  for (const layer of layerGraphs) {
    const usedBias = sortLayer(net, layer, order, biasRight);
    if (switchBias && usedBias) biasRight = !biasRight;
  }
}

/**
 * dagre's sortSubgraph for a layer without clusters: sets the layer's nodes' `order`; returns
 * whether two entries had the same barycenter (dagre's usedBias). An entry is a node's index `i`
 * in the layer (its place in graphlib's order), which is also dagre's tie-break.
 */
function sortLayer(net, { movable, neighbours }, order, biasRight) {
  const m = movable.length;
  const barycenter = new Float64Array(m);
  const has = new Uint8Array(m);
  for (let i = 0; i < m; i++) {
    const { nodes, weights } = neighbours[i];
    if (!nodes.length) continue;
    let sum = 0;
    let weight = 0;
    for (let k = 0; k < nodes.length; k++) {
      sum += weights[k] * order[nodes[k]];
      weight += weights[k];
    }
    barycenter[i] = sum / weight;
    has[i] = 1;
  }
  // resolveConflicts, with no constraints (there are none without clusters), hands the entries
  // back last first.
  const entries = [];
  for (let i = m - 1; i >= 0; i--) entries.push(i);
  // Equal barycenters: two dummies of one pair of nodes' edges, where one edge was reversed, are
  // kept next to each other (reversedPairs, in the order dagre fills it); any other tie uses the
  // bias. dagre compares every pair of entries; only those whose barycenter another shares can
  // meet, so the same scan over just them, in the same order, takes the same steps.
  const shared = new Map();
  for (const i of entries) if (barycenter[i]) shared.set(barycenter[i], (shared.get(barycenter[i]) || 0) + 1);
  const tied = entries.filter((i) => barycenter[i] && shared.get(barycenter[i]) > 1);
  const reversedPairs = new Map();
  let usedBias = false;
  const gone = new Uint8Array(m);
  for (let a = 0; a < tied.length; a++) {
    for (let b = a + 1; b < tied.length; b++) {
      const i = tied[a];
      const j = tied[b];
      if (barycenter[i] !== barycenter[j]) continue;
      const vi = movable[i];
      const vj = movable[j];
      if (net.dummyPair[vi] >= 0 && net.dummyPair[vi] === net.dummyPair[vj]) {
        if (net.reversed[vi]) {
          reversedPairs.set(vj, i);
          tied.splice(a, 1);
          gone[i] = 1;
          a--;
          break;
        } else if (!reversedPairs.has(vi)) {
          reversedPairs.set(vi, j);
          tied.splice(b, 1);
          gone[j] = 1;
          b--;
        }
      } else {
        usedBias = true;
      }
    }
  }
  // dagre's sort: the entries with a barycenter by it, ties by index (the higher first when biased
  // right), each reversed twin after its pair, and the ones without a barycenter kept at their
  // own index where they can be.
  const sortable = entries.filter((i) => has[i] && !gone[i]);
  const unsortable = entries.filter((i) => !has[i]).sort((a, b) => b - a);
  sortable.sort((a, b) => {
    if (barycenter[a] < barycenter[b]) return -1;
    if (barycenter[a] > barycenter[b]) return 1;
    return biasRight ? b - a : a - b;
  });
  for (const [key, twin] of reversedPairs) {
    const at = sortable.findIndex((i) => movable[i] === key);
    sortable.splice(at + 1, 0, twin);
  }
  let placed = 0;
  const takeUnsortable = () => {
    while (unsortable.length && unsortable[unsortable.length - 1] <= placed) {
      order[movable[unsortable.pop()]] = placed++;
    }
  };
  takeUnsortable();
  for (const i of sortable) {
    order[movable[i]] = placed++;
    takeUnsortable();
  }
  return usedBias;
}

function newCounter(net) {
  let widest = 1;
  for (const layer of net.layers) widest = Math.max(widest, layer.length);
  let leaves = 1;
  while (leaves < widest) leaves <<= 1;
  return { layer: net.layers.map((layer) => new Int32Array(layer.length)), tree: new Float64Array(2 * leaves - 1),
    pos: [], weight: [] };
}

// dagre's crossCount: for each pair of adjacent layers, the north layer's edges in order (each
// node's by their head's place, a stable sort) counted through an accumulator tree.
function crossCount(net, order, counter) {
  for (let r = 0; r <= net.maxRank; r++) {
    const byOrder = counter.layer[r];
    for (const v of net.layers[r]) byOrder[order[v]] = v;
  }
  let crossings = 0;
  for (let r = 1; r <= net.maxRank; r++) crossings += twoLayerCrossCount(net, order, counter, r);
  return crossings;
}

function twoLayerCrossCount(net, order, counter, south) {
  const { pos, weight, tree } = counter;
  pos.length = 0;
  weight.length = 0;
  for (const v of counter.layer[south - 1]) {
    const { nodes, weights } = net.outs[v];
    const first = pos.length;
    for (let k = 0; k < nodes.length; k++) {
      // insertion sort: stable, and a node has few edges
      const p = order[nodes[k]];
      let at = pos.length;
      while (at > first && pos[at - 1] > p) at--;
      pos.splice(at, 0, p);
      weight.splice(at, 0, weights[k]);
    }
  }
  let firstIndex = 1;
  while (firstIndex < net.layers[south].length) firstIndex <<= 1;
  tree.fill(0, 0, 2 * firstIndex - 1);
  firstIndex -= 1;
  let crossings = 0;
  for (let k = 0; k < pos.length; k++) {
    let index = pos[k] + firstIndex;
    tree[index] += weight[k];
    let weightSum = 0;
    while (index > 0) {
      if (index % 2) weightSum += tree[index + 1];
      index = (index - 1) >> 1;
      tree[index] += weight[k];
    }
    crossings += weight[k] * weightSum;
  }
  return crossings;
}
