import type { MiddlewareHandler } from 'hono';
import { COMPRESS_THRESHOLD } from '../api/catalogue/cache/catalogue-cache';
import { compress } from '../api/compression';
import { acceptedEncoding } from '../api/catalogue/cache/catalogue-middleware';
import { jsonBodyOf } from '../api/http';

/**
 * Compression of the API's JSON answers (mounted on /api/* by the product). Unlike a generic
 * streaming compressor it reads the answer first: small answers (health, errors, most
 * per-user data) go out as they are with a Content-Length, large ones are compressed off the
 * event loop (src/api/compression.ts; one whose compression fails goes out as it is). Answers
 * already coded (the catalogue cache's) and streams (the chat's event stream) pass untouched.
 */
export function compressJsonAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || res.headers.has('content-encoding')) return;
    // The bytes of ok()'s answers are at hand; reading `res.body` of the others would build a stream for nothing.
    const known = jsonBodyOf(res);
    if (!known && (!res.body || !(res.headers.get('content-type') ?? '').startsWith('application/json'))) return;
    const length = res.headers.get('content-length');
    if (length !== null && Number(length) < COMPRESS_THRESHOLD) return;
    const raw = known ?? Buffer.from(await res.arrayBuffer());
    const encoding = acceptedEncoding(c.req.header('accept-encoding'));
    const headers = new Headers(res.headers);
    let body = raw;
    if (encoding && raw.length >= COMPRESS_THRESHOLD) {
      body = await compress(raw, encoding).catch(() => raw);
      if (body !== raw) headers.set('content-encoding', encoding);
      headers.append('vary', 'Accept-Encoding');
    }
    headers.set('content-length', String(body.length));
    // Replace rather than assign over: assigning c.res merges the old answer's headers in.
    c.res = undefined;
    // No statusText: the routes never set one, and reading it would build the route's whole fetch Response.
    c.res = new Response(body as Uint8Array<ArrayBuffer>, { status: res.status, headers });
  };
}
