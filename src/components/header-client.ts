/**
 * The header's behaviour (src/components/Header.astro): the brand font after load, the remembered
 * mode, the session links, the login-only links and the phone menu. Loaded from <head> by
 * src/layouts/Layout.astro: a module script in the body, though deferred, is a point where the parser
 * may paint the header alone, putting the first view's largest text in a later frame (issue 37).
 */
import { rememberMode } from '../stores/mode';
import { freshSession } from '../client/keep-alive';
import { $session, isLoggedIn, saveRedirect } from '../stores/session';
import { BRAND_FONT_CLASS, CORE_FONT, SUBSETS_CSS } from '../domain/fonts';
import { SIGNED_IN_CLASS } from '../page-scripts/before-paint';

// Pretendard (docs/decisions/fonts.md), after the load event so that no first view waits for a font.
// A browser without the core file fetches it now and draws with it from the next page on (switching
// faces on this page would move its text); one with it adds upstream's subsets, for the characters
// outside the core (such text shows in the system face until its file is cached).
const brandFont = () => {
  if (document.documentElement.classList.contains(BRAND_FONT_CLASS)) {
    document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: SUBSETS_CSS }));
    return;
  }
  // A moment after the load, when idle: the page's own late requests (lazy pictures, islands' calls) go first.
  setTimeout(() => requestIdleCallback(() => {
    // Revalidated: a cached copy of an older core (same address) is replaced before it is remembered.
    void fetch(CORE_FONT.href, { priority: 'low', cache: 'no-cache' })
      .then((res) => (res.ok ? res.arrayBuffer() : Promise.reject(new Error(String(res.status)))))
      .then(() => localStorage.setItem(CORE_FONT.storageKey, CORE_FONT.version))
      .catch(() => {});
  }, { timeout: 5000 }), 1000);
};
if (document.readyState === 'complete') brandFont();
else addEventListener('load', brandFont, { once: true });

rememberMode(location.pathname);
// MPA: a new page opens at the top (back/forward and reload keep the browser's restoration).
const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
if (nav?.type === 'navigate' && !location.hash) window.scrollTo(0, 0);

// A stored refresh token keeps an active user's session alive on every page.
freshSession();
const showSession = () => {
  const loggedIn = isLoggedIn();
  document.documentElement.classList.toggle(SIGNED_IN_CLASS, loggedIn);
  for (const a of document.querySelectorAll<HTMLAnchorElement>('[data-session-link]')) a.href = loggedIn ? '/my' : '/login';
};
showSession();
// A lapsed access token is renewed a moment later; a refresh the server refuses ends the session: the links follow.
$session.listen(showSession);
for (const a of document.querySelectorAll<HTMLAnchorElement>('[data-needs-login]')) {
  a.addEventListener('click', (e) => {
    if (isLoggedIn()) return;
    e.preventDefault();
    alert('로그인이 필요합니다.');
    saveRedirect(a.pathname);
    location.assign('/login');
  });
}

const button = document.getElementById('menu-button')!;
const menu = document.getElementById('mobile-menu')!;
const setOpen = (open: boolean) => {
  menu.hidden = !open;
  document.documentElement.classList.toggle('overflow-hidden', open);
  button.setAttribute('aria-expanded', String(open));
  button.setAttribute('aria-label', open ? '메뉴 닫기' : '메뉴 열기');
};
button.addEventListener('click', () => setOpen(Boolean(menu.hidden)));
menu.addEventListener('click', (e) => e.target === menu && setOpen(false));
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !menu.hidden) {
    setOpen(false);
    button.focus();
  }
});
