// Pyodide with autograd_py, inside a worker: loading it in phases and
// answering requests for sessions. Both worker entries use it: worker.js (one
// page, one session) and shared_worker.js (the embeds of a page, one session
// each). No PyProxy ever leaves the worker; requests and replies are JSON.

import { failedResult } from "./failed_result.js";

const VIEW_REQUESTS = new Set(["reset", "backward", "jacobian", "describe", "compare_modes", "inspect", "open_iteration", "flow", "pass"]);

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

export class Runtime {
  /**
   * @param {string} base the worker script's URL; every asset is found relative to it
   * @param {(msg: object) => void} post sends a status or fatal message to every client
   */
  constructor(base, post) {
    this.base = base;
    this.post = post;
    this.started = performance.now();
    this.pyodide = null;
    this.playground = null; // PyProxy of autograd_py.playground (its Session)
    this.interruptView = null;
    this.broken = false; // Pyodide crashed (a fatal error): nothing can run in it any more
  }

  status(phase, phaseStart) {
    const now = performance.now();
    this.post({ type: "status", phase, ms: Math.round(now - phaseStart), total_ms: Math.round(now - this.started) });
    return now;
  }

  /** Loads the runtime, NumPy and autograd_py; resolves true when ready, false after a fatal message. */
  async load() {
    let phase = "runtime";
    try {
      let t = performance.now();
      // The wheel downloads while the runtime loads, and is unpacked while NumPy loads.
      const wheelPromise = fetch(new URL("./build-info.json", this.base))
        .then((r) => {
          if (!r.ok) throw new Error(`build-info.json: HTTP ${r.status}`);
          return r.json();
        })
        .then((info) => fetchBytes(new URL(info.autograd_py_wheel, this.base)));
      wheelPromise.catch(() => {}); // reported below, in its own phase
      const { loadPyodide } = await import(new URL("./pyodide/pyodide.mjs", this.base).href);
      this.pyodide = await loadPyodide({
        indexURL: new URL("./pyodide/", this.base).href,
        // Stray output (outside a session run) goes to the devtools console only.
        stdout: (line) => console.log("[py]", line),
        stderr: (line) => console.warn("[py]", line),
        // No keyboard in a worker: input() sees end-of-file (EOFError), not a crash.
        stdin: () => null,
      });
      if (this.interruptView) this.pyodide.setInterruptBuffer(this.interruptView);
      t = this.status(phase, t);

      phase = "numpy";
      // Most of loading NumPy is compiling its libraries' WebAssembly, off this thread:
      // unpacking the wheel (Python, ~0.1 s) meanwhile hides it.
      const numpy = this.pyodide.loadPackage("numpy", { messageCallback: () => {} });
      let unpackError = null; // reported in its own phase, below
      try {
        this.pyodide.unpackArchive(await wheelPromise, "wheel");
      } catch (err) {
        unpackError = err;
      }
      await numpy;
      this.pyodide.runPython("import numpy"); // counted here, not in the autograd_py phase
      t = this.status(phase, t);

      phase = "autograd_py";
      if (unpackError) throw unpackError;
      this.playground = this.pyodide.pyimport("autograd_py.playground");
      // What is loaded by now lives as long as the page: frozen, full collections no longer walk
      // it; and they come ten times rarer, as each walks what the last run recorded (collector.py).
      this.pyodide.runPython("from autograd_py.playground import collector; collector.settle()");
      t = this.status(phase, t);

      this.status("ready", this.started);
      return true;
    } catch (err) {
      this.post({ type: "fatal", phase, message: String(err && err.message ? err.message : err) });
      return false;
    }
  }

  setInterruptBuffer(view) {
    this.interruptView = view;
    if (this.pyodide) this.pyodide.setInterruptBuffer(view);
  }

  /**
   * A new namespace with its own settings (see autograd_py/playground/globals.py).
   * @param {(stream: string, text: string) => void} emit streamed output, batched by Python
   * @param {object} [options]
   * @param {boolean} [options.timeline] record each run's timeline (the page's time travel; embeds do without)
   */
  newSession(emit, { timeline = false } = {}) {
    return this.playground.Session.callKwargs({ on_output: emit, timeline });
  }

  /** Answers one request of a session with its result message. */
  handle(session, msg) {
    if (this.interruptView) this.interruptView[0] = 0; // a Stop pressed between runs must not hit the next one
    let json;
    try {
      if (msg.type === "run") json = session.run_json(String(msg.code));
      else if (msg.type === "eval") json = session.eval_json(String(msg.code));
      else if (VIEW_REQUESTS.has(msg.type)) json = session.request_json(JSON.stringify(msg));
      else throw new Error(`unknown request type ${msg.type}`);
      return { id: msg.id, type: "result", json: String(json) }; // parsed by the page (readResult)
    } catch (err) {
      if ((err && err.pyodide_fatal_error) || /can no longer be used/.test(String(err))) this.broken = true;
      return failedResult(msg.id, "InternalError", String(err), String(err));
    }
  }
}

/**
 * Runs queued jobs one at a time, in order, once `open()` was called.
 * Python is single-threaded: requests from all clients wait in one line.
 */
export class RequestQueue {
  constructor(run) {
    this.run = run;
    this.jobs = [];
    this.isOpen = false;
    this.busy = false;
  }

  push(job) {
    this.jobs.push(job);
    this.drain();
  }

  open() {
    this.isOpen = true;
    this.drain();
  }

  drain() {
    if (this.busy || !this.isOpen) return;
    this.busy = true;
    while (this.jobs.length) {
      try {
        this.run(this.jobs.shift());
      } catch (err) {
        console.error("request failed", err); // the next request still runs
      }
    }
    this.busy = false;
  }
}
