import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

/** What a page on an allowed origin may send: the methods of the routes, the bearer token and JSON. */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const CORS_HEADERS = ['Authorization', 'Content-Type', 'Accept'];

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
 * Runs first on every API answer: `X-Content-Type-Options: nosniff`, and CORS (hono/cors) for
 * the origins of CORS_ORIGINS only (none by default: same-origin only). An allowed origin gets
 * its own origin echoed (never `*`; the API authenticates with a bearer header, not cookies,
 * so no credentials mode either) and a preflight answered with the allowed methods and
 * headers. Any other origin never reaches cors(), which would answer every OPTIONS itself:
 * it gets no CORS headers and its preflight falls through to the router like any other request.
 */
export function apiHeaders(allowedOrigins: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedOrigins);
  const withCors = cors({
    origin: [...allowed],
    allowMethods: CORS_METHODS,
    allowHeaders: CORS_HEADERS,
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = c.req.header('origin');
    const preflight = c.req.method === 'OPTIONS';
    if (origin !== undefined && allowed.has(origin) && (!preflight || c.req.header('access-control-request-method'))) {
      const answer = await withCors(c, next);
      if (answer) {
        // The preflight cors() answered: never stored, and it varies with the method asked too.
        answer.headers.append('vary', 'Access-Control-Request-Method');
        answer.headers.set('cache-control', 'no-store');
        answer.headers.set('x-content-type-options', 'nosniff');
        return answer;
      }
    } else {
      await next();
      if (allowed.size) c.res.headers.append('vary', 'Origin');
    }
    c.res.headers.set('x-content-type-options', 'nosniff');
  };
}
