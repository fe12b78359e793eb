// Module SharedWorker: one Pyodide for all the embeds of a course page, one
// session (namespace and settings) per connected embed. It speaks worker.js's
// protocol on each embed's port, plus {type: "bye"} when an embed goes away.
//
// It cannot be interrupted (no SharedArrayBuffer across embeds) nor
// terminated by a client, so an embed never creates it directly: it connects
// through a tiny holder document (shared_port.js) whose removal releases it;
// see shared_client.js for how Stop restarts the runtime.

import { RequestQueue, Runtime } from "./runtime.js";

const clients = new Map(); // port -> {session: PyProxy | null}
const reported = []; // status and fatal messages so far, replayed to late embeds

function broadcast(msg) {
  reported.push(msg);
  for (const port of clients.keys()) port.postMessage(msg);
}

const runtime = new Runtime(self.location.href, broadcast);

function answer({ port, msg }) {
  const client = clients.get(port);
  if (!client) return; // the embed said bye while its request waited
  if (!client.session) {
    client.session = runtime.newSession((stream, text) => port.postMessage({ type: stream, text: String(text) }));
  }
  port.postMessage(runtime.handle(client.session, msg));
}

const queue = new RequestQueue(answer);

function forget(port) {
  const client = clients.get(port);
  clients.delete(port);
  if (client && client.session) client.session.destroy();
  port.close();
}

self.onconnect = (event) => {
  const port = event.ports[0];
  clients.set(port, { session: null });
  for (const msg of reported) port.postMessage(msg);
  port.onmessage = (e) => {
    const msg = e.data || {};
    if (msg.type === "bye") forget(port);
    else queue.push({ port, msg });
  };
};

runtime.load().then((ready) => {
  if (ready) queue.open();
});
