// The graph at a timeline step, in graph.export's JSON form: the names bound
// then (tensor nodes, each to its grad_fn) and the nodes Python says the graph
// shows at that step (timeline_visible.py: `visible`, ranges of stored step
// indices per node id), each with its inputs. Nothing is walked here. A node
// alive at the run's end has the id graph.export gives it, so its drawn row
// (saved tensors, AccumulateGrad's variable) is reused.

import { preview } from "./timeline_state.js";

/**
 * @param {object} state timeline_state.stateAt's answer
 * @param {object} indexed timeline_state.indexTimeline's answer
 * @returns {{graph: object, subset: boolean}} subset: every node is one of the final graph's,
 *     with the same names (the view can hide the others instead of laying out anew)
 */
export function graphAt(state, indexed) {
  const { rows, finalIds, graph: final } = indexed;
  const finalEdges = new Map();
  for (const edge of final.edges) {
    if (!finalEdges.has(edge.from)) finalEdges.set(edge.from, []);
    finalEdges.get(edge.from).push(edge);
  }
  const byTensor = new Map();
  for (const [name, summary] of state.names) {
    const entry = byTensor.get(summary.id) || { summary, names: [] };
    entry.names.push(name);
    byTensor.set(summary.id, entry);
  }
  const nodes = [];
  const edges = [];
  let subset = true;
  for (const [id, { summary, names }] of byTensor) {
    const base = finalIds.get(id);
    if (!base || base.names.join() !== names.join()) subset = false;
    nodes.push(tensorNode(id, summary, names, base, state, indexed));
    if (summary.grad_fn_id) edges.push({ from: id, to: summary.grad_fn_id, kind: "grad_fn", output_nr: 0 });
  }
  for (const id of shownAt(indexed, state.index)) {
    const row = rows.get(id);
    const base = finalIds.get(id);
    if (!base) subset = false;
    if (row) {
      nodes.push(fnNode(row, base, state));
      row.next.forEach((next, index) => {
        if (next) edges.push({ from: id, to: next, kind: "next", input_nr: index, output_nr: 0 });
      });
    } else if (base) {
      nodes.push(base.kind === "grad_fn" ? { ...base, freed: state.freed.has(id) } : base);
      edges.push(...(finalEdges.get(id) || []));
    }
  }
  const drawn = new Set(nodes.map((node) => node.id));
  const kept = edges.filter((edge) => drawn.has(edge.from) && drawn.has(edge.to));
  return { graph: { nodes, edges: kept, tensors: nodes.filter((n) => n.kind === "tensor"), truncated: null }, subset };
}

/**
 * Node ids the graph shows at stored step `index`, as Python found them; past `visible_until`
 * (its walk's budget) the final graph's nodes made by then.
 */
function shownAt(indexed, index) {
  const { visible, visible_until: until } = indexed.timeline;
  const ids = [];
  if (visible && (until == null || index < until)) {
    if (!indexed.visibleList) indexed.visibleList = Object.entries(visible); // once per run, not per move
    for (const [id, ranges] of indexed.visibleList) {
      for (let k = 0; k < ranges.length; k += 2) {
        if (ranges[k] <= index && index <= ranges[k + 1]) {
          ids.push(id);
          break;
        }
      }
    }
    return ids;
  }
  const number = indexed.steps[index].step;
  for (const node of indexed.graph.nodes) {
    const made = indexed.born.get(node.id);
    if (node.kind !== "tensor" && made != null && made <= number) ids.push(node.id);
  }
  return ids;
}

function tensorNode(id, summary, names, base, state, indexed) {
  const grad = state.grads.get(id);
  const made = indexed.born.get(id);
  const step = indexed.steps.find((s) => s.step === made);
  return {
    ...(base || { retains_grad: false, line: step ? step.line : null }),
    kind: "tensor", id, names, shape: summary.shape, dtype: summary.dtype,
    requires_grad: summary.requires_grad, is_leaf: summary.grad_fn == null, grad_fn: summary.grad_fn,
    version: summary.version, value: summary.value ? preview(summary.value) : base ? base.value : { text: "" },
    grad: grad ? preview(grad) : null,
    grad_reason: grad ? null : (base && base.grad_reason) || reasonFor(summary),
  };
}

function reasonFor(summary) {
  if (!summary.requires_grad) return "does not require grad";
  return summary.grad_fn ? "non-leaf, call retain_grad()" : "not computed yet";
}

function fnNode(row, base, state) {
  const saved = state.saved.get(row.id) || {};
  return {
    ...(base || { kind: "grad_fn", hooks: 0, retains_grad: [],
      saved: Object.entries(saved).map(([name, st]) => ({ name, state: st })) }),
    id: row.id, name: row.name, line: row.line, order: row.order,
    freed: state.freed.has(row.id),
  };
}
