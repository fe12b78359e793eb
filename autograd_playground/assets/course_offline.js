// Saves the course for offline reading: registers the course's service worker, which sits next
// to this file at the site's root (written by the autograd playground's MkDocs plugin or Sphinx
// extension), once the page has loaded, so it never competes with the page's first paint.
(() => {
  const script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  const root = new URL("./", script.src);
  const register = () => {
    navigator.serviceWorker.register(new URL("autograd-course-sw.js", root), { scope: root.pathname })
      .catch(() => {}); // a host that forbids it (file://, a CSP) still has a working course
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
})();
