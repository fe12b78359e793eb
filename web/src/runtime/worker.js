// Module Web Worker of the playground page: the only owner of its Pyodide.
//
// Protocol (all messages are plain JSON-able objects; no PyProxy ever leaves):
//   page -> worker, first and only on the worker's own port:
//     {type: "connect", port: MessagePort, lock: string|null, interruptBuffer?: SharedArrayBuffer}
//       every later message, both ways, goes over `port`, which user code cannot reach (it can
//       only post to the worker's global port, where the page does not listen). The worker
//       holds the Web Lock `lock` for life, so the page learns when it dies.
//   page -> worker, over the port
//     {id, type: "run",   code}    run the editor buffer in the session namespace
//     {id, type: "eval",  code}    run one console line (an expression's repr is printed)
//     {id, type: "reset"}          forget every user-defined name
//     {id, type: "backward", root, gradient, retain_graph, create_graph, watch}
//                                  run an interactive backward (Python builds and echoes the call)
//     {id, type: "jacobian", output, input}   the Jacobian, one autograd.grad per row
//     {id, type: "describe", node}            a graph node's details (saved tensors, formula)
//     {id, type: "compare_modes", function, input}   one Jacobian by JVPs and by VJPs (the modes panel)
//     {id, type: "inspect", name, step}        a variable at a timeline step (the editor's hover)
//     {type: "ping"}               answered at once by a pong (not queued; see python_client.js)
//   worker -> page, over the port
//     {type: "alive"}                        the lock is held; the page may watch it
//     {type: "pong", ids}                    the ids of the requests waiting in the queue
//     {type: "started", id}                  the request's Python code begins to run
//     {type: "status", phase, ms, total_ms}  phase in runtime | numpy | autograd_py | ready
//     {type: "fatal", phase, message}        loading failed; the worker is unusable
//     {type: "stdout" | "stderr" | "warning" | "echo", text}   streamed, batched by the Python side
//     {id, type: "result", json}             Python's answer as JSON text (failed_result.js's
//       readResult makes it {id, type: "result", ok, stdout, stderr, error, duration_ms, ...});
//       run/eval/backward/reset results also carry the views' state: graph (graph.export),
//       trace (last backward pass), grad_history, failed_node; a run's also carries its timeline
//       (steps as deltas, loop groups; autograd_py/playground/timeline.py); see session.py.
// Requests are queued and answered in order, one at a time; every request gets
// a result, even when answering fails. When Pyodide itself crashed, the worker
// ends itself after that result, so the page restarts Python. shared_worker.js
// speaks the same protocol (without ping, pong and started) to each embed of a
// course page.

import { failedResult } from "./failed_result.js";
import { RequestQueue, Runtime } from "./runtime.js";

let port = null; // the page's private channel; module-scoped, so user code never sees it
const early = []; // messages from before the page's port arrived
// Kept from start-up: user code replacing MessagePort.prototype.postMessage cannot mute the worker.
const postMessage = MessagePort.prototype.postMessage;
const apply = Reflect.apply;
const post = (msg) => (port ? apply(postMessage, port, [msg]) : early.push(msg));

const runtime = new Runtime(self.location.href, post);
let session = null;

function answer(msg) {
  post({ type: "started", id: msg.id });
  const reply = runtime.handle(session, msg);
  try {
    post(reply);
  } catch (err) {
    post(failedResult(msg.id, "InternalError", `the result could not be sent: ${err}`));
  }
  if (runtime.broken) self.close(); // its Web Lock is released: the page restarts Python
}

const queue = new RequestQueue(answer);

self.onmessage = (event) => {
  const msg = event.data || {};
  if (port || msg.type !== "connect" || !msg.port) return;
  self.onmessage = null;
  port = msg.port;
  port.onmessage = (e) => {
    const request = e.data || {};
    if (request.type === "ping") post({ type: "pong", ids: queue.jobs.map((job) => job.id) });
    else queue.push(request);
  };
  if (msg.interruptBuffer) runtime.setInterruptBuffer(new Uint8Array(msg.interruptBuffer));
  if (msg.lock && self.navigator && navigator.locks) {
    navigator.locks.request(msg.lock, () => {
      post({ type: "alive" });
      return new Promise(() => {}); // held until the worker ends
    });
  }
  for (const queued of early.splice(0)) port.postMessage(queued);
};

runtime.load().then((ready) => {
  if (!ready) return;
  session = runtime.newSession((stream, text) => post({ type: stream, text: String(text) }), { timeline: true });
  queue.open();
});
