// Runs before paint so a protected page never flashes for a visitor (rules: src/stores/session.ts).
// A file, not an inline script, so the Content-Security-Policy needs no hash for it
// (src/api/security-headers.ts); the guard and the storage keys come as data attributes.
(function () {
  const data = document.currentScript.dataset;
  const guard = data.guard, keys = JSON.parse(data.keys);
  const ls = window.localStorage, now = Math.floor(Date.now() / 1000);
  const token = ls.getItem(keys.access), exp = ls.getItem(keys.expiry);
  // A lapsed access token with a refresh token is still a session: src/client/refresh.ts renews it.
  const valid = !!token && (exp === null || now < Number(exp) || !!ls.getItem(keys.refresh));
  if (token && !valid) {
    [keys.access, keys.refresh, keys.expiry, keys.identity].forEach(function (k) { ls.removeItem(k); });
    document.cookie = keys.userCookie + '=; Max-Age=0; path=/';
  }
  if (guard === 'user' && !valid) {
    ls.setItem(keys.redirect, location.pathname + location.search);
    location.replace('/login');
  } else if (guard === 'guest' && valid) {
    location.replace('/my');
  }
})();
