// Before paint: the mode of the address (a shared shell or home can serve many paths),
// else the remembered one (table: src/domain/routes.ts; store: src/stores/mode.ts).
// A file, not an inline script, so the Content-Security-Policy needs no hash for it
// (src/api/security-headers.ts); the path patterns come as data attributes.
(function () {
  const data = document.currentScript.dataset;
  if (data.forced) return;
  const p = location.pathname;
  let mode = null;
  if (new RegExp(data.butler).test(p)) mode = 'butler';
  else if (new RegExp(data.subscribe).test(p)) mode = 'subscribe';
  else {
    try {
      mode = localStorage.getItem(data.serviceKey) === 'butler' ? 'butler' : 'subscribe';
    } catch {
      /* storage blocked: the server-rendered mode stays */
    }
  }
  if (mode) document.getElementById('site-header').dataset.mode = mode;
})();
