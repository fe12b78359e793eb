// The page's side of the worker protocol (see worker.js for the messages).
//
// PythonClient hides which worker is current. Stop interrupts the running code
// through a SharedArrayBuffer when the page is crossOriginIsolated (directly,
// or through the service worker, see isolation.js), so the namespace survives.
// Only where that is impossible, or the interrupt is not heard, it ends the
// worker and starts a fresh one: a second worker is started only then, never
// kept warm, so a tab downloads and runs one Pyodide.
//
// It also watches a worker that dies (worker_handle.js: a Web Lock) or goes
// silent while a request is pending. While no pending request has started,
// the worker's event loop is free and answers pings at once: a worker that
// does not answer for SILENT_MS, or answers without knowing a pending request
// (its result was lost), is restarted, with a note. A started request may run
// as long as it likes: that is what Stop is for.

import { failedResult, readResult } from "./failed_result.js";
import { WorkerHandle } from "./worker_handle.js";

const SIGINT = 2;
const INTERRUPT_GRACE_MS = 1500; // after this, Stop falls back to a restart
const PING_MS = 1000;
const SILENT_MS = 6000;
const NEXT_PHASE = { runtime: "numpy", numpy: "autograd_py" };

export class PythonClient {
  /**
   * @param {object} hooks
   * @param {(msg: object) => void} hooks.onStatus  status and fatal messages of the current worker
   * @param {(stream: string, text: string) => void} hooks.onStream  streamed output
   * @param {(state: string) => void} hooks.onState  "loading" | "ready" | "running" | "error"
   * @param {(why: "died"|"silent") => void} [hooks.onRestarted]  Python was restarted unasked
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, type, quiet}
    this.current = this.spawn();
    this.ping = null; // {ids, sent} of the ping waiting for its pong
    this.watchTimer = null;
    this.readyPromise = null;
    this.resetReadyPromise();
  }

  /** The phase the current worker is loading: runtime, numpy or autograd_py (until ready). */
  get loadingPhase() {
    const last = this.current.phases[this.current.phases.length - 1];
    return last ? NEXT_PHASE[last.phase] || "autograd_py" : "runtime";
  }

  get interruptible() {
    return Boolean(this.current && this.current.interrupt);
  }

  get state() {
    if (this.current.fatal) return "error";
    if (!this.current.ready) return "loading";
    // Quiet requests (a node's details) are quick lookups, not runs: no "Running…" flicker.
    for (const entry of this.pending.values()) if (!entry.quiet) return "running";
    return "ready";
  }

  /** Resolves when the current worker is ready (rejects if it fails to load). */
  get ready() {
    return this.readyPromise;
  }

  resetReadyPromise() {
    this.readyPromise = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.readyPromise.catch(() => {}); // a failed load is reported through onStatus
  }

  spawn() {
    return new WorkerHandle((handle, msg) => this.dispatch(handle, msg));
  }

  dispatch(handle, msg) {
    if (handle !== this.current) return; // a worker ended by restart()
    if (msg.type === "died") {
      this.recover("died");
      return;
    }
    if (msg.type === "pong") {
      this.heard(msg);
      return;
    }
    if (msg.type === "status" || msg.type === "fatal") {
      this.hooks.onStatus(msg);
      if (msg.type === "status" && msg.phase === "ready") {
        this.resolveReady();
        this.watch();
      }
      if (msg.type === "fatal") this.rejectReady(new Error(msg.message));
      this.emitState();
    } else if (msg.type === "result") {
      const entry = this.pending.get(msg.id);
      if (!entry) return;
      this.pending.delete(msg.id);
      entry.resolve(readResult(msg));
      this.emitState();
    } else if (msg.type === "stdout" || msg.type === "stderr" || msg.type === "warning" || msg.type === "echo") {
      this.hooks.onStream(msg.type, msg.text);
    }
  }

  emitState() {
    this.hooks.onState(this.state);
  }

  /** Restarts a worker that died or went silent, and says so. */
  recover(why) {
    this.restart();
    if (this.hooks.onRestarted) this.hooks.onRestarted(why);
  }

  /** Pings the current worker every PING_MS while a request is pending; see the top. */
  watch() {
    if (this.watchTimer !== null) return;
    const tick = () => {
      this.watchTimer = null;
      const handle = this.current;
      if (!handle.ready || !this.pending.size) {
        this.ping = null;
        return;
      }
      if (!this.ping) {
        this.ping = { ids: [...this.pending.keys()], sent: performance.now() };
        handle.post({ type: "ping" });
      } else if (!this.running(handle) && performance.now() - Math.max(this.ping.sent, handle.heardAt) > SILENT_MS) {
        this.recover("silent");
        return;
      }
      this.watchTimer = setTimeout(tick, PING_MS);
    };
    this.watchTimer = setTimeout(tick, PING_MS);
  }

  /** True while a pending request runs in Python (the worker said it started it). */
  running(handle) {
    for (const id of this.pending.keys()) if (handle.started.has(id)) return true;
    return false;
  }

  /** A pong lists the requests the worker holds; results always arrive before it. */
  heard(pong) {
    const ping = this.ping;
    this.ping = null;
    if (!ping) return;
    const known = new Set(pong.ids || []);
    if (ping.ids.some((id) => this.pending.has(id) && !known.has(id))) this.recover("silent");
  }

  /**
   * Sends a request and resolves with the worker's result message.
   * @param {"run"|"eval"|"reset"|"backward"|"jacobian"|"describe"} type
   * @param {string|object} [payload] the code (run, eval) or the request's fields
   * @param {{quiet?: boolean}} [options] quiet: does not count as running
   */
  request(type, payload, { quiet = false } = {}) {
    const id = this.nextId++;
    const promise = new Promise((resolve) => this.pending.set(id, { resolve, type, quiet }));
    const fields = typeof payload === "string" || payload === undefined ? { code: payload } : payload;
    this.current.post({ ...fields, id, type });
    this.emitState();
    if (this.current.ready) this.watch();
    return promise;
  }

  /**
   * Stops whatever is running.
   * @returns {Promise<"idle"|"interrupted"|"restarted">}
   */
  async stop() {
    if (!this.pending.size) return "idle";
    if (this.interruptible && this.current.ready) {
      const handle = this.current;
      handle.interrupt[0] = SIGINT;
      const settled = await this.waitForIdle(INTERRUPT_GRACE_MS);
      if (settled && handle === this.current) return "interrupted";
    }
    this.restart();
    return "restarted";
  }

  waitForIdle(timeoutMs) {
    return new Promise((resolve) => {
      const started = performance.now();
      const poll = () => {
        if (!this.pending.size) resolve(true);
        else if (performance.now() - started > timeoutMs) resolve(false);
        else setTimeout(poll, 20);
      };
      poll();
    });
  }

  /** Terminates the current worker and starts a new one (the only time a second one loads). */
  restart() {
    this.current.terminate();
    this.current = this.spawn();
    this.ping = null;
    this.resetReadyPromise();
    for (const [id, entry] of this.pending) entry.resolve(failedResult(id, "Restarted", "Python was restarted"));
    this.pending.clear();
    this.emitState();
  }
}
