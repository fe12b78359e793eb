// The holder document of an embed's connection to the shared runtime.
//
// A SharedWorker lives as long as any document that created it; its clients
// cannot terminate it, and it cannot be interrupted while Python loops. So the
// embed does not create it itself: this hidden, same-origin iframe does, and
// hands the port to its parent. Removing the iframe drops its ownership; once
// every embed has removed its holder the browser ends the worker, even in
// the middle of an endless loop. The runtime's name comes in the hash.

const name = decodeURIComponent(location.hash.slice(1)) || "autograd-playground";
try {
  const worker = new SharedWorker(new URL("./shared_worker.js", location.href), { type: "module", name });
  worker.onerror = (event) => {
    parent.postMessage({ type: "autograd-playground:port-error", message: event.message || "SharedWorker failed" },
      location.origin);
  };
  parent.postMessage({ type: "autograd-playground:port", name }, location.origin, [worker.port]);
} catch (err) {
  parent.postMessage({ type: "autograd-playground:port-error", message: String(err) }, location.origin);
}
