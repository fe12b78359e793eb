// The page's side of the offline copy (sw.js): registers the service worker
// and reports where the copy stands. No DOM of its own besides the
// <html data-offline="..."> attribute, so the main page and the embed frame
// can both use it and draw their own badge.
//
// States, in the order a first visit sees them:
//   "unsupported"  no service workers here (an insecure origin, or a browser without them)
//   "installing"   the site's files are being saved
//   "ready"        this page's service worker is active and holds every file of its version
//   "update"       a newer version is saved and waits; applyUpdate() switches to it and reloads
//   "error"        saving failed (the page keeps working online; a later visit tries again)

const STATUS_TIMEOUT_MS = 10_000;
const FILL_TIMEOUT_MS = 300_000; // ~20 MB on a slow line

/** Asks a service worker for {version, files, cached, complete}, after filling its copy for "fill". */
function ask(worker, type = "status", timeoutMs = STATUS_TIMEOUT_MS) {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error("the service worker did not answer")), timeoutMs);
    channel.port1.onmessage = (event) => {
      clearTimeout(timer);
      resolve(event.data || {});
    };
    worker.postMessage({ type }, [channel.port2]);
  });
}

/**
 * Registers ./sw.js for this folder (isolation.js may have done so already)
 * and completes its offline copy. Call it once Python is loaded, so saving
 * the files the page did not load itself does not compete with the first load.
 *
 * @param {object} [options]
 * @param {(state: string, detail?: object) => void} [options.onState] called on every state change
 * @returns {{applyUpdate: () => void, state: () => string}}
 */
export function registerOffline({ onState = () => {} } = {}) {
  let state = null;
  let reloadOnChange = false;
  let registration = null;

  function report(next, detail) {
    // A waiting update stays announced until the page reloads.
    if (state === "update" && next !== "update") return;
    state = next;
    document.documentElement.dataset.offline = next;
    // How long saving the copy took, for the tests and benchmarks (register -> ready).
    if (next === "ready" && !performance.getEntriesByName("playground:offline-ready").length) {
      performance.mark("playground:offline-ready");
    }
    onState(next, detail);
  }

  const controller = {
    state: () => state,
    /** Lets the waiting version take over; the page reloads once it controls it. */
    applyUpdate() {
      const waiting = registration && registration.waiting;
      if (!waiting) {
        location.reload();
        return;
      }
      reloadOnChange = true;
      waiting.postMessage({ type: "skip-waiting" });
    },
  };

  const container = navigator.serviceWorker;
  if (!container || !window.isSecureContext) {
    report("unsupported");
    return controller;
  }

  async function checkActive() {
    const active = registration.active;
    if (!active) return;
    try {
      let status = await ask(active);
      if (!status.complete && !registration.waiting) {
        // The first install keeps what the page loads; the rest is fetched now, Python being ready.
        report("installing");
        status = await ask(active, "fill", FILL_TIMEOUT_MS);
      }
      if (registration.waiting) report("update");
      else if (status.complete) report("ready", status);
      else report("error", status);
    } catch (err) {
      report("error", { error: String(err) });
    }
  }

  const followed = new WeakSet();
  function follow(worker) {
    if (!worker || followed.has(worker)) return;
    followed.add(worker);
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed" && registration.active) report("update");
      else if (worker.state === "activated") checkActive();
      else if (worker.state === "redundant" && !registration.active && !registration.installing) report("error");
    });
  }

  let hadController = Boolean(container.controller);
  container.addEventListener("controllerchange", () => {
    if (reloadOnChange) location.reload();
    // Another tab let a newer version take over: this page's files are the old ones.
    else if (hadController) report("update");
    hadController = true;
  });

  // A page already served by the worker is past installing: no flash of it on every visit.
  if (!container.controller) report("installing");
  performance.mark("playground:offline-register");
  container
    .register("./sw.js", { scope: "./" })
    .then((reg) => {
      registration = reg;
      reg.addEventListener("updatefound", () => follow(reg.installing));
      follow(reg.installing);
      if (reg.waiting && reg.active) report("update");
      else follow(reg.waiting);
      // register() does not look for a newer sw.js when one is installed; this does (quietly, when offline).
      if (reg.active && !reg.installing && !reg.waiting) reg.update().catch(() => {});
      return checkActive();
    })
    .catch((err) => report("error", { error: String(err) }));
  return controller;
}
