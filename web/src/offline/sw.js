// Service worker of the playground: after the first visit every file of the
// built site sits in one cache, so the page, its workers and Python itself
// load with the network off.
//
// The build (web/build/precache.py) replaces the placeholder below by
// {version, files}. The version hashes every file, so any change to the site
// changes this script's bytes, which is how the browser notices an update.
//
// Messages from pages:
//   {type: "status"}        -> {type: "status", version, files, cached, complete}
//                              (answered on event.ports[0] when given, else to the sender)
//   {type: "skip-waiting"}  a waiting update takes over (the page reloads on controllerchange)

const MANIFEST = "__PRECACHE_MANIFEST__";
const FILES = Array.isArray(MANIFEST.files) ? MANIFEST.files : [];
const SCOPE = self.registration.scope;
const PREFIX = "autograd-playground-";
// The scope is part of the name so two copies of the site on one origin
// (say /a/ and /b/) never delete each other's caches.
const SUFFIX = `@${new URL(SCOPE).pathname}`;
const CACHE = `${PREFIX}${MANIFEST.version}${SUFFIX}`;
const INDEX = new URL("index.html", SCOPE).href;

const fileUrl = (file) => new URL(file, SCOPE).href;

// A response that went through a redirect cannot answer a navigation; keep its bytes and headers only.
function storable(response) {
  if (!response.redirected) return response;
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function precache() {
  if (!FILES.length) throw new Error("sw.js has no precache manifest: it was not built by web/build/build_site.py");
  const cache = await caches.open(CACHE);
  try {
    await Promise.all(FILES.map(async (file) => {
      // "no-cache" revalidates with the server, so a stale HTTP cache is not frozen into the offline copy.
      const response = await fetch(new Request(fileUrl(file), { cache: "no-cache" }));
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      await cache.put(fileUrl(file), storable(response));
    }));
  } catch (err) {
    // A half-filled cache must not look like a usable copy; the previous worker stays in charge.
    await caches.delete(CACHE);
    throw err;
  }
}

self.addEventListener("install", (event) => {
  // First install: take over at once so the first visit is already offline-capable.
  // An update waits until the page asks (an old page must not meet a new worker.js).
  const firstInstall = !self.registration.active;
  event.waitUntil(precache().then(() => (firstInstall ? self.skipWaiting() : undefined)));
});

async function activate() {
  const names = await caches.keys();
  const older = names.filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX) && name !== CACHE);
  await Promise.all(older.map((name) => caches.delete(name)));
  // No older copy means this is the first install: control the page that registered us.
  if (!older.length) await self.clients.claim();
}

self.addEventListener("activate", (event) => event.waitUntil(activate()));

async function status() {
  const found = await Promise.all(FILES.map((file) => caches.match(fileUrl(file), { cacheName: CACHE, ignoreVary: true })));
  const cached = found.filter(Boolean).length;
  return { type: "status", version: MANIFEST.version, files: FILES.length, cached, complete: cached > 0 && cached === FILES.length };
}

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "skip-waiting") {
    self.skipWaiting();
  } else if (msg.type === "status") {
    const reply = (answer) => (event.ports[0] || event.source).postMessage(answer);
    event.waitUntil(status().then(reply, (err) => reply({ type: "status", complete: false, error: String(err) })));
  }
});

function offlineResponse(url) {
  const text = `The autograd playground is offline and ${url.pathname} is not in its offline copy.\n`;
  return new Response(text, { status: 503, statusText: "Service Unavailable", headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

async function respond(request) {
  const url = new URL(request.url);
  let key = request;
  if (request.mode === "navigate") {
    // A page is the same page whatever its query says (share links carry code there).
    url.search = "";
    key = url.href === SCOPE ? INDEX : url.href;
  }
  const cached = await caches.match(key, { cacheName: CACHE, ignoreVary: true });
  if (cached) return cached;
  try {
    return await fetch(request);
  } catch {
    return offlineResponse(url);
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  // Only this site's own files; anything else goes to the network untouched.
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  event.respondWith(respond(request));
});
