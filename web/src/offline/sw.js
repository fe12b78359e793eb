// Service worker of the playground: after the first visit every file of the
// built site sits in one cache, so the page, its workers and Python itself
// load with the network off. It also makes the main page cross-origin
// isolated on hosts that cannot send headers (see isolation.js): it adds
// COOP/COEP to the page and its worker scripts, so Stop can interrupt Python.
//
// The build (web/build/precache.py) replaces the placeholder below by
// {version, files}. The version hashes every file, so any change to the site
// changes this script's bytes, which is how the browser notices an update.
//
// The first install downloads nothing: the page reloads under it at once (for
// isolation), every file that page loads is kept as it passes through, and
// once Python is ready the page asks for the rest ("fill"). So each file is
// downloaded once per visit. An update downloads its whole version before it
// may take over, as an open page must never mix old and new files.
//
// Messages from pages:
//   {type: "status"}        -> {type: "status", version, files, cached, complete}
//                              (answered on event.ports[0] when given, else to the sender)
//   {type: "fill"}          -> the same status, after fetching every file not cached yet
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
const FILE_URLS = new Set(FILES.map(fileUrl));
// What a host would send for isolation; added where the response has none of its own.
const ISOLATION_HEADERS = [
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Cross-Origin-Embedder-Policy", "require-corp"],
];

// A response that went through a redirect cannot answer a navigation; keep its bytes and headers only.
function storable(response) {
  if (!response.redirected) return response;
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Fetches `files` into the cache; any failure deletes the cache when `allOrNothing`. */
async function download(files, allOrNothing) {
  const cache = await caches.open(CACHE);
  try {
    await Promise.all(files.map(async (file) => {
      // "no-cache" revalidates with the server, so a stale HTTP cache is not frozen into the offline copy.
      const response = await fetch(new Request(fileUrl(file), { cache: "no-cache" }));
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      await cache.put(fileUrl(file), storable(response));
    }));
  } catch (err) {
    // A half-filled cache must not look like a usable update; the previous worker stays in charge.
    if (allOrNothing) await caches.delete(CACHE);
    throw err;
  }
}

function checkManifest() {
  if (!FILES.length) throw new Error("sw.js has no precache manifest: it was not built by web/build/build_site.py");
}

self.addEventListener("install", (event) => {
  checkManifest();
  // First install: take over at once, downloading nothing (the page's own loads fill the copy).
  // An update downloads everything first and waits until the page asks (an old page must not
  // meet a new worker.js).
  const firstInstall = !self.registration.active;
  event.waitUntil(firstInstall ? self.skipWaiting() : download(FILES, true));
});

async function activate() {
  const names = await caches.keys();
  const older = names.filter((name) => name.startsWith(PREFIX) && name.endsWith(SUFFIX) && name !== CACHE);
  await Promise.all(older.map((name) => caches.delete(name)));
  // No older copy means this is the first install: control the page that registered us.
  if (!older.length) await self.clients.claim();
}

self.addEventListener("activate", (event) => event.waitUntil(activate()));

async function cachedFiles() {
  const cache = await caches.open(CACHE);
  const found = await Promise.all(FILES.map((file) => cache.match(fileUrl(file), { ignoreVary: true })));
  return FILES.filter((file, i) => found[i]);
}

async function status() {
  const cached = (await cachedFiles()).length;
  return { type: "status", version: MANIFEST.version, files: FILES.length, cached, complete: cached > 0 && cached === FILES.length };
}

let filling = null; // one fill at a time, whichever pages ask

/** Downloads the files no page has loaded yet; a failed file is tried once more. */
async function fill() {
  const have = new Set(await cachedFiles());
  const missing = FILES.filter((file) => !have.has(file));
  try {
    await download(missing, false);
  } catch {
    const left = new Set(await cachedFiles());
    await download(FILES.filter((file) => !left.has(file)), false);
  }
}

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.type === "skip-waiting") {
    self.skipWaiting();
  } else if (msg.type === "status" || msg.type === "fill") {
    const reply = (answer) => (event.ports[0] || event.source).postMessage(answer);
    const failed = (err) => status().then((answer) => reply({ ...answer, complete: false, error: String(err) }));
    let work = Promise.resolve();
    if (msg.type === "fill") {
      filling = filling || fill().finally(() => { filling = null; });
      work = filling;
    }
    event.waitUntil(work.then(status).then(reply, failed).catch(() => {}));
  }
});

function offlineResponse(url) {
  const text = `The autograd playground is offline and ${url.pathname} is not in its offline copy.\n`;
  return new Response(text, { status: 503, statusText: "Service Unavailable", headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** The response with the isolation headers added (those it already has are kept). */
function isolated(response) {
  if (response.type === "opaque" || response.type === "opaqueredirect") return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of ISOLATION_HEADERS) if (!headers.has(name)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function respond(event) {
  const { request } = event;
  const url = new URL(request.url);
  let key = request.url;
  if (request.mode === "navigate") {
    // A page is the same page whatever its query says (share links carry code there).
    url.search = "";
    key = url.href === SCOPE ? INDEX : url.href;
  }
  // Only the main page and its dedicated workers: embed.html and the course pages are framed
  // by hosts that are not isolated, and the embeds' SharedWorker stays as it was.
  const isolate = key === INDEX || request.destination === "worker";
  let response = await caches.match(key, { cacheName: CACHE, ignoreVary: true });
  if (!response) {
    try {
      response = await fetch(request);
    } catch {
      return offlineResponse(url);
    }
    // A file of this version passing through is kept: the offline copy never downloads it again.
    if (response.ok && FILE_URLS.has(key)) {
      const copy = storable(response.clone());
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(key, copy)).catch(() => {}));
    }
  }
  return isolate ? isolated(response) : response;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  // Only this site's own files; anything else goes to the network untouched.
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  event.respondWith(respond(event));
});
