// Service worker of a course site made with the autograd playground's MkDocs plugin or Sphinx
// extension: after the first visit to a page with live examples, every page and file of the
// course is in one cache, so the course opens with the network off. The playground's own folder
// has its own service worker (its sw.js, registered by the examples' frames), which serves the
// frames, their workers and Python; this one only keeps the course and the host's embed.js.
//
// The plugin replaces the placeholder below by {version, files, playground}: the version hashes
// every file, so a rebuilt course changes this script's bytes and the browser updates it.
// Pages are fetched network-first (a reader online always gets the newest course), and the
// cache answers when the network fails.

const MANIFEST = "__COURSE_MANIFEST__";
const SCOPE = self.registration.scope;
const PREFIX = "autograd-course-";
// The scope is part of the name so two courses on one origin never delete each other's caches.
const SUFFIX = `@${new URL(SCOPE).pathname}`;
const CACHE = `${PREFIX}${MANIFEST.version}${SUFFIX}`;
const PLAYGROUND = new URL(`${MANIFEST.playground}/`, SCOPE).href;
const EMBED_JS = new URL("embed.js", PLAYGROUND).href;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "no-cache" revalidates with the server, so a stale HTTP cache is not frozen into the copy.
    await cache.addAll(MANIFEST.files.map((file) => new Request(new URL(file, SCOPE).href, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name.endsWith(SUFFIX) && name !== CACHE) await caches.delete(name);
    }
    // The page that registered us works offline from now on, without a reload.
    await self.clients.claim();
  })());
});

/** The course's own files and the host's embed.js; the playground's other files are its worker's. */
function ours(url) {
  return url.startsWith(SCOPE) && (!url.startsWith(PLAYGROUND) || url.split(/[?#]/)[0] === EMBED_JS);
}

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  // A folder address (MkDocs' and dirhtml's pretty URLs) is its index.html.
  const url = new URL(request.url);
  if (url.pathname.endsWith("/")) {
    const page = await cache.match(new URL("index.html", url).href);
    if (page) return page;
  }
  return Response.error();
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !ours(request.url)) return;
  event.respondWith(fetch(request).catch(() => fromCache(request)));
});
