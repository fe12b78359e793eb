// Module Web Worker of the playground page: the only owner of its Pyodide.
//
// Protocol (all messages are plain JSON-able objects; no PyProxy ever leaves):
//   page -> worker
//     {type: "interrupt-buffer", buffer: SharedArrayBuffer}  (only when crossOriginIsolated)
//     {id, type: "run",   code}    run the editor buffer in the session namespace
//     {id, type: "eval",  code}    run one console line (an expression's repr is printed)
//     {id, type: "reset"}          forget every user-defined name
//     {id, type: "backward", root, gradient, retain_graph, create_graph, watch}
//                                  run an interactive backward (Python builds and echoes the call)
//     {id, type: "jacobian", output, input}   the Jacobian, one autograd.grad per row
//     {id, type: "describe", node}            a graph node's details (saved tensors, formula)
//   worker -> page
//     {type: "status", phase, ms, total_ms}  phase in runtime | numpy | autograd_py | ready
//     {type: "fatal", phase, message}        loading failed; the worker is unusable
//     {type: "stdout" | "stderr" | "warning" | "echo", text}   streamed, batched by the Python side
//     {id, type: "result", ok, stdout, stderr, error, duration_ms, ...}
//       run/eval/backward/reset results also carry the views' state: graph (graph.export),
//       trace (last backward pass), grad_history, failed_node; see autograd_py/playground/session.py.
// Requests are queued and answered in order, one at a time. shared_worker.js
// speaks the same protocol to each embed of a course page.

import { RequestQueue, Runtime } from "./runtime.js";

const runtime = new Runtime(self.location.href, (msg) => self.postMessage(msg));
let session = null;
const queue = new RequestQueue((msg) => self.postMessage(runtime.handle(session, msg)));

self.onmessage = (event) => {
  const msg = event.data || {};
  if (msg.type === "interrupt-buffer") runtime.setInterruptBuffer(new Uint8Array(msg.buffer));
  else queue.push(msg);
};

runtime.load().then((ready) => {
  if (!ready) return;
  session = runtime.newSession((stream, text) => self.postMessage({ type: stream, text: String(text) }));
  queue.open();
});
