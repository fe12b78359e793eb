// Page entry: wires the editor, the output console, the lesson picker, the
// language switch and the Python worker together.
//
// window.playground — a small stable API for tests and embedding pages:
//   playground.setCode(str)  replaces the editor's content (saved like typed text)
//   playground.getCode()     -> str, the editor's content
//   playground.run()         -> Promise<{ok, stdout, error}>: runs the editor once
//                               Python is ready; stdout is the captured (capped)
//                               output, error is null or {type, message, lineno, traceback}
//   playground.ready         -> Promise resolved when Python is ready (the current
//                               worker's: after a restart, the new one's)
//   playground.shareLink()   -> Promise<str>: a link to this page holding the editor's
//                               code, the lesson and the language (see share.js)

import { createEditor } from "../editor/editor.js";
import { LANGUAGES, STRINGS, defaultLanguage } from "./i18n.js";
import { LESSONS, isLessonCode, lessonById, lessonCode } from "./lessons.js";
import { registerOffline } from "../offline/offline.js";
import { OfflineBadge } from "../offline/offline_badge.js";
import { OutputView } from "../editor/output.js";
import { StopHint } from "../editor/stop_hint.js";
import { timelineMarks } from "../editor/timeline_marks.js";
import { LiveMode } from "../editor/live_mode.js";
import { PythonClient } from "../runtime/python_client.js";
import { ShareUI } from "../share/share_ui.js";
import { RestoreOriginal } from "./restore.js";
import { fillLessonPicker, showExplanation } from "./lesson_panel.js";
import { fixForComment } from "./fix_line.js";
import { wireConsoleInput } from "./console_input.js";
import { loadSettings, saveSettings } from "./storage.js";
import { Views } from "../views/views.js";

// Python is already loading: boot.js started its worker (or reloaded a first visit for
// isolation) before this script was parsed; the PythonClient below adopts that worker.
const $ = (id) => document.getElementById(id);
const settings = loadSettings({
  lang: defaultLanguage(navigator.languages || [navigator.language]),
  lesson: LESSONS[0].id,
});
if (!lessonById(settings.lesson)) settings.lesson = LESSONS[0].id;
let t = STRINGS[settings.lang] || STRINGS.en;

const output = new OutputView($("output"));
const stopHint = new StopHint($("stop-hint"), settings.lang);
const statusEl = $("status");
const offlineBadge = new OfflineBadge($("offline"), t);
const phaseTimes = {};
const PHASES = ["runtime", "numpy", "autograd_py"];
let fatal = null;
let restore = null; // "Original code" and its undo offer (restore.js)

// ---- editor and lessons -------------------------------------------------

function currentLesson() {
  return lessonById(settings.lesson);
}

/** The current lesson's code, commented in the page's language. */
function lessonText() {
  return lessonCode(currentLesson(), settings.lang);
}

// Time travel's marks in the editor: the step's line, linked lines, gutter, cursor and hover (views/timeline.js).
const marks = timelineMarks({
  onCursorLine: (line) => views && views.timeline.cursorLine(line),
  inspect: (name) => (views ? views.timeline.inspect(name) : null),
});
const editor = createEditor($("editor"), {
  extensions: marks.extensions,
  doc: settings.drafts[settings.lesson] ?? lessonText(),
  label: t.editorLabel,
  onRun: () => runEditor(),
  onChange(code) {
    if (restore && !isLessonCode(currentLesson(), code)) restore.hide(); // edited: the undo offer is over
    if (isLessonCode(currentLesson(), code)) delete settings.drafts[settings.lesson];
    else settings.drafts[settings.lesson] = code;
    saveSettings(settings);
    if (live) live.edited();
  },
});

performance.mark("playground:editor-ready"); // read by bench/web_load.py

function showLesson() {
  showExplanation(currentLesson(), settings.lang, { title: $("lesson-title"), text: $("lesson-text") });
}

function selectLesson(id) {
  if (!lessonById(id) || id === settings.lesson) return;
  settings.lesson = id;
  saveSettings(settings);
  editor.setCode(settings.drafts[id] ?? lessonText());
  editor.markError(null);
  showLesson();
  restore.hide();
  startClean();
}

/** A new lesson starts clean: no output, no views and no variables of the last one. */
function startClean() {
  output.clear();
  lastRun = null;
  showRunInfo();
  views.showResult({ graph: null, trace: null, grad_history: {}, reset: true });
  // Quiet: it is not a run, and a Run pressed right after is queued behind it.
  if (!fatal) python.request("reset", undefined, { quiet: true });
}

// ---- language -----------------------------------------------------------

