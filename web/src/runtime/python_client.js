// The page's side of the worker protocol (see worker.js for the messages).
//
// PythonClient hides which worker is current: Stop either interrupts the
// running code through a SharedArrayBuffer (when the page is
// crossOriginIsolated, so the namespace survives) or terminates the worker
// and switches to a fresh one. Without isolation a spare worker is warmed up
// in the background once the first one is ready, so a restart takes well
// under a second instead of a full Pyodide load.
//
// The page and a worker talk over a private MessageChannel handed over in the
// first message: user code in the worker can post to the worker's own global
// port (`import js; js.postMessage(...)`), and the page does not listen there.
// A worker that dies (e.g. user code calling `js.close()`) releases a Web Lock
// it holds from start-up; the page notices and restarts Python with a note.

import { failedResult } from "./failed_result.js";

const SIGINT = 2;
const INTERRUPT_GRACE_MS = 1500; // after this, Stop falls back to a restart

function uniqueName() {
  const random = self.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
  return `autograd-playground:worker:${random}`;
}

class WorkerHandle {
  constructor(onMessage) {
    this.worker = new Worker(new URL("./worker.js", location.href), { type: "module" });
    this.phases = [];
    this.ready = false;
    this.fatal = null;
    this.interrupt = null;
    this.terminated = false;
    this.onMessage = onMessage;
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.lock = self.navigator && navigator.locks ? uniqueName() : null;
    const connect = { type: "connect", port: channel.port2, lock: this.lock };
    if (typeof SharedArrayBuffer !== "undefined" && self.crossOriginIsolated) {
      this.interrupt = new Uint8Array(new SharedArrayBuffer(1));
      connect.interruptBuffer = this.interrupt.buffer;
    }
    this.worker.postMessage(connect, [channel.port2]);
    this.port.onmessage = (event) => this.receive(event.data || {});
    this.worker.onerror = (event) => {
      event.preventDefault();
      // Only the loading script can fail the worker; later errors come from user code's callbacks.
      if (!this.ready) this.receive({ type: "fatal", phase: "worker", message: event.message || "worker error" });
    };
  }

  /** The worker holds its lock for life: being granted it means the worker is gone. */
  watchForDeath() {
    if (!this.lock) return;
    navigator.locks.request(this.lock, () => {
      if (!this.terminated) this.receive({ type: "died" });
    });
  }

  post(msg) {
    this.port.postMessage(msg);
  }

  receive(msg) {
    if (msg.type === "alive") return this.watchForDeath();
    if (msg.type === "status") {
      this.phases.push(msg);
      if (msg.phase === "ready") this.ready = true;
    } else if (msg.type === "fatal") {
      this.fatal = msg;
    }
    this.onMessage(this, msg);
  }

  terminate() {
    this.terminated = true;
    this.onMessage = () => {};
    this.port.close();
    this.worker.terminate();
  }
}

export class PythonClient {
  /**
   * @param {object} hooks
   * @param {(msg: object) => void} hooks.onStatus  status and fatal messages of the current worker
   * @param {(stream: string, text: string) => void} hooks.onStream  streamed output
   * @param {(state: string) => void} hooks.onState  "loading" | "ready" | "running" | "error"
   * @param {object} [options]
   * @param {boolean} [options.spare] warm a spare worker for fast restarts (false in embeds:
   *     a page of embeds must not hold two Pythons per example)
   */
  constructor(hooks, { spare = true } = {}) {
    this.hooks = hooks;
    this.useSpare = spare;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, type}
    this.spare = null;
    this.current = this.spawn();
    this.readyPromise = null;
    this.resetReadyPromise();
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
    if (msg.type === "died" && handle === this.spare) {
      this.spare = null; // a dead spare is simply not used
      return;
    }
    if (handle !== this.current) {
      // The spare only matters once it is ready; its phases are replayed on switch.
      return;
    }
    if (msg.type === "died") {
      this.restart();
      if (this.hooks.onRestarted) this.hooks.onRestarted("died");
      return;
    }
    if (msg.type === "status" || msg.type === "fatal") {
      this.hooks.onStatus(msg);
      if (msg.type === "status" && msg.phase === "ready") {
        this.resolveReady();
        this.warmSpare();
      }
      if (msg.type === "fatal") this.rejectReady(new Error(msg.message));
      this.emitState();
    } else if (msg.type === "result") {
      const entry = this.pending.get(msg.id);
      if (!entry) return;
      this.pending.delete(msg.id);
      entry.resolve(msg);
      this.emitState();
    } else if (msg.type === "stdout" || msg.type === "stderr" || msg.type === "warning" || msg.type === "echo") {
      this.hooks.onStream(msg.type, msg.text);
    }
  }

  emitState() {
    this.hooks.onState(this.state);
  }

  warmSpare() {
    if (!this.useSpare || this.interruptible || this.spare) return;
    this.spare = this.spawn();
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
    if (this.hooks.onRestarted) this.hooks.onRestarted("self");
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

  /** Terminates the current worker and switches to the spare (or a new one). */
  restart() {
    const old = this.current;
    old.terminate();
    const next = this.spare || this.spawn();
    this.spare = null;
    this.current = next;
    this.resetReadyPromise();
    for (const [id, entry] of this.pending) entry.resolve(failedResult(id, "Restarted", "Python was restarted"));
    this.pending.clear();
    // Replay what the new worker already reported, so the status is right at once.
    for (const msg of next.phases) this.dispatch(next, msg);
    if (next.fatal) this.dispatch(next, next.fatal);
    this.emitState();
  }
}
