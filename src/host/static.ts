import { getConnInfo } from '@hono/node-server/conninfo';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Env, MiddlewareHandler } from 'hono';
import { PHOTO_SITE_PREFIX } from '../domain/photos';
import { shellFor } from './rewrites';
import { requestIsHttps, siteSecurityHeaders } from '../api/security-headers';
import type { TrustedProxies } from '../api/trust-proxy';

const PRECOMPRESSED = /\.(br|gz|zst)$/;

/** Cache rules by the file served: hashed assets and photos (content-hash names) forever, pages revalidated, the rest an hour. */
export function cacheControl(file: string): string {
  const original = file.replace(PRECOMPRESSED, '');
  if (/[/\\](_astro|photos)[/\\]/.test(original)) return 'public, max-age=31536000, immutable';
  return original.endsWith('.html') ? 'no-cache' : 'public, max-age=3600';
}

/** The file each request was answered with (serveStatic reports it through onFound). */
const servedFile = new WeakMap<Context, string>();

/** serveStatic of @hono/node-server on one build folder: exact file or directory index, the brotli/gzip twin the client accepts. */
function filesOf(root: string) {
  const options = { root, precompressed: true, onFound: (file: string, c: Context) => void servedFile.set(c, file) };
  return [
    // The file for the request's path.
    serveStatic(options),
    // The per-user shell (or home) a path without a file of its own falls back to.
    serveStatic({ ...options, rewriteRequestPath: (path: string) => shellFor(path) }),
  ];
}

/** The first handler that finds a file answers; null when none does. */
async function firstFound(handlers: MiddlewareHandler[], c: Context<Env, string>): Promise<Response | null> {
  for (const handler of handlers) {
    const res = (await handler(c, async () => {})) as Response | undefined;
    if (res) return res;
  }
  return null;
}

/** The socket's peer address, or undefined in process (tests call app.request()). */
function peerOf(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** CSP and friends (src/api/security-headers.ts); HSTS when the request came over HTTPS. */
const securityHeaders = (c: Context, trustProxy?: TrustedProxies) =>
  siteSecurityHeaders({ apiBaseUrl: process.env.PUBLIC_API_BASE_URL, https: requestIsHttps(c.req.url, c.req.header('x-forwarded-proto'), peerOf(c), trustProxy) });

/** Serves the built site: static files, the per-user shells, and home for any unknown path; 503 until the first build. */
export function serveSite(getRoot: () => string | null, opts: { trustProxy?: TrustedProxies } = {}) {
  let current: { root: string; handlers: MiddlewareHandler[] } | null = null;
  return async (c: Context<Env, string>) => {
    const root = getRoot();
    if (!root) {
      return c.html('<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="3"><title>준비 중</title><p>사이트를 준비하고 있습니다. 잠시만 기다려주세요.</p>', 503, { 'retry-after': '3', ...securityHeaders(c, opts.trustProxy) });
    }
    if (current?.root !== root) current = { root, handlers: filesOf(root) };
    // A photo is its file or nothing (composeSite asks the API then), never the home page.
    const res = await firstFound(c.req.path.startsWith(PHOTO_SITE_PREFIX) ? current.handlers.slice(0, 1) : current.handlers, c);
    if (!res) return c.text('Not found', 404, securityHeaders(c, opts.trustProxy));
    res.headers.set('cache-control', cacheControl(servedFile.get(c) ?? ''));
    for (const [name, value] of Object.entries(securityHeaders(c, opts.trustProxy))) res.headers.set(name, value);
    res.headers.set('vary', 'accept-encoding');
    return res;
  };
}
