// The graph at a timeline step, in graph.export's JSON form. As timeline.py
// documents its export, the graph at a step is what is reachable from the
// names bound then: each bound tensor, its grad_fn, and the `next` ids of the
// node rows. A node alive at the run's end has the id graph.export gives it,
// so its drawn row (saved tensors, AccumulateGrad's variable) is reused.

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
  const seen = new Set();
  const queue = [];
  const visit = (id) => {
    if (id && !seen.has(id)) {
      seen.add(id);
      queue.push(id);
    }
  };
  let subset = true;
  for (const [id, { summary, names }] of byTensor) {
    const base = finalIds.get(id);
    if (!base || base.names.join() !== names.join()) subset = false;
    nodes.push(tensorNode(id, summary, names, base, state, indexed));
    if (summary.grad_fn_id) {
      edges.push({ from: id, to: summary.grad_fn_id, kind: "grad_fn", output_nr: 0 });
      visit(summary.grad_fn_id);
    }
  }
  for (let head = 0; head < queue.length; head += 1) {
    const id = queue[head];
    const row = rows.get(id);
    const base = finalIds.get(id);
    if (!base) subset = false;
    if (row) {
      nodes.push(fnNode(row, base, state));
      row.next.forEach((next, index) => {
        if (!next) return;
        edges.push({ from: id, to: next, kind: "next", input_nr: index, output_nr: 0 });
        visit(next);
      });
    } else if (base) {
      nodes.push(base.kind === "grad_fn" ? { ...base, freed: state.freed.has(id) } : base);
      for (const edge of finalEdges.get(id) || []) {
        edges.push(edge);
        if (edge.kind === "next") visit(edge.to);
      }
    }
  }
  const drawn = new Set(nodes.map((node) => node.id));
  const kept = edges.filter((edge) => drawn.has(edge.from) && drawn.has(edge.to));
  return { graph: { nodes, edges: kept, tensors: nodes.filter((n) => n.kind === "tensor"), truncated: null }, subset };
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
