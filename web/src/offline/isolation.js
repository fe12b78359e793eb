// Cross-origin isolation for static hosts that cannot send headers.
//
// Stop keeps the learner's variables only when the page is crossOriginIsolated
// (Pyodide's interrupt buffer is a SharedArrayBuffer). A host that sends
// COOP/COEP itself needs nothing here. Elsewhere the service worker (sw.js)
// adds those headers to the page it serves, but it serves only pages loaded
// after it took control, so a first visit registers it and reloads once.
//
// boot.js runs this from a small script at the top of <head>, before the page's
// own script is even parsed: a first visit halts its document at once (the
// learner sees a blank page for the moment the service worker needs to take
// over, never a page that is thrown away) and reloads. The URL is kept, so a
// share link in it survives. Every other visit goes on at once.
//
// <html data-isolation> says where it stands: "pending" while the page is about
// to reload, then "isolated", "none" (cannot be, or tried before in this tab),
// or, after a first visit's attempt failed, nothing more (the page reloads
// anyway and is then "none"). Tests wait for it before driving the page.
//
// Never a loop: the reload happens only when no service worker controls the
// page and this tab has not tried before (sessionStorage). A browser that
// ignores the headers a service worker adds comes back controlled but not
// isolated, and simply goes on; Stop then restarts Python instead. A service
// worker that cannot be registered, or takes too long, reloads the page too:
// it has been halted, and the second visit, having tried, goes on at once.

const TRIED_KEY = "autograd-playground:isolation-reload";
const TAKEOVER_TIMEOUT_MS = 4_000; // a service worker that takes longer is not worth the wait

function triedBefore() {
  try {
    if (sessionStorage.getItem(TRIED_KEY)) return true;
    sessionStorage.setItem(TRIED_KEY, String(performance.timeOrigin));
    return false;
  } catch {
    return true; // without sessionStorage a loop could not be ruled out
  }
}

function mark(state) {
  document.documentElement.dataset.isolation = state;
}

/**
 * Makes the page cross-origin isolated if it can.
 *
 * @returns {boolean} false when the page may start loading Python at once (it is
 *     isolated, or cannot be: no service workers, already controlled, or tried in
 *     this tab); true when it halted this document and reloads it as soon as the
 *     service worker controls it (or gave up: the reload then finds it tried).
 */
export function isolate() {
  if (self.crossOriginIsolated) {
    mark("isolated");
    return false;
  }
  const container = navigator.serviceWorker;
  if (!container || !window.isSecureContext || container.controller || triedBefore()) {
    mark("none");
    return false;
  }
  mark("pending");
  // Nothing of this document is kept: stop loading its styles and script.
  window.stop();
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    location.reload();
  };
  setTimeout(reload, TAKEOVER_TIMEOUT_MS);
  // sw.js claims the page when it first activates.
  container.addEventListener("controllerchange", reload, { once: true });
  container
    .register("./sw.js", { scope: "./" })
    .then((registration) => {
      // Already installed (say after a hard reload, which bypasses it): the reload is served by it.
      if (registration.active) reload();
    })
    .catch(reload);
  return true;
}
