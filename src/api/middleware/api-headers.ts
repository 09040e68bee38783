import type { MiddlewareHandler } from 'hono';

/** What a page on an allowed origin may send: the methods of the routes, the bearer token and JSON. */
export const CORS_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
export const CORS_HEADERS = 'Authorization, Content-Type, Accept';

/** CORS_ORIGINS: comma-separated origins (`https://luxe.kr,https://www.luxe.kr`); throws on anything that is not one. */
export function parseCorsOrigins(value: string | undefined): string[] {
  const out: string[] = [];
  for (const entry of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      /* reported below */
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, '')) {
      throw new Error(`CORS_ORIGINS: "${entry}" is not an origin (scheme://host[:port], no path; "*" is not allowed).`);
    }
    out.push(url.origin);
  }
  return out;
}

/**
 * Runs first on every API answer: `X-Content-Type-Options: nosniff`, and CORS for the
 * origins of CORS_ORIGINS only (none by default: same-origin only). An allowed origin gets
 * its own origin echoed (never `*`; the API authenticates with a bearer header, not cookies,
 * so no credentials mode either) and a preflight answered with the allowed methods and
 * headers; any other origin gets no CORS headers and its preflight falls through to the
 * router like any other request.
 */
export function apiHeaders(allowedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedOrigins);
  return async (c, next) => {
    const origin = c.req.header('origin');
    const corsOk = origin !== undefined && allowed.has(origin);
    if (corsOk && c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      return c.body(null, 204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': CORS_METHODS,
        'access-control-allow-headers': CORS_HEADERS,
        'access-control-max-age': '600',
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
    }
    await next();
    const headers = c.res.headers;
    headers.set('x-content-type-options', 'nosniff');
    if (allowed.size) headers.append('vary', 'Origin');
    if (corsOk) headers.set('access-control-allow-origin', origin);
  };
}
