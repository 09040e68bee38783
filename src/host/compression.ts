import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { COMPRESS_THRESHOLD } from '../api/cache/catalogue-cache';
import { acceptedEncoding } from '../api/cache/catalogue-middleware';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Compression of the API's JSON answers (mounted on /api/* by the product). Unlike a generic
 * streaming compressor it reads the answer first: small answers (health, errors, most
 * per-user data) go out as they are with a Content-Length, large ones are compressed in
 * zlib's thread pool. Answers already coded (the catalogue cache's) and streams (the chat's
 * event stream) pass untouched.
 */
export function compressJsonAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (c.req.method === 'HEAD' || !res.body || res.headers.has('content-encoding')) return;
    if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return;
    const length = res.headers.get('content-length');
    if (length !== null && Number(length) < COMPRESS_THRESHOLD) return;
    const encoding = acceptedEncoding(c.req.header('accept-encoding'));
    const raw = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    let body = raw;
    if (encoding && raw.length >= COMPRESS_THRESHOLD) {
      body = encoding === 'br' ? await brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }) : await gzip(raw, { level: 6 });
      headers.set('content-encoding', encoding);
      headers.append('vary', 'Accept-Encoding');
    }
    headers.set('content-length', String(body.length));
    // Replace rather than assign over: assigning c.res merges the old answer's headers in.
    c.res = undefined;
    c.res = new Response(body as Uint8Array<ArrayBuffer>, { status: res.status, statusText: res.statusText, headers });
  };
}
