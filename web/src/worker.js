// Module Web Worker: the only owner of Pyodide.
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
//       trace (last backward pass), grad_history, failed_node; see autograd_py/playground.py.
// Requests are queued and answered in order, one at a time.

const VIEW_REQUESTS = new Set(["reset", "backward", "jacobian", "describe"]);
const here = self.location.href;
const started = performance.now();
let session = null; // PyProxy of autograd_py.playground.Session; stays in this worker
let pyodide = null;
let interruptView = null;
const queue = [];
let busy = false;

function status(phase, phaseStart) {
  const now = performance.now();
  self.postMessage({
    type: "status",
    phase,
    ms: Math.round(now - phaseStart),
    total_ms: Math.round(now - started),
  });
  return now;
}

// Called from Python (OutputCapture batches, so this is at most ~20 calls/s).
function emit(stream, text) {
  self.postMessage({ type: stream, text: String(text) });
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function load() {
  let phase = "runtime";
  try {
    let t = performance.now();
    // The wheel downloads while the runtime and NumPy load; only unpacking waits.
    const wheelPromise = fetch(new URL("./build-info.json", here))
      .then((r) => {
        if (!r.ok) throw new Error(`build-info.json: HTTP ${r.status}`);
        return r.json();
      })
      .then((info) => fetchBytes(new URL(info.autograd_py_wheel, here)));
    wheelPromise.catch(() => {}); // reported below, in its own phase
    const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", here).href);
    pyodide = await loadPyodide({
      indexURL: new URL("./pyodide/", here).href,
      // Stray output (outside a session run) goes to the devtools console only.
      stdout: (line) => console.log("[py]", line),
      stderr: (line) => console.warn("[py]", line),
      // No keyboard in a worker: input() sees end-of-file (EOFError), not a crash.
      stdin: () => null,
    });
    if (interruptView) pyodide.setInterruptBuffer(interruptView);
    t = status(phase, t);

    phase = "numpy";
    await pyodide.loadPackage("numpy", { messageCallback: () => {} });
    pyodide.runPython("import numpy"); // counted here, not in the autograd_py phase
    t = status(phase, t);

    phase = "autograd_py";
    const wheel = await wheelPromise;
    pyodide.unpackArchive(wheel, "wheel");
    const playground = pyodide.pyimport("autograd_py.playground");
    session = playground.Session.callKwargs({ on_output: emit });
    playground.destroy();
    t = status(phase, t);

    status("ready", started);
    drain();
  } catch (err) {
    self.postMessage({ type: "fatal", phase, message: String(err && err.message ? err.message : err) });
  }
}

function internalError(id, err) {
  return {
    id,
    type: "result",
    ok: false,
    stdout: "",
    stderr: "",
    error: { type: "InternalError", message: String(err), lineno: null, traceback: String(err) },
    duration_ms: 0,
  };
}

function handle(msg) {
  if (interruptView) interruptView[0] = 0; // a Stop pressed between runs must not hit the next one
  let json;
  if (msg.type === "run") json = session.run_json(String(msg.code));
  else if (msg.type === "eval") json = session.eval_json(String(msg.code));
  else if (VIEW_REQUESTS.has(msg.type)) json = session.request_json(JSON.stringify(msg));
  else throw new Error(`unknown request type ${msg.type}`);
  return { ...JSON.parse(json), id: msg.id, type: "result" };
}

function drain() {
  if (busy || !session) return;
  busy = true;
  try {
    while (queue.length) {
      const msg = queue.shift();
      let reply;
      try {
        reply = handle(msg);
      } catch (err) {
        reply = internalError(msg.id, err);
      }
      self.postMessage(reply);
    }
  } finally {
    busy = false;
  }
}

self.onmessage = (event) => {
  const msg = event.data || {};
  if (msg.type === "interrupt-buffer") {
    interruptView = new Uint8Array(msg.buffer);
    if (pyodide) pyodide.setInterruptBuffer(interruptView);
    return;
  }
  queue.push(msg);
  drain();
};

load();
