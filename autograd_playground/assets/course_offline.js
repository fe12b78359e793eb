// Saves the course for offline reading. The autograd playground's MkDocs plugin or Sphinx
// extension puts this file at the site's root, next to the course's service worker, and loads it
// on the pages with live examples. Once the page has loaded (so it never competes with the first
// paint) it registers the playground's own worker, then the course's. In that order: the course's
// worker covers the whole site, the playground's folder too, and a frame of an example opened
// while only the course's worker existed would be taken from it by the playground's worker later.

(() => {
  const PLAYGROUND = "__PLAYGROUND__"; // the playground's folder in the site, set by the plugin
  const script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  const root = new URL("./", script.src);
  const playground = new URL(`${PLAYGROUND}/`, root);
  const register = async () => {
    const container = navigator.serviceWorker;
    // A host that forbids one (file://, a CSP) still has a working course: each failure is quiet.
    await container.register(new URL("sw.js", playground), { scope: playground.pathname }).catch(() => {});
    await container.register(new URL("autograd-course-sw.js", root), { scope: root.pathname }).catch(() => {});
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
})();
