// dagre's network-simplex ranker, making the same choices on flat arrays.
//
// dagre ranks the layers by network simplex (Gansner et al., "A Technique for Drawing Directed
// Graphs"): longest-path ranks, a spanning tree of tight edges, then pivots that swap a tree
// edge of negative cut value for the least-slack edge across its cut. dagre 3.1.3 recomputes
// every low/lim number, cut value and rank through graphlib's string-keyed maps after each
// pivot: 0.5-0.9 s of its 0.65-1.1 s on one micrograd step (348 nodes, 866 edges with its
// nesting root, 248 pivots), on the page's main thread. This does the same work on integer
// indices and takes the same decisions in the same order: the tight tree grows in the same
// visiting order, the leaving edge is the first tree edge (in the order the tree gained them)
// with a negative cut value, the entering one the first least-slack candidate in the graph's
// edge order. So its ranks are dagre's, and the drawing is the one dagre would make.

/**
 * A dagre `ranker`: sets `rank` on every node label of `g` (the graph dagre hands its ranker:
 * acyclic, connected through dagre's nesting root, edges with `weight` and `minlen`).
 * @param {object} g a graphlib Graph
 */
export function networkSimplexRanks(g) {
  const net = simpleNet(g);
  longestPath(net);
  const tree = feasibleTree(net);
  const cut = hangTree(net, tree, treeNodes(tree)[0]);
  for (let leaving = leaveEdge(tree, cut); leaving >= 0; leaving = leaveEdge(tree, cut)) {
    exchange(net, tree, leaving, enterEdge(net, cut, leaving));
    hangTree(net, tree, cut.root, cut);
    updateRanks(net, cut);
  }
  net.ids.forEach((id, v) => { g.node(id).rank = net.rank[v]; });
}

// dagre's simplify(): one edge per (tail, head) pair, weights summed, the longest minlen, in the
// order the pairs first appear. Nodes and edges become indices in graphlib's own orders.
function simpleNet(g) {
  const ids = g.nodes();
  const index = new Map(ids.map((id, v) => [id, v]));
  const pairs = new Map();
  const net = { ids, tail: [], head: [], weight: [], minlen: [], rank: new Array(ids.length).fill(0) };
  for (const e of g.edges()) {
    const label = g.edge(e);
    const v = index.get(e.v);
    const w = index.get(e.w);
    let k = pairs.get(v * ids.length + w);
    if (k === undefined) {
      k = net.tail.length;
      pairs.set(v * ids.length + w, k);
      net.tail.push(v);
      net.head.push(w);
      net.weight.push(0);
      net.minlen.push(1);
    }
    net.weight[k] += label.weight;
    net.minlen[k] = Math.max(net.minlen[k], label.minlen);
  }
  net.ins = ids.map(() => []);
  net.outs = ids.map(() => []);
  net.tail.forEach((v, k) => {
    net.outs[v].push(k);
    net.ins[net.head[k]].push(k);
  });
  // A node's edges as graphlib's nodeEdges lists them: its in-edges, then its out-edges.
  net.incident = ids.map((_, v) => net.ins[v].concat(net.outs[v]));
  return net;
}

function slack(net, k) {
  return net.rank[net.head[k]] - net.rank[net.tail[k]] - net.minlen[k];
}

// Each node as high as its successors allow: rank = min(successor's rank - minlen), 0 for a sink.
// The result does not depend on the visiting order.
function longestPath(net) {
  const waiting = net.outs.map((out) => out.length);
  const ready = [];
  waiting.forEach((count, v) => { if (!count) ready.push(v); });
  while (ready.length) {
    const v = ready.pop();
    let rank = Infinity;
    for (const k of net.outs[v]) rank = Math.min(rank, net.rank[net.head[k]] - net.minlen[k]);
    net.rank[v] = rank === Infinity ? 0 : rank;
    for (const k of net.ins[v]) if (!--waiting[net.tail[k]]) ready.push(net.tail[k]);
  }
}

// The tree's nodes in graphlib's order, Object.keys of its node table (insertion order, except
// that integer-like ids come first): the first one is the root of dagre's low/lim numbering.
function treeNodes(tree) {
  return Object.keys(tree.members).map((id) => tree.members[id]);
}

function addTreeNode(tree, net, v) {
  tree.members[net.ids[v]] = v;
  tree.has[v] = 1;
  tree.size += 1;
}

function addTreeEdge(tree, net, k) {
  tree.edges.push(k);
  tree.adjacent[net.tail[k]].push(k);
  tree.adjacent[net.head[k]].push(k);
  tree.isTree[k] = 1;
}

function dropTreeEdge(tree, net, k) {
  tree.edges.splice(tree.edges.indexOf(k), 1);
  for (const v of [net.tail[k], net.head[k]]) tree.adjacent[v].splice(tree.adjacent[v].indexOf(k), 1);
  tree.isTree[k] = 0;
}

// dagre's exchangeEdges, whose new tree edge goes last in the tree's edge order.
function exchange(net, tree, leaving, entering) {
  dropTreeEdge(tree, net, leaving);
  addTreeEdge(tree, net, entering);
}

// dagre's feasibleTree: grow a tree of tight edges from the first node; while some node is
// left out, shift the tree's ranks by the least slack of an edge leaving it, and grow again.
function feasibleTree(net) {
  const tree = { members: Object.create(null), has: new Uint8Array(net.ids.length), size: 0, edges: [],
    adjacent: net.ids.map(() => []), isTree: new Uint8Array(net.tail.length) };
  addTreeNode(tree, net, 0);
  while (tightTree(tree, net) < net.ids.length) {
    const k = minSlackEdge(tree, net);
    if (k < 0) break;
    const delta = tree.has[net.tail[k]] ? slack(net, k) : -slack(net, k);
    for (const v of treeNodes(tree)) net.rank[v] += delta;
  }
  return tree;
}