function applyLanguage(lang) {
  // The lesson's comments follow the language, unless the learner has edited its code.
  const untouched = isLessonCode(currentLesson(), editor.getCode());
  settings.lang = STRINGS[lang] ? lang : "en";
  if (untouched && editor.getCode() !== lessonText()) {
    const marked = editor.errorLine(); // the same code, so a marked error line still holds
    editor.setCode(lessonText());
    editor.markError(marked);
  }
  t = STRINGS[settings.lang];
  saveSettings(settings);
  document.documentElement.lang = settings.lang === "zh" ? "zh-Hans" : "en";
  document.title = t.title;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t[el.dataset.i18n];
  for (const el of document.querySelectorAll("[data-i18n-title]")) el.title = t[el.dataset.i18nTitle];
  $("console-input").placeholder = t.consolePlaceholder;
  $("console-input").setAttribute("aria-label", t.consoleLabel);
  editor.setLabel(t.editorLabel);
  offlineBadge.setStrings(t);
  stopHint.setLanguage(settings.lang);
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === settings.lang));
  }
  fillLessonPicker($("lessons"), settings.lang, settings.lesson);
  showLesson();
  views.setStrings(t);
  if (live) live.setStrings(t);
  restore.setStrings(t);
  if (shareUI) shareUI.setStrings(t);
  showRunInfo();
  renderStatus(python.state);
}

// ---- status -------------------------------------------------------------

function seconds(ms) {
  return (ms / 1000).toFixed(1);
}

function renderStatus(state) {
  statusEl.dataset.state = state;
  const text = statusEl.querySelector(".status-text");
  if (state === "error") {
    text.textContent = t.error;
    statusEl.title = fatal ? fatal.message : "";
  } else if (state === "loading") {
    // Which of the three phases, so ~10 s of loading visibly moves on.
    const step = Math.min(PHASES.indexOf(python.loadingPhase) + 1 || PHASES.length, PHASES.length);
    text.textContent = `${t["phase_" + python.loadingPhase]}… ${step}/${PHASES.length}`;
    statusEl.title = "";
  } else if (state === "running") {
    text.textContent = t.running;
  } else {
    text.textContent = phaseTimes.ready ? t.readyIn(seconds(phaseTimes.ready)) : t.ready;
    statusEl.title = PHASES
      .filter((phase) => phase in phaseTimes)
      .map((phase) => `${phase}: ${seconds(phaseTimes[phase])} s`)
      .join(" · ");
  }
  const busy = state !== "ready";
  // While Python loads, Run takes one click and runs the code once Python is ready.
  $("run").disabled = state === "loading" ? Boolean(queuedRun) : busy;
  // The button says why it waits: a title for the pointer, the status for screen readers.
  if (state !== "loading") $("run").title = t.runTitle;
  else $("run").title = queuedRun ? t.runQueued : t.runWaiting(t["phase_" + python.loadingPhase]);
  if (state === "loading") $("run").setAttribute("aria-describedby", "status");
  else $("run").removeAttribute("aria-describedby");
  $("reset").disabled = busy;
  $("stop").disabled = state !== "running";
  stopHint.setRunning(state === "running");
  $("console-input").disabled = state === "loading" || state === "error";
  if (views) views.setBusy();
}

function onStatus(msg) {
  if (msg.type === "fatal") {
    fatal = msg;
    output.line("error", t.loadFailed(msg.phase, msg.message));
    return;
  }
  fatal = null;
  phaseTimes[msg.phase] = msg.phase === "ready" ? msg.total_ms : msg.ms;
  // Marks for bench/web_load.py: each phase's own duration, and when Python first became ready.
  if (!performance.getEntriesByName(`playground:phase:${msg.phase}`).length) {
    performance.mark(`playground:phase:${msg.phase}`, { detail: { ms: msg.ms } });
    if (msg.phase === "ready") performance.mark("playground:python-ready");
  }
}

let views = null;
let shareUI = null;
restore = new RestoreOriginal({ button: $("restore"), notice: $("restore-notice") }, {
  original: () => lessonText(),
  getCode: () => editor.getCode(),
  setCode(code) {
    editor.setCode(code);
    editor.markError(null);
  },
}, t);
const python = new PythonClient({
  onStatus,
  onStream(stream, text) {
    if (live) live.beforeOutput();
    output.write(stream, text);
    stopHint.noteOutput(text.length);
  },
  onState: renderStatus,
  onRestarted(why) {
    output.line("note", why === "silent" ? t.workerSilent : t.workerDied);
    views.showResult({ graph: null, trace: null, grad_history: {}, reset: true });
  },
});

views = new Views({
  request: (type, payload, options) => python.request(type, payload, options),
  report: (result) => reportResult(result, { markLines: false }),
  echo: (text) => output.line("echo", `>>> ${text}`),
  busy: () => python.state !== "ready",
  marks: marks.controller(editor.view),
  applyFix(fix) {
    // Python wrote the fixed line from the code that ran; only apply it to that same line, or
    // to the same code under another comment (the lesson's comments follow the language).
    const before = editor.getCode();
    const { expected, text } = fixForComment(fix, editor.lineText(fix.line));
    if (!editor.replaceLine(fix.line, expected, text)) {
      output.line("note", t.fixStale(fix.line));
      return;
    }
    // One undoable edit (Ctrl+Z), and an Undo button beside the editor.
    restore.offer(before, (strings) => strings.fixApplied(fix.line));
    runEditor();
  },
}, t);

// ---- running code -------------------------------------------------------

