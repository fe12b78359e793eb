// Cross-origin isolation for static hosts that cannot send headers.
//
// Stop keeps the learner's variables only when the page is crossOriginIsolated
// (Pyodide's interrupt buffer is a SharedArrayBuffer). A host that sends
// COOP/COEP itself needs nothing here. Elsewhere the service worker (sw.js)
// adds those headers to the page it serves, but it serves only pages loaded
// after it took control, so a first visit registers it and reloads once,
// before Python starts loading (a reload later would throw Python away).
//
// A learner who has begun (a click or a key, a script's setCode, a Run queued
// while loading) is never reloaded away from it: stay() gives isolation up for
// this visit, and so does a share link (main.js does not ask, it is consumed at once).
//
// <html data-isolation> says where it stands: "pending" while the page may still
// reload, then "isolated", "none" (cannot be), or why it gave up ("stayed",
// "timeout", "failed"). Tests wait for it before driving the page.
//
// Never a loop: the reload happens only when no service worker controls the
// page and this tab has not tried before (sessionStorage). A browser that
// ignores the headers a service worker adds comes back controlled but not
// isolated, and simply goes on; Stop then restarts Python instead.

const TRIED_KEY = "autograd-playground:isolation-reload";
const TAKEOVER_TIMEOUT_MS = 4_000; // a service worker that takes longer is not worth the wait
let stayHere = () => {}; // set while isolate() may still reload the page

/**
 * Gives isolation up for this visit: a pending isolate() resolves without
 * reloading, and a reload already asked for but not yet under way is cancelled.
 */
export function stay() {
  stayHere();
}

function triedBefore() {
  try {
    if (sessionStorage.getItem(TRIED_KEY)) return true;
    sessionStorage.setItem(TRIED_KEY, String(performance.timeOrigin));
    return false;
  } catch {
    return true; // without sessionStorage a loop could not be ruled out
  }
}

/**
 * Makes the page cross-origin isolated if it can (and if `wanted`).
 *
 * @param {boolean} [wanted] false: do not try on this visit (a share link is consumed at once)
 * @returns {Promise<string>|null} null when Python may start loading at once (the page is
 *     isolated, or cannot be: no service workers, already controlled, or tried in this
 *     tab); else a promise that resolves once it may, with why ("stayed", see stay(),
 *     "timeout" or "failed"), and never resolves when the page reloads.
 */
export function isolate(wanted = true) {
  const mark = (state) => {
    document.documentElement.dataset.isolation = state;
  };
  if (self.crossOriginIsolated) {
    mark("isolated");
    return null;
  }
  const container = navigator.serviceWorker;
  if (!wanted || !container || !window.isSecureContext || container.controller || triedBefore()) {
    mark("none");
    return null;
  }
  mark("pending");
  return new Promise((resolve) => {
    let state = "waiting"; // -> "reloading" | "done"
    const finish = (why) => {
      if (state === "done") return;
      if (state === "reloading") window.stop(); // the old document is still here: keep it
      state = "done";
      mark(why);
      resolve(why);
    };
    const reload = () => {
      if (state !== "waiting") return;
      state = "reloading";
      location.reload();
    };
    stayHere = () => finish("stayed");
    setTimeout(() => state === "waiting" && finish("timeout"), TAKEOVER_TIMEOUT_MS);
    // sw.js claims the page when it first activates.
    container.addEventListener("controllerchange", reload, { once: true });
    container
      .register("./sw.js", { scope: "./" })
      .then((registration) => {
        // Already installed (say after a hard reload, which bypasses it): the reload is served by it.
        if (registration.active) reload();
      })
      .catch(() => state === "waiting" && finish("failed"));
  });
}
