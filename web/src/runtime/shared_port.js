// The holder document of an embed's connection to the shared runtime.
//
// A SharedWorker lives as long as any document that created it; its clients
// cannot terminate it, and it cannot be interrupted while Python loops. So the
// embed does not create it itself: this hidden, same-origin iframe does, and
// hands the port to its parent when asked. Removing the iframe drops its
// ownership; once every embed has removed its holder the browser ends the
// worker, even in the middle of an endless loop.
//
// embed.html has one holder in its markup, so the runtime starts loading while
// the frame's own (larger) script still downloads. The runtime's name comes in
// the hash, else from storage (runtime_name.js).

import { storedRuntimeName } from "./runtime_name.js";

const name = decodeURIComponent(location.hash.slice(1)) || storedRuntimeName();
let worker = null;
let problem = null;
if (typeof SharedWorker === "function") {
  try {
    worker = new SharedWorker(new URL("./shared_worker.js", location.href), { type: "module", name });
    worker.onerror = (event) => {
      problem = event.message || "SharedWorker failed";
      parent.postMessage({ type: "autograd-playground:port-error", message: problem }, location.origin);
    };
  } catch (err) {
    problem = String(err);
  }
} else {
  problem = "SharedWorker is not available";
}

// The port goes to the parent once, when it asks (it may not be listening before).
window.addEventListener("message", (event) => {
  if (event.source !== parent || event.origin !== location.origin) return;
  if (!event.data || event.data.type !== "autograd-playground:connect") return;
  if (worker && worker.port) {
    parent.postMessage({ type: "autograd-playground:port", name }, location.origin, [worker.port]);
    worker = { port: null }; // transferred
  } else if (problem) {
    parent.postMessage({ type: "autograd-playground:port-error", message: problem }, location.origin);
  }
});
