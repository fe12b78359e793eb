"""The graph views' ranker (web/src/views/graph_rank.js) against dagre's own network simplex, in
Node: the same places for every node and edge on one micrograd step's graph, a forward-mode
lesson's view (forward_layout.js) and random graphs.

graph_rank.js redoes dagre's network simplex on arrays (dagre's took 0.6-0.8 s of the first
layout of a micrograd step) and promises dagre's drawing by taking dagre's choices in dagre's
order; a dagre upgrade that changes them shows up here.
"""

from layout_parity import check, needs_node

pytestmark = needs_node

# Lays each graph out twice, with dagre's ranker and with graph_rank.js's, in place()'s settings;
# prints the names of the graphs whose places differ (after layout_parity.CASES_JS).
CHECK = """
import { networkSimplexRanks } from "./src/views/graph_rank.js";

function places(items, edges, ranker) {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 22, ranksep: 30, edgesep: 12, marginx: 20, marginy: 20, ranker });
  for (const item of items) g.setNode(item.id, { width: item.width, height: item.height });
  for (const e of edges) g.setEdge(e.from, e.to, { weight: e.kind === "detached" ? 1 : 2, minlen: 1 }, e.id);
  dagre.layout(g);
  return JSON.stringify([items.map((item) => g.node(item.id)),
    edges.map((e) => g.edge({ v: e.from, w: e.to, name: e.id }).points), g.graph().width, g.graph().height]);
}

let seed = 7;
for (let c = 0; c < 60; c++) cases.push([`random ${c}`, randomGraph(c, false)]);
const differ = cases.filter(([, { items, edges }]) =>
  places(items, edges, "network-simplex") !== places(items, edges, networkSimplexRanks)).map(([name]) => name);
console.log(JSON.stringify({ cases: cases.length, nodes: laid.nodes.length, forward: cases[1][1].items.length, differ }));
"""


def test_graph_rank_places_every_node_where_dagres_network_simplex_does(tmp_path, session_run):
    report = check(CHECK, tmp_path, session_run, timeout=120)
    assert report["forward"] > 10
    assert report == {"cases": 62, "nodes": 348, "forward": report["forward"], "differ": []}
