// User-interface strings in English and Simplified Chinese.
// Lesson texts live in lessons.json; these are only the page's own words.
// The "See autograd" views' strings live in i18n_views.js, the share links'
// in i18n_share.js; both are merged in.

import { SHARE_STRINGS } from "../share/i18n_share.js";
import { VIEW_STRINGS } from "../views/i18n_views.js";

export const STRINGS = {
  en: {
    title: "autograd playground",
    subtitle: "PyTorch autograd, running in your browser",
    lesson: "Lesson",
    restore: "Original code",
    restoreTitle: "Put this lesson's original code back in the editor (you can undo it)",
    restoredNote: "The lesson's original code is back in the editor.",
    restoreUndo: "Undo: bring my code back",
    runQueued: "Python is still loading; your code will run once, as soon as it is ready.",
    runWaiting: (phase) => `Run is available once Python is ready (${phase}…)`,
    run: "Run",
    runTitle: "Run the editor as a new script, in fresh variables (Ctrl/Cmd + Enter)",
    stop: "Stop",
    stopTitle: "Interrupt the running code",
    reset: "Reset",
    resetTitle: "Forget all variables now (each Run starts fresh anyway)",
    clear: "Clear",
    output: "Output",
    consolePlaceholder: "Type a statement, e.g. x.grad, and press Enter",
    consoleHint: "Each Run starts a fresh script; the >>> console continues with the last run's variables.",
    consoleLabel: "Python console",
    editorLabel: "Code editor",
    phase_runtime: "Loading Python runtime",
    phase_numpy: "Loading NumPy",
    phase_autograd_py: "Installing autograd_py",
    phase_ready: "Ready",
    running: "Running…",
    error: "Failed to load",
    ready: "Ready",
    readyIn: (s) => `Ready in ${s} s`,
    interrupted: "Interrupted; your variables are kept.",
    restarted: "Python was restarted: all variables were reset. Your code is kept.",
    workerDied: "Python stopped (the code ended its worker, e.g. with js.close()) and was restarted: all variables were reset. Your code is kept.",
    resetDone: "Namespace reset: all variables forgotten.",
    fixStale: (line) => `Line ${line} was edited since the run; add retain_graph=True to its backward call yourself.`,
    loadFailed: (phase, msg) => `Python could not be loaded (${phase}): ${msg}`,
    doneIn: (ms) => `finished in ${ms} ms`,
    failedIn: (ms) => `failed after ${ms} ms`,
    offline_installing: "Saving for offline use…",
    offline_ready: "Works offline",
    offline_update: "New version available",
    offline_error: "Offline copy failed",
    offlineReload: "Reload",
    offlineTitle_installing: "Saving this site's files so it also works without a network",
    offlineTitle_ready: "Every file of this site is saved in your browser: it works without a network",
    offlineTitle_update: "A newer version of the playground was saved; reload to use it",
    offlineTitle_error: "The files could not be saved for offline use; the page still works online",
  },
  zh: {
    title: "autograd 练习场",
    subtitle: "在浏览器里运行的 PyTorch 自动求导",
    lesson: "课程",
    restore: "原始代码",
    restoreTitle: "把本课的原始代码放回编辑器（可以撤销）",
    restoredNote: "编辑器中已换回本课的原始代码。",
    restoreUndo: "撤销：找回我的代码",
    runQueued: "Python 仍在加载；加载完成后会运行一次你的代码。",
    runWaiting: (phase) => `Python 就绪后才能运行（${phase}…）`,
    run: "运行",
    runTitle: "把编辑器中的代码作为新脚本、在全新的变量环境中运行（Ctrl/Cmd + Enter）",
    stop: "停止",
    stopTitle: "中断正在运行的代码",
    reset: "重置",
    resetTitle: "立即清除所有变量（每次运行本来就从头开始）",
    clear: "清空",
    output: "输出",
    consolePlaceholder: "输入一条语句，例如 x.grad，然后按回车",
    consoleHint: "每次运行都是一个全新的脚本；>>> 控制台接着使用上次运行的变量。",
    consoleLabel: "Python 控制台",
    editorLabel: "代码编辑器",
    phase_runtime: "正在加载 Python 运行时",
    phase_numpy: "正在加载 NumPy",
    phase_autograd_py: "正在安装 autograd_py",
    phase_ready: "就绪",
    running: "运行中…",
    error: "加载失败",
    ready: "就绪",
    readyIn: (s) => `就绪，用时 ${s} 秒`,
    interrupted: "已中断；变量都还在。",
    restarted: "Python 已重启：所有变量都被清除，代码保留。",
    workerDied: "Python 停止了（代码结束了它的 worker，例如 js.close()），已重新启动：所有变量都被清除，代码保留。",
    resetDone: "命名空间已重置：所有变量都被清除。",
    fixStale: (line) => `第 ${line} 行在运行后被修改过；请自己在其中的 backward 调用里加上 retain_graph=True。`,
    loadFailed: (phase, msg) => `无法加载 Python（${phase}）：${msg}`,
    doneIn: (ms) => `用时 ${ms} 毫秒`,
    failedIn: (ms) => `${ms} 毫秒后出错`,
    offline_installing: "正在保存离线副本…",
    offline_ready: "可离线使用",
    offline_update: "有新版本",
    offline_error: "离线保存失败",
    offlineReload: "重新加载",
    offlineTitle_installing: "正在保存本站文件，以便断网时也能使用",
    offlineTitle_ready: "本站所有文件已保存在浏览器中：断网也能使用",
    offlineTitle_update: "新版本的练习场已保存；重新加载即可使用",
    offlineTitle_error: "无法保存离线文件；联网时页面仍可正常使用",
  },
};

for (const lang of Object.keys(STRINGS)) Object.assign(STRINGS[lang], VIEW_STRINGS[lang], SHARE_STRINGS[lang]);

export const LANGUAGES = [
  { code: "en", label: "EN" },
  { code: "zh", label: "简体中文" },
];

/** The default language: Simplified Chinese for any zh-* browser, else English. */
export function defaultLanguage(navigatorLanguages) {
  const first = (navigatorLanguages || []).find(Boolean) || "en";
  return first.toLowerCase().startsWith("zh") ? "zh" : "en";
}
