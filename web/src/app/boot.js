// The page's first script: a small classic script at the top of <head>, run
// before the page's styles and its big script (main.js) load. Python takes
// seconds to load, and everything else the page does takes less, so this
// starts it first:
//
// * on a first visit it makes the page cross-origin isolated (isolation.js),
//   which halts this document and reloads it, before anything else is spent on it;
// * otherwise it starts the Python worker (worker.js) at once, so Pyodide
//   downloads and compiles while main.js loads and draws the page. main.js adopts
//   it (takeWorker in worker_handle.js) and sends it the connect message; the
//   worker keeps what it reports until then.
//
// Shared with main.js through one global, window[BOOT_KEY]:
//   {worker: Worker|null, error: string|null}   taken once; error is a failure of
//                                               the worker's script before main.js ran

import { isolate } from "../offline/isolation.js";
import { BOOT_KEY } from "../runtime/boot_key.js";

if (!isolate()) {
  const boot = { worker: null, error: null };
  try {
    performance.mark("playground:worker-start");
    boot.worker = new Worker(new URL("./worker.js", location.href), { type: "module" });
    boot.worker.onerror = (event) => {
      event.preventDefault();
      boot.error = event.message || "worker error";
    };
  } catch {
    boot.worker = null; // main.js starts one itself, and reports what goes wrong
  }
  Object.defineProperty(window, BOOT_KEY, { value: boot, configurable: true });
}