function reportResult(result, { markLines }) {
  const error = result.error;
  if (error && error.type === "Restarted") return; // the Stop handler explains it
  if (error && error.type === "KeyboardInterrupt") output.line("note", "KeyboardInterrupt");
  else if (error) output.line("error", (error.traceback || `${error.type}: ${error.message}`).replace(/\n$/, ""));
  output.flush(); // text first, so whoever sees the run-info also sees the output
  if (markLines) {
    editor.markError(error ? error.lineno : null);
    lastRun = { ok: !error, ms: Math.round(result.duration_ms) };
    showRunInfo();
  }
}

let lastRun = null; // {ok, ms} of the last editor run, re-shown when the language changes

function showRunInfo() {
  const info = $("run-info");
  info.textContent = lastRun ? (lastRun.ok ? t.doneIn(lastRun.ms) : t.failedIn(lastRun.ms)) : "";
  if (lastRun) info.dataset.ok = String(lastRun.ok);
}

let queuedRun = null; // the one run asked for while Python loads (Ctrl+Enter, the API)

function runEditor() {
  if (python.state === "running") return Promise.resolve({ ok: false, stdout: "", error: { type: "Busy", message: "already running" } });
  if (python.state !== "loading") return runNow();
  if (!queuedRun) {
    output.line("note", t.runQueued);
    const settle = () => { queuedRun = null; };
    queuedRun = python.ready.then(() => (settle(), runNow()), (err) => {
      settle();
      return { ok: false, stdout: "", error: { type: "LoadError", message: String(err && err.message) } };
    });
    renderStatus(python.state);
  }
  return queuedRun;
}

async function runNow() {
  output.clear();
  editor.markError(null);
  lastRun = null;
  showRunInfo();
  const result = await python.request("run", editor.getCode());
  reportResult(result, { markLines: true });
  views.showResult(result);
  return { ok: result.ok, stdout: result.stdout, error: result.error };
}

let live = null; // live mode (editor/live_mode.js)

async function evalConsoleLine(src) {
  output.line("echo", `>>> ${src}`);
  const result = await python.request("eval", src);
  reportResult(result, { markLines: false });
  views.showResult(result);
  return result;
}

async function stop() {
  const outcome = await python.stop();
  if (outcome === "interrupted") output.line("note", t.interrupted);
  if (outcome === "restarted") {
    output.line("note", t.restarted);
    views.showResult({ graph: null, trace: null, grad_history: {}, reset: true });
  }
}

async function resetNamespace() {
  const result = await python.request("reset");
  output.line("note", t.resetDone);
  views.showResult(result);
}

// ---- wiring -------------------------------------------------------------

function wireControls() {
  $("run").addEventListener("click", () => runEditor());
  $("stop").addEventListener("click", () => stop());
  $("reset").addEventListener("click", () => resetNamespace());
  $("clear").addEventListener("click", () => output.clear());
  $("lessons").addEventListener("change", (event) => selectLesson(event.target.value));
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => applyLanguage(button.dataset.lang));
  }
  wireConsoleInput($("console-input"), evalConsoleLine);
  // Ctrl/Cmd+Enter runs the editor from anywhere on the page (the editor handles its own).
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || event.defaultPrevented) return;
    if (event.target.closest && event.target.closest(".cm-editor")) return;
    event.preventDefault();
    runEditor();
  });
}

function buildLanguageSwitch() {
  $("language").replaceChildren(
    ...LANGUAGES.map(({ code, label }) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.lang = code;
      button.textContent = label;
      return button;
    }),
  );
}

// Apple keyboards say Cmd; CodeMirror's "Mod" maps to it there.
if (/Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)) $("run-shortcut").textContent = "⌘ ↵";
buildLanguageSwitch();
live = new LiveMode($("reset"), {
  run: () => python.request("run", editor.getCode()),
  clearOutput: () => output.clear(),
  // In place: the views keep the timeline position and the zoom (views.js, timeline.js).
  show(result) {
    reportResult(result, { markLines: true });
    views.showResult({ ...result, live: true });
  },
  stop: () => python.stop(),
  state: () => python.state,
}, t);
wireControls();
shareUI = new ShareUI({
  lessons: LESSONS,
  state: () => ({ code: editor.getCode(), lesson: settings.lesson, lang: settings.lang }),
  draftFor: (id) => settings.drafts[id] ?? null,
  openLesson(id) {
    selectLesson(id);
    $("lessons").value = settings.lesson; // the picker only follows the user's own choices
  },
  setLanguage: (lang) => lang !== settings.lang && applyLanguage(lang),
  setCode(code) {
    editor.setCode(code);
    editor.markError(null);
  },
}, t);
applyLanguage(settings.lang);
shareUI.start(); // a link in the URL fragment replaces what was restored above

window.playground = Object.freeze({
  setCode(text) {
    editor.setCode(String(text));
  },
  getCode: () => editor.getCode(),
  run: () => runEditor(),
  shareLink: () => shareUI.link(),
  get ready() {
    return python.ready;
  },
});

// The offline copy (sw.js) is saved once Python is loaded, so it does not slow the first load.
python.ready.then(() => {
  const offline = registerOffline({ onState: (state) => offlineBadge.show(state) });
  offlineBadge.onUpdate = () => offline.applyUpdate();
});
