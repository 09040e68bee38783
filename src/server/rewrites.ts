/**
 * Per-user pages are one static shell each; the id is read from the URL by the island.
 * The local server applies these, and the same table is exported for static hosts
 * (public/_redirects and docs/nginx.conf are generated from it by scripts/write-rewrites.ts).
 */
export const SHELL_REWRITES: { pattern: RegExp; from: string; to: string }[] = [
  { pattern: /^\/car\/[^/]+\/?$/, from: '/car/:id', to: '/car/fallback/' },
  { pattern: /^\/subscribe\/request\/[^/]+\/?$/, from: '/subscribe/request/:id', to: '/subscribe/request/detail/' },
  { pattern: /^\/butler\/request\/[^/]+\/?$/, from: '/butler/request/:id', to: '/butler/request/detail/' },
  { pattern: /^\/butler\/subscribe\/[^/]+\/?$/, from: '/butler/subscribe/:id', to: '/butler/subscribe/detail/' },
];

/** The shell a path falls back to when no static page exists for it; any other path shows home. */
export function shellFor(pathname: string): string {
  return SHELL_REWRITES.find((r) => r.pattern.test(pathname))?.to ?? '/';
}
