// The views' state at one step of a run's timeline, folded from the timeline's
// deltas (autograd_py/playground/timeline.py decides what each step changed;
// nothing here knows autograd): the names bound (each with its tensor's value,
// version and grad_fn as recorded then), the saved tensors' states, each
// tensor's .grad. Which nodes the
// graph shows then, and which of them it draws freed, are Python's answers
// (timeline_graph.js; the export's visible and freed_at).

import { num, shapeText } from "./dom.js";

/**
 * Indexes a run's timeline against the graph drawn at its end.
 * @param {object} timeline timeline.export's JSON
 * @param {object} graph graph.export's JSON at the run's end
 */
export function indexTimeline(timeline, graph) {
  const steps = timeline.steps;
  // Steps name their tensor rows and previews by index (timeline_export.export shares them).
  const previews = timeline.previews || [];
  const tensors = (timeline.tensors || []).map((row) => ({ ...row,
    value: row.value == null ? null : previews[row.value], grad: row.grad == null ? null : previews[row.grad] }));
  const tables = { tensors, previews };
  const born = new Map(); // drawn node id -> step number that made it
  for (const row of timeline.nodes) born.set(row.id, row.step);
  for (const step of steps) {
    for (const ref of Object.values(step.vars || NONE)) {
      const summary = ref == null ? null : tensors[ref];
      if (summary && !born.has(summary.id)) born.set(summary.id, step.step);
    }
  }
  for (const node of graph.nodes) {
    // An AccumulateGrad is drawn from when its leaf is.
    if (node.kind === "accumulate" && born.has(node.variable)) born.set(node.id, born.get(node.variable));
  }
  // Every fold restarts from the nearest checkpoint, so a slider move costs at most CHECKPOINT deltas.
  const checkpoints = [];
  let state = emptyState();
  steps.forEach((step, index) => {
    if (index % CHECKPOINT === 0) checkpoints.push(copyState(state));
    state = applyDelta(state, step, tables);
  });
  const rows = new Map(timeline.nodes.map((row) => [row.id, row]));
  return { timeline, graph, steps, tables, born, checkpoints, rows, finalIds: new Map(graph.nodes.map((n) => [n.id, n])) };
}

const CHECKPOINT = 64;

function emptyState() {
  return { grads: new Map(), saved: new Map(), names: new Map() };
}

// A node's saved-tensor states are replaced whole by applyDelta, never changed in place, so a copy
// of the maps is enough (a checkpoint shares them with the states folded from it). Every
// checkpoint and every slider move copies them: a state holds only what the views read.
function copyState(state) {
  return { grads: new Map(state.grads), saved: new Map(state.saved), names: new Map(state.names) };
}

// A step leaves out what it did not change (timeline_export.export).
const NONE = Object.freeze({});

function applyDelta(state, step, { tensors, previews }) {
  for (const [id, grad] of Object.entries(step.grads || NONE)) state.grads.set(id, grad == null ? null : previews[grad]);
  for (const [id, states] of Object.entries(step.saved || NONE)) state.saved.set(id, { ...(state.saved.get(id) || {}), ...states });
  for (const [name, ref] of Object.entries(step.vars || NONE)) {
    const summary = ref == null ? null : tensors[ref];
    if (summary) state.names.set(name, summary);
    else state.names.delete(name);
  }
  return state;
}

/**
 * The state after the stored step at `index` (0-based).
 * @returns {{index: number, step: object, freed: Set<string>, grads: Map, saved: Map, names: Map, last: boolean}}
 */
export function stateAt(index, indexed) {
  const { steps, checkpoints, tables } = indexed;
  const base = Math.floor(index / CHECKPOINT);
  const state = copyState(checkpoints[base]);
  for (let i = base * CHECKPOINT; i <= index; i += 1) applyDelta(state, steps[i], tables);
  const step = steps[index];
  const last = index === steps.length - 1;
  // Python says from which step each node is drawn freed (timeline_export.export's freed_at).
  const freed = new Set();
  for (const [id, at] of Object.entries(indexed.timeline.freed_at || NONE)) if (at <= index) freed.add(id);
  return { index, step, freed, grads: state.grads, saved: state.saved, names: state.names, last };
}

/** `{text, values}` of a timeline value (timeline.small: shape, values, maybe truncated). */
export function preview(small) {
  if (small.text) return small;
  const values = small.values || [];
  const shape = small.shape || [];
  const integral = values.every((v) => typeof v !== "number" || Number.isInteger(v));
  const one = (v) => (typeof v !== "number" ? String(v) : integral ? num(v) : v.toFixed(4));
  if (small.truncated) {
    // The first values, as many as Python keeps (timeline_state.TRUNCATED_VALUES).
    return { values, text: `${shapeText(shape)} [${values.slice(0, 6).map(one).join(", ")}, …] min ${num(small.min)} max ${num(small.max)} mean ${num(small.mean)}` };
  }
  if (!shape.length) return { values, text: values.length ? one(values[0]) : "" };
  return { values, text: nested(values.map(one), shape) };
}

function nested(items, shape) {
  if (shape.length === 1) return `[${items.join(", ")}]`;
  const size = items.length / shape[0];
  const rows = [];
  for (let i = 0; i < shape[0]; i += 1) rows.push(nested(items.slice(i * size, (i + 1) * size), shape.slice(1)));
  return `[${rows.join(",\n ")}]`;
}
