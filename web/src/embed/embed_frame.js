// embed.html: one example of a course page, in compact mode (editor, Run,
// output, a small graph and gradient table that can be expanded). It runs in
// a sandboxed iframe on the playground's origin, made by embed.js on the host
// page, and reports its height to the host so the iframe fits its content.
//
// Python: one runtime shared by all embeds of the page (shared_client.js)
// where SharedWorker exists; else a worker of its own, started on first Run
// only, so a page of embeds never loads several Pythons at once.

import { createEditor } from "../editor/editor.js";
import { HASH_PREFIX, normalizeOptions } from "./embed_options.js";
import { GradsPanel } from "../views/grads_panel.js";
import { GraphView } from "../views/graph_view.js";
import { MIN_FIT } from "../views/pan_zoom.js";
import { STRINGS, defaultLanguage } from "../app/i18n.js";
import { EMBED_STRINGS } from "./i18n_embed.js";
import { registerOffline } from "../offline/offline.js";
import { OutputView } from "../editor/output.js";
import { StopHint } from "../editor/stop_hint.js";
import { PythonClient } from "../runtime/python_client.js";
import { decodeState } from "../share/share.js";
import { SharedPythonClient } from "../runtime/shared_client.js";

const $ = (id) => document.getElementById(id);
const READY_MARK = "playground:python-ready";
const NEXT_PHASE = { runtime: "numpy", numpy: "autograd_py", autograd_py: "ready" };
const framed = window.parent !== window;
const STACK_BELOW = 600; // px of frame width: narrower, the graph and gradients are stacked
// The graph canvas, px: its least and most height, collapsed and expanded ("Show a bigger graph").
const GRAPH_HEIGHT = { collapsed: [120, 360], expanded: [400, 620] };
const GRAPH_ROOM = 46; // px around the nodes: the fit's legend room and a margin

async function readOptions() {
  const hash = location.hash;
  if (!hash.startsWith(HASH_PREFIX)) return { options: normalizeOptions({}), problem: null };
  try {
    return { options: normalizeOptions(await decodeState(hash.slice(HASH_PREFIX.length))), problem: null };
  } catch (err) {
    return { options: normalizeOptions({}), problem: err.message || String(err) };
  }
}

class Embed {
  constructor(options, problem) {
    this.options = options;
    const lang = options.lang || defaultLanguage(navigator.languages || [navigator.language]);
    this.t = { ...STRINGS[lang], ...EMBED_STRINGS[lang] };
    document.documentElement.lang = lang === "zh" ? "zh-Hans" : "en";
    this.python = null;
    this.phase = "runtime"; // what is loading now, for the status text
    this.fatal = null;
    this.output = new OutputView($("output"));
    this.stopHint = new StopHint($("stop-hint"), lang);
    this.editor = createEditor($("editor"), {
      doc: options.code,
      label: this.t.editorLabel,
      readOnly: options.readonly,
      onRun: () => this.run(),
      onChange: () => {},
    });
    if (options.height) $("editor").style.height = `${options.height}px`;
    this.buildViews();
    this.applyStrings();
    if (problem) this.notice(this.t.badEmbed(problem));
    $("run").addEventListener("click", () => this.run());
    $("stop").addEventListener("click", () => this.stop());
    $("expand").addEventListener("click", () => this.toggleExpanded());
    this.renderStatus("idle");
  }

  buildViews() {
    const show = this.options.show;
    $("viz").hidden = !show.length;
    $("expand").hidden = !show.length;
    $("graph").hidden = !show.includes("graph");
    $("grads").hidden = !show.includes("grads");
    this.graph = show.includes("graph")
      ? new GraphView($("graph"), { t: this.t, onSelect: (id) => this.graph.select(id) })
      : null;
    this.grads = show.includes("grads")
      ? new GradsPanel($("grads"), { onSelect: (id) => this.graph && this.graph.select(id) })
      : null;
    if (this.graph) $("graph").append(this.graph.legend); // under the canvas, not over the nodes
    this.layoutViews();
    new ResizeObserver(() => this.layoutViews()).observe(document.body);
  }

  /**
   * Stacks the panels in a narrow frame, and makes the graph's canvas as tall as its nodes need
   * at a scale that fits its width (within GRAPH_HEIGHT), so fit-to-view shows them all.
   */
  layoutViews() {
    const viz = $("viz");
    viz.classList.toggle("stacked", document.body.clientWidth < STACK_BELOW);
    const layout = this.graph && this.graph.layout;
    const [least, most] = GRAPH_HEIGHT[document.body.classList.contains("expanded") ? "expanded" : "collapsed"];
    let height = least;
    if (layout) {
      const width = this.graph.canvas.clientWidth || document.body.clientWidth;
      const scale = Math.max(MIN_FIT, Math.min(1, (width - 16) / layout.width));
      height = Math.round(Math.min(most, Math.max(least, layout.height * scale + GRAPH_ROOM)));
    }
    if (viz.style.getPropertyValue("--graph-h") !== `${height}px`) viz.style.setProperty("--graph-h", `${height}px`);
  }