// A depth-first walk from every tree node over tight edges, in graphlib's edge order (kept with
// an explicit stack: a chain of layers would go as deep as the graph has nodes).
function tightTree(tree, net) {
  for (const start of treeNodes(tree)) {
    const stack = [[start, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [v, i] = top;
      if (i === net.incident[v].length) {
        stack.pop();
        continue;
      }
      top[1] = i + 1;
      const k = net.incident[v][i];
      const w = net.tail[k] === v ? net.head[k] : net.tail[k];
      if (!tree.has[w] && !slack(net, k)) {
        addTreeNode(tree, net, w);
        addTreeEdge(tree, net, k);
        stack.push([w, 0]);
      }
    }
  }
  return tree.size;
}

/** The first edge, in graph order, of least slack with one end in the tree; -1 if none. */
function minSlackEdge(tree, net) {
  let best = -1;
  let least = Infinity;
  net.tail.forEach((v, k) => {
    if (tree.has[v] === tree.has[net.head[k]]) return;
    const s = slack(net, k);
    if (s < least) {
      least = s;
      best = k;
    }
  });
  return best;
}

/**
 * The tree hung from `root`: every node's parent and tree edge to it (`up`), low/lim numbers (a
 * node's subtree is the nodes whose lim lies in its [low, lim]), the preorder, and each tree
 * edge's cut value, by edge index. None of it depends on the order the walk takes. `cut`, the
 * last pivot's, is filled again rather than made anew.
 */
function hangTree(net, tree, root, cut = newCut(net, root)) {
  const postorder = walkTree(net, tree, cut);
  for (const child of postorder) if (child !== root) cut.value[cut.up[child]] = cutValue(net, tree, cut, child);
  return cut;
}

function newCut(net, root) {
  const n = net.ids.length;
  return { root, parent: new Int32Array(n), up: new Int32Array(n), low: new Int32Array(n),
    lim: new Int32Array(n), value: new Float64Array(net.tail.length), order: new Int32Array(n),
    postorder: new Int32Array(n), seen: new Uint8Array(n), stack: new Int32Array(n), next: new Int32Array(n) };
}

// Depth first from the root: parents, low/lim, the preorder and the postorder.
function walkTree(net, tree, cut) {
  const { stack, next, seen } = cut;
  seen.fill(0);
  let depth = 0;
  let visited = 0;
  let finished = 0;
  let nextLim = 1;
  const enter = (v) => {
    seen[v] = 1;
    cut.low[v] = nextLim;
    cut.order[visited++] = v;
    stack[depth] = v;
    next[depth++] = 0;
  };
  enter(cut.root);
  while (depth) {
    const v = stack[depth - 1];
    const edges = tree.adjacent[v];
    if (next[depth - 1] === edges.length) {
      cut.lim[v] = nextLim++;
      cut.postorder[finished++] = v;
      depth -= 1;
      continue;
    }
    const k = edges[next[depth - 1]++];
    const w = net.tail[k] === v ? net.head[k] : net.tail[k];
    if (seen[w]) continue;
    cut.parent[w] = v;
    cut.up[w] = k;
    enter(w);
  }
  cut.size = visited;
  return cut.postorder.subarray(0, finished);
}

// dagre's calcCutValue: the weight of edges crossing the cut of (child, parent) tail to head,
// minus those crossing back, from the child's own edges and its children's cut values.
function cutValue(net, tree, cut, child) {
  const parent = cut.parent[child];
  const childIsTail = net.tail[cut.up[child]] === child;
  let value = net.weight[cut.up[child]];
  for (const k of net.incident[child]) {
    const isOut = net.tail[k] === child;
    const other = isOut ? net.head[k] : net.tail[k];
    if (other === parent) continue;
    const pointsToHead = isOut === childIsTail;
    value += pointsToHead ? net.weight[k] : -net.weight[k];
    if (tree.isTree[k]) value += pointsToHead ? -cut.value[k] : cut.value[k];
  }
  return value;
}

/** The first tree edge, in the order the tree gained them, with a negative cut value; -1 if none. */
function leaveEdge(tree, cut) {
  const k = tree.edges.find((edge) => cut.value[edge] < 0);
  return k === undefined ? -1 : k;
}

function isDescendant(cut, v, top) {
  return cut.low[top] <= cut.lim[v] && cut.lim[v] <= cut.lim[top];
}

// dagre's enterEdge: of the edges crossing the leaving edge's cut the other way, the first of
// least slack, in graph order.
function enterEdge(net, cut, leaving) {
  const v = net.tail[leaving];
  const w = net.head[leaving];
  const flip = cut.lim[v] > cut.lim[w];
  const tailSide = flip ? w : v;
  let best = -1;
  net.tail.forEach((tail, k) => {
    if (flip !== isDescendant(cut, tail, tailSide) || flip === isDescendant(cut, net.head[k], tailSide)) return;
    if (best < 0 || slack(net, k) < slack(net, best)) best = k;
  });
  if (best < 0) throw new Error("network simplex: no edge enters the tree"); // as dagre, which fails too
  return best;
}

// Every rank again from the root's down the new tree, each edge tight.
function updateRanks(net, cut) {
  for (const v of cut.order.subarray(1, cut.size)) { // the root keeps its rank
    const k = cut.up[v];
    const parentRank = net.rank[cut.parent[v]];
    net.rank[v] = net.tail[k] === v ? parentRank - net.minlen[k] : parentRank + net.minlen[k];
  }
}
