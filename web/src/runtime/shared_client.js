// The embed's side of the shared runtime (shared_worker.js): the same
// interface as PythonClient (state, ready, request, stop), over a port.
//
// All embeds of a page (and of other tabs of the same site) that use the same
// runtime name share one Pyodide. Stop cannot interrupt it, so Stop restarts
// it for everyone: the stopping embed picks a new name, stores it for embeds
// that load later, and tells the others over a BroadcastChannel; each embed
// removes its holder iframe (shared_port.js), which lets the browser end the
// stuck worker, and connects to the new runtime. Code in editors is kept.

import { failedResult, readResult } from "./failed_result.js";
import { DEFAULT_RUNTIME_NAME, storeRuntimeName, storedRuntimeName } from "./runtime_name.js";

const CHANNEL = "autograd-playground:runtime";

export class SharedPythonClient {
  /**
   * @param {object} hooks PythonClient's hooks, plus
   * @param {(by: "self"|"other") => void} hooks.onRestarted the runtime was restarted (by this embed or another)
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, quiet}
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = (event) => {
      const msg = event.data || {};
      if (msg.type === "restart" && msg.name === this.name) this.reconnect("other", msg.next);
    };
    this.onWindowMessage = (event) => this.receivePort(event);
    window.addEventListener("message", this.onWindowMessage);
    window.addEventListener("pagehide", () => this.send({ type: "bye" }));
    this.connect();
  }

  get interruptible() {
    return false;
  }

  get state() {
    if (this.fatal) return "error";
    if (!this.isReady) return "loading";
    for (const entry of this.pending.values()) if (!entry.quiet) return "running";
    return "ready";
  }

  get ready() {
    return this.readyPromise;
  }

  connect(name = null) {
    this.name = name;
    this.port = null;
    this.outbox = [];
    this.isReady = false;
    this.fatal = null;
    this.readyPromise = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.readyPromise.catch(() => {}); // reported through onStatus
    // The first connection uses the holder already in embed.html, which started the runtime
    // while this script loaded; a restart makes a new holder for the new runtime's name.
    const preloaded = name === null && document.getElementById("runtime-holder");
    this.holder = preloaded || document.createElement("iframe");
    if (!preloaded) {
      this.holder.hidden = true;
      this.holder.title = "Python runtime";
      this.holder.src = new URL(`./shared_port.html#${encodeURIComponent(name)}`, location.href).href;
      document.body.append(this.holder);
    }
    this.askForPort();
    this.hooks.onState(this.state);
  }

  /** Asks the holder for its port, now if its document is loaded, else once it is. */
  askForPort() {
    const holder = this.holder;
    const ask = () => holder.contentWindow.postMessage({ type: "autograd-playground:connect" }, location.origin);
    let loaded = false;
    try {
      const doc = holder.contentDocument;
      loaded = doc.readyState === "complete" && doc.location.pathname.endsWith("/shared_port.html");
    } catch {
      loaded = false;
    }
    if (loaded) ask();
    else holder.addEventListener("load", ask, { once: true });
  }

  receivePort(event) {
    if (!this.holder || event.source !== this.holder.contentWindow || event.origin !== location.origin) return;
    const msg = event.data || {};
    if (msg.type === "autograd-playground:port" && event.ports[0]) {
      this.name = msg.name;
      this.port = event.ports[0];
      this.port.onmessage = (e) => this.dispatch(e.data);
      for (const queued of this.outbox) this.port.postMessage(queued);
      this.outbox = [];
    } else if (msg.type === "autograd-playground:port-error") {
      this.dispatch({ type: "fatal", phase: "runtime", message: msg.message });
    }
  }

  dispatch(msg) {
    if (msg.type === "status" || msg.type === "fatal") {
      if (msg.type === "status" && msg.phase === "ready") {
        this.isReady = true;
        this.resolveReady();
      }
      if (msg.type === "fatal") {
        this.fatal = msg;
        this.rejectReady(new Error(msg.message));
      }
      this.hooks.onStatus(msg);
      this.hooks.onState(this.state);
    } else if (msg.type === "result") {
      const entry = this.pending.get(msg.id);
      if (!entry) return;
      this.pending.delete(msg.id);
      entry.resolve(readResult(msg));
      this.hooks.onState(this.state);
    } else if (msg.type === "stdout" || msg.type === "stderr" || msg.type === "warning" || msg.type === "echo") {
      this.hooks.onStream(msg.type, msg.text);
    }
  }

  send(msg) {
    if (this.port) this.port.postMessage(msg);
    else this.outbox.push(msg);
  }

  /** Sends a request; resolves with the runtime's result message (see PythonClient.request). */
  request(type, payload, { quiet = false } = {}) {
    const id = this.nextId++;
    const promise = new Promise((resolve) => this.pending.set(id, { resolve, quiet }));
    const fields = typeof payload === "string" || payload === undefined ? { code: payload } : payload;
    this.send({ ...fields, id, type });
    this.hooks.onState(this.state);
    return promise;
  }

  /**
   * Stops whatever this embed is running or waiting for, by restarting the shared runtime.
   * @returns {Promise<"idle"|"restarted">}
   */
  async stop() {
    if (!this.pending.size) return "idle";
    const stuck = this.name ?? storedRuntimeName(); // (a Stop before the port came: the holder's choice)
    const next = `${DEFAULT_RUNTIME_NAME}:${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    storeRuntimeName(next);
    this.channel.postMessage({ type: "restart", name: stuck, next });
    this.reconnect("self", next);
    return "restarted";
  }

  /** Leaves the current runtime (removing the holder lets the browser end it) for the runtime `next`. */
  reconnect(by, next) {
    if (this.port) this.port.close();
    this.holder.remove();
    for (const [id, entry] of this.pending) entry.resolve(failedResult(id, "Restarted", "Python was restarted"));
    this.pending.clear();
    this.connect(next);
    if (this.hooks.onRestarted) this.hooks.onRestarted(by);
  }
}
