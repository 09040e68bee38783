/**
 * The site's route table, declared once (spec 3 §2.1–2.4). Every consumer reads it: the page
 * guards (src/layouts/Layout.astro), the local server's shell rewrites (src/host/rewrites.ts)
 * and the files generated for static hosts from them (src/host/publish/static-host.ts), the header
 * mode (src/stores/mode.ts, src/components/Header.astro), the sitemap (astro.config.mjs) and
 * the tests.
 */

export type ServiceMode = 'subscribe' | 'butler';

/** 'user': login required (the path is saved, then /login); 'guest': logged out only (else /my). */
export type Guard = 'user' | 'guest';

interface Route {
  /** Path without a trailing slash; `:id` stands for one per-user path segment. */
  path: string;
  guard?: Guard;
  /** The one static page that serves every `:id` of this path (the island reads the id from the URL). */
  shell?: string;
  /** false: left out of sitemap.xml (guarded pages, guest pages and shells are always left out). */
  sitemap?: false;
}

const ROUTES: readonly Route[] = [
  // Subscription (구독)
  { path: '/' },
  { path: '/garage' },
  { path: '/cars' },
  { path: '/car/:id', shell: '/car/fallback/' },
  { path: '/inquire', guard: 'user' },
  { path: '/faq' },
  { path: '/about' },
  { path: '/contact' },
  { path: '/subscribe/request/:id', guard: 'user', shell: '/subscribe/request/detail/' },
  // Butler (의전)
  { path: '/butler' },
  // Open to visitors (spec §6); sending it needs a login, so it is not advertised.
  { path: '/butler/request', sitemap: false },
  { path: '/butler/request/:id', guard: 'user', shell: '/butler/request/detail/' },
  { path: '/butler/subscribe/:id', guard: 'user', shell: '/butler/subscribe/detail/' },
  // A company trip's passenger: the trip and its messages by the link in their 알림톡 (no login; issue 52).
  { path: '/butler/guest', sitemap: false },
  { path: '/chat' },
  { path: '/fleet' },
  // Accounts
  { path: '/login', guard: 'guest' },
  { path: '/signup', guard: 'guest' },
  { path: '/login/kakao', sitemap: false },
  { path: '/forgot-password', sitemap: false },
  { path: '/reset-password', sitemap: false },
  // My page and wallet (the app wraps /my, /coupon, /referral and /points in a login requirement)
  { path: '/my', guard: 'user' },
  { path: '/my/requests', guard: 'user' },
  { path: '/my/butler-requests', guard: 'user' },
  { path: '/my/subscriptions', guard: 'user' },
  { path: '/my/butler-subscriptions', guard: 'user' },
  { path: '/my/butler', guard: 'user' },
  { path: '/my/payments', guard: 'user' },
  // 법인 계정 (issue 52): the company page, and the invite link's landing (login first, then 수락).
  { path: '/my/company', guard: 'user' },
  { path: '/my/company/join', guard: 'user', sitemap: false },
  { path: '/coupon', guard: 'user' },
  { path: '/referral', guard: 'user' },
  { path: '/points', guard: 'user' },
  // Policies (footer)
  { path: '/privacy' },
  { path: '/terms' },
  // Staff console (staff accounts; the island refuses others)
  { path: '/admin', guard: 'user' },
  // The driver's phone (driver accounts; the island signs in and accepts invites itself)
  { path: '/driver', sitemap: false },
];

/** First path segments of each mode; home is 구독 too. Pages of neither (my page, login, …) keep the remembered mode. */
const MODE_SECTIONS: Record<ServiceMode, readonly string[]> = {
  butler: ['butler', 'chat', 'fleet'],
  subscribe: ['garage', 'car', 'cars', 'inquire', 'faq', 'about', 'contact', 'subscribe'],
};

/** Paths of the butler service. */
export const BUTLER_PATHS = new RegExp(`^\\/(${MODE_SECTIONS.butler.join('|')})(\\/|$)`);
/** Paths of the subscription service, home included. */
export const SUBSCRIBE_PATHS = new RegExp(`^\\/(${MODE_SECTIONS.subscribe.join('|')})?(\\/|$)`);

/** The mode a path belongs to, or null when it belongs to neither (my page, login, …). */
export function modeForPath(path: string): ServiceMode | null {
  if (BUTLER_PATHS.test(path)) return 'butler';
  if (path === '/' || SUBSCRIBE_PATHS.test(path)) return 'subscribe';
  return null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A regular expression for a table path: `:id` is one segment, a trailing slash is optional. */
function routePattern(path: string): RegExp {
  if (path === '/') return /^\/$/;
  return new RegExp(`^${path.split(':id').map(escape).join('[^/]+')}\\/?$`);
}

// The derived tables below are marked pure: the pages' scripts import this module for modeForPath
// alone and so carry none of them (nor ROUTES).
const compiled = /* @__PURE__ */ ROUTES.map((route) => ({ route, pattern: routePattern(route.path) }));

/** The table entry a path falls under (a shell page falls under its `:id` route), or undefined. */
function routeFor(pathname: string): Route | undefined {
  return compiled.find((c) => c.pattern.test(pathname))?.route;
}

/** The guard of a path, or null when anyone may open it. */
export function guardFor(pathname: string): Guard | null {
  return routeFor(pathname)?.guard ?? null;
}

export interface ShellRewrite {
  pattern: RegExp;
  /** The path in static-host syntax (`/car/:id`). */
  from: string;
  /** The shell page, with a trailing slash. */
  to: string;
}

/** Per-user paths served by one static shell each; any other path without a page shows home. */
export const SHELL_REWRITES: readonly ShellRewrite[] = /* @__PURE__ */ compiled.flatMap(({ route, pattern }) => (route.shell ? [{ pattern, from: route.path, to: route.shell }] : []));

/** The shell a path falls back to when no static page exists for it; any other path shows home. */
export function shellFor(pathname: string): string {
  return SHELL_REWRITES.find((r) => r.pattern.test(pathname))?.to ?? '/';
}

const shells = /* @__PURE__ */ new Set(/* @__PURE__ */ SHELL_REWRITES.map((r) => r.to.replace(/\/$/, '')));

/** Whether a page belongs in sitemap.xml: not guarded, not a per-user shell, not marked out. */
export function inSitemap(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (shells.has(path)) return false;
  const route = routeFor(path);
  return !route?.guard && route?.sitemap !== false;
}

/** A concrete path for a table path (`:id` → `id`), e.g. for tests. */
const examplePath = (path: string, id = '1') => path.replaceAll(':id', id);

/** Paths that need a login, with example ids (the e2e guard test walks them). */
export const GUARDED_PATHS: readonly string[] = /* @__PURE__ */ ROUTES.flatMap((r) => (r.guard === 'user' ? [examplePath(r.path)] : []));

/** Paths only for logged-out visitors. */
export const GUEST_PATHS: readonly string[] = /* @__PURE__ */ ROUTES.flatMap((r) => (r.guard === 'guest' ? [r.path] : []));
