"""The graph views' crossing reduction (web/src/views/graph_order.js) against dagre's own order
phase, in Node: the same order on every node, the dummies of long edges included, and so the same
places for every node and edge, on one micrograd step's graph, a forward-mode lesson's view
(forward_layout.js) and random graphs.

graph_order.js redoes dagre's order phase on arrays (dagre's took 84 ms of a warm layout of a
micrograd step) and promises dagre's drawing by taking dagre's choices in dagre's order; a dagre
upgrade that changes them shows up here.
"""

from layout_parity import check, needs_node

pytestmark = needs_node

# Lays each graph out twice, in place()'s settings and with its ranker (graph_rank.js, or
# longest-path past SIMPLEX_LIMIT nodes): with dagre's order phase and with graph_order.js's. Each
# run keeps the rank and order of every node of the layered graph (dummies by position: their
# names come from a counter dagre shares between layouts) and the places dagre gives the nodes
# and edges. Prints the names of the graphs where anything differs (after
# layout_parity.CASES_JS).
CHECK = """
import { orderLayers } from "./src/views/graph_order.js";
import { networkSimplexRanks } from "./src/views/graph_rank.js";

function places(items, edges, ours, clusters = []) {
  const g = new dagre.graphlib.Graph({ multigraph: true, compound: clusters.length > 0 });
  const ranker = items.length > 450 ? "longest-path" : networkSimplexRanks;
  g.setGraph({ rankdir: "TB", nodesep: 22, ranksep: 30, edgesep: 12, marginx: 20, marginy: 20, ranker });
  for (const item of items) g.setNode(item.id, { width: item.width, height: item.height });
  for (const e of edges) g.setEdge(e.from, e.to, { weight: e.kind === "detached" ? 1 : 2, minlen: 1 }, e.id);
  for (const [child, parent] of clusters) g.setParent(child, parent);
  const layered = [];
  let orderer = "dagre";
  dagre.layout(g, { customOrder: (lg, dagreOrder) => {
    if (ours) orderer = orderLayers(lg, dagreOrder);
    else dagreOrder(lg);
    for (const v of lg.nodes()) layered.push(lg.node(v).dummy ? "" : v, lg.node(v).rank, lg.node(v).order);
  } });
  return { orderer, places: JSON.stringify([layered, items.map((item) => g.node(item.id)),
    edges.map((e) => g.edge({ v: e.from, w: e.to, name: e.id }).points), g.graph().width, g.graph().height]) };
}

let seed = 11;
for (let c = 0; c < 120; c++) cases.push([`random ${c}`, randomGraph(c, true)]);
const orderers = new Set();
const differ = cases.filter(([, { items, edges }]) => {
  const theirs = places(items, edges, false);
  const ours = places(items, edges, true);
  orderers.add(ours.orderer);
  return theirs.places !== ours.places;
}).map(([name]) => name);
// A graph with a cluster goes to dagre's own order, and is drawn as dagre draws it.
const { items, edges } = randomGraph(3, true);
const cluster = [...items.slice(0, 5).map((item) => [item.id, "cluster"]), ["cluster", "outer"]];
items.push({ id: "cluster", width: 10, height: 10 }, { id: "outer", width: 10, height: 10 });
const clustered = [places(items, edges, false, cluster), places(items, edges, true, cluster)];
console.log(JSON.stringify({ cases: cases.length, nodes: laid.nodes.length, orderer: laid.orderer,
  orderers: [...orderers], differ, clustered: [clustered[1].orderer, clustered[0].places === clustered[1].places] }));
"""


def test_graph_order_orders_every_node_as_dagres_order_phase_does(tmp_path, session_run):
    report = check(CHECK, tmp_path, session_run, timeout=300)
    assert report == {"cases": 122, "nodes": 348, "orderer": "graph_order", "orderers": ["graph_order"],
                      "differ": [], "clustered": ["dagre", True]}
