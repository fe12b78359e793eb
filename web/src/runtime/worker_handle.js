// One playground worker (worker.js) as the page sees it: its private channel,
// what it reported while loading, the Web Lock that tells its death, and the
// ids of the requests it said it started.
//
// The page and a worker talk over a private MessageChannel handed over in the
// first message: user code in the worker can post to the worker's own global
// port (`import js; js.postMessage(...)`), and the page does not listen there.
// A worker that dies (user code calling `js.close()`, or Pyodide crashing, after
// which the worker ends itself) releases the Web Lock it holds from start-up.
// The first handle adopts the worker boot.js started before main.js loaded.

import { BOOT_KEY } from "./boot_key.js";

/** The worker boot.js started early, once: {worker, error}, or null. */
function takeBootWorker() {
  const boot = self[BOOT_KEY];
  if (!boot || !boot.worker) return null;
  const taken = { worker: boot.worker, error: boot.error };
  boot.worker = null;
  return taken;
}

function uniqueName() {
  const random = self.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
  return `autograd-playground:worker:${random}`;
}

export class WorkerHandle {
  /**
   * @param {(handle: WorkerHandle, msg: object) => void} onMessage every message of the worker
   */
  constructor(onMessage) {
    this.worker = null;
    this.phases = [];
    this.ready = false;
    this.fatal = null;
    this.interrupt = null;
    this.terminated = false;
    this.started = new Set(); // request ids the worker began to run
    this.heardAt = 0; // performance.now() of its last message
    this.onMessage = onMessage;
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (event) => this.receive(event.data || {});
    this.lock = self.navigator && navigator.locks ? uniqueName() : null;
    if (typeof SharedArrayBuffer !== "undefined" && self.crossOriginIsolated) {
      this.interrupt = new Uint8Array(new SharedArrayBuffer(1));
    }
    this.start(channel.port2);
  }

  start(port) {
    const early = takeBootWorker();
    if (!early) performance.mark("playground:worker-start");
    this.worker = early ? early.worker : new Worker(new URL("./worker.js", location.href), { type: "module" });
    const connect = { type: "connect", port, lock: this.lock };
    if (this.interrupt) connect.interruptBuffer = this.interrupt.buffer;
    this.worker.postMessage(connect, [port]);
    this.worker.onerror = (event) => {
      event.preventDefault();
      // Only the loading script can fail the worker; later errors come from user code's callbacks.
      if (!this.ready) this.receive({ type: "fatal", phase: "worker", message: event.message || "worker error" });
    };
    if (early && early.error) this.receive({ type: "fatal", phase: "worker", message: early.error });
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
    this.heardAt = performance.now();
    if (msg.type === "alive") return this.watchForDeath();
    if (msg.type === "started") {
      this.started.add(msg.id);
      return;
    }
    if (msg.type === "status") {
      this.phases.push(msg);
      if (msg.phase === "ready") this.ready = true;
    } else if (msg.type === "fatal") {
      this.fatal = msg;
    } else if (msg.type === "result") {
      this.started.delete(msg.id);
    }
    this.onMessage(this, msg);
  }

  terminate() {
    this.terminated = true;
    this.onMessage = () => {};
    this.port.close();
    if (this.worker) this.worker.terminate();
  }
}