  applyStrings() {
    const t = this.t;
    document.title = t.embedLabel;
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t[el.dataset.i18n];
    for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t[el.dataset.i18nTitle];
    for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t[el.dataset.i18nLabel]);
    $("output").dataset.empty = t.outputEmpty;
    // Several examples on one page: each names its content (a landmark's name must be unique).
    const name = this.options.title || (this.options.number ? t.exampleNumber(this.options.number) : null);
    if (name) document.querySelector("main").setAttribute("aria-label", name);
    if (this.graph) this.graph.setStrings(t);
    if (this.grads) this.grads.setStrings(t);
  }

  notice(text) {
    $("notice").textContent = text;
    $("notice").hidden = false;
  }

  /** Starts Python: the shared runtime, or (without SharedWorker) a worker of this embed's own. */
  connect() {
    if (this.python) return this.python;
    const hooks = {
      onStatus: (msg) => {
        // For bench/embed_load.py, as on the main page.
        if (msg.type === "status" && msg.phase === "ready" && !performance.getEntriesByName(READY_MARK).length) {
          performance.mark(READY_MARK);
        }
        if (msg.type === "status") this.phase = NEXT_PHASE[msg.phase] || "ready";
        if (msg.type === "fatal") {
          this.fatal = msg;
          this.output.line("error", this.t.loadFailed(msg.phase, msg.message));
        }
      },
      onStream: (stream, text) => {
        this.output.write(stream, text);
        this.stopHint.noteOutput(text.length);
      },
      onState: (state) => this.renderStatus(state),
      onRestarted: (by) => {
        this.phase = "runtime";
        const note = { self: this.t.restarted, died: this.t.workerDied }[by] || this.t.restartedByOther;
        this.output.line("note", note);
        this.showViews({ graph: null, grad_history: {} });
      },
    };
    this.python = typeof SharedWorker === "function"
      ? new SharedPythonClient(hooks)
      : new PythonClient(hooks, { spare: false });
    // The offline copy (offline.js), saved once Python has loaded so it does not slow that down.
    this.python.ready.then(() => registerOffline(), () => {});
    return this.python;
  }

  renderStatus(state) {
    const status = $("status");
    status.dataset.state = state;
    const t = this.t;
    const loading = this.phase === "ready" ? "runtime" : this.phase; // (a restart's new runtime)
    const text = { idle: t.idle, loading: t[`phase_${loading}`] + "…", running: t.running, ready: t.ready,
      error: t.error }[state];
    status.querySelector(".status-text").textContent = text;
    status.title = this.fatal ? this.fatal.message : "";
    $("run").disabled = state === "loading" || state === "running" || state === "error";
    $("stop").disabled = state !== "running";
    this.stopHint.setRunning(state === "running");
  }

  async run() {
    const python = this.connect();
    if (python.state === "running" || python.state === "error") return null;
    this.output.clear();
    this.editor.markError(null);
    await python.ready;
    const result = await python.request("run", this.editor.getCode());
    const error = result.error;
    if (error && error.type === "KeyboardInterrupt") this.output.line("note", "KeyboardInterrupt");
    else if (error && error.type !== "Restarted") {
      this.output.line("error", (error.traceback || `${error.type}: ${error.message}`).replace(/\n$/, ""));
    }
    this.output.flush();
    this.editor.markError(error ? error.lineno : null);
    this.showViews(result);
    return { ok: result.ok, stdout: result.stdout, error };
  }

  async stop() {
    if (this.python) await this.python.stop();
  }

  showViews(result) {
    if (!("graph" in result)) return;
    const graph = result.graph || { nodes: [], edges: [], tensors: [], truncated: null };
    if (this.graph) {
      this.graph.render(graph, { failed: result.failed_node || null, keepView: false });
      this.layoutViews(); // (the canvas's new size refits the graph)
    }
    if (this.grads) this.grads.update(graph.tensors, result.grad_history || {});
  }

  toggleExpanded() {
    const expanded = document.body.classList.toggle("expanded");
    $("expand").setAttribute("aria-expanded", String(expanded));
    $("expand").querySelector("span:last-child").textContent = expanded ? this.t.collapse : this.t.expand;
    this.layoutViews();
    if (this.graph) requestAnimationFrame(() => this.graph.fit());
  }
}

/** Tells the host page how tall the content is, whenever that changes. */
function reportHeight() {
  if (!framed) return;
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    // Only a number goes out, so any host origin may hear it.
    window.parent.postMessage({ type: "autograd-playground:size", height }, "*");
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}

const { options, problem } = await readOptions();
const embed = new Embed(options, problem);
performance.mark("playground:editor-ready");
reportHeight();
// With a shared runtime, loading now costs one Python for the whole page; the
// host only creates this frame once it scrolls into view.
if (typeof SharedWorker === "function") embed.connect();
// Only the page that embeds the example may make it run by itself, never a link.
if (options.autorun && framed) embed.run();

window.playground = Object.freeze({
  run: () => embed.run(),
  getCode: () => embed.editor.getCode(),
  setCode: (text) => embed.editor.setCode(String(text)),
  get ready() {
    return embed.connect().ready;
  },
});
