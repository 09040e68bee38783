import type { Context, MiddlewareHandler } from 'hono';
import { COMPRESS_THRESHOLD, RESERVATIONS_CACHE_CONTROL, type CacheEntry, type CatalogueCache, type Encoding } from './catalogue-cache';
import { catalogueRead } from './catalogue-keys';
import { jsonBodyOf } from '../../http';

/**
 * The API's caching policy in one place (mounted once in app.ts, before the routes):
 *  - GET/HEAD of a catalogue read (see catalogue-keys.ts) is answered from the cache: the
 *    same bytes for every request of a catalogue version, compressed once (br or gzip by
 *    Accept-Encoding), with a strong ETag (304 on If-None-Match) and Cache-Control for CDNs.
 *    A miss runs the route once per key, however many requests wait for it; right after a
 *    catalogue edit the others are answered from the key's previous answer meanwhile (for at
 *    most STALE_WHILE_RECOMPUTING_MS after the edit, `X-Cache: STALE`, not kept by CDNs).
 *  - Every other answer (per-user data, errors, writes) gets `Cache-Control: no-store` unless
 *    its route chose otherwise.
 *  - Answers that carry bookings (butler reserved days; the garage filtered to "지금 구독 가능")
 *    are dropped by deps.onReservationChange(), which the butler and subscription order routes
 *    call after every booking, edit, confirmation and cancellation; the garage's also age out
 *    after 30 s, since a hold lapses by the clock alone.
 * Without a cache (tests that do not opt in) only the no-store rule applies.
 */
export function catalogueCacheMiddleware(cache?: CatalogueCache): MiddlewareHandler {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      await next();
      return noStore(c);
    }
    const read = cache ? catalogueRead(relativePath(c), rawQuery(c.req.url), () => c.req.queries()) : null;
    if (!cache || !read) {
      await next();
      return noStore(c);
    }
    const key = cache.keyOf(read.key, read.reservations);
    let state = 'HIT';
    let entry = cache.get(key) ?? null;
    const pending = entry ? undefined : cache.pending(key);
    if (pending) {
      // Another request computes this key after an edit: the previous answer, within its window.
      const stale = cache.stale(key);
      if (stale) return respond(c, cache, stale, 'STALE');
      entry = await pending;
    }
    if (!entry) {
      state = 'MISS';
      const finish = cache.begin(key);
      try {
        await next();
        entry = await capture(c, cache, key, read.reservations, read.maxAgeMs);
      } finally {
        finish(entry);
      }
      if (!entry) return noStore(c);
    }
    return respond(c, cache, entry, state);
  };
}

/** Which cache entry (and coding) answered a request in full: the fast path (fast-path.ts) replays such answers. */
const answeredFrom = new WeakMap<Request, { entry: CacheEntry; encoding: Encoding | null }>();
export const cachedAnswerOf = (req: Request) => answeredFrom.get(req);

/** The request path below the API's mount point (/api in the product, / in tests). */
function relativePath(c: Context): string {
  const base = c.req.routePath.replace(/\/?\*$/, '');
  return c.req.path.slice(base.length) || '/';
}

function rawQuery(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

function noStore(c: Context): void {
  if (!c.res.headers.has('cache-control')) c.res.headers.set('cache-control', 'no-store');
}

/** The route's answer as a cache entry, when it is a plain 200 JSON answer meant for everyone. */
async function capture(c: Context, cache: CatalogueCache, key: string, reservations: boolean, maxAgeMs?: number): Promise<CacheEntry | null> {
  const res = c.res;
  const type = res.headers.get('content-type') ?? '';
  if (res.status !== 200 || !type.startsWith('application/json') || res.headers.has('set-cookie') || res.headers.has('cache-control') || res.headers.has('content-encoding')) {
    return null;
  }
  return cache.store(key, jsonBodyOf(res) ?? Buffer.from(await res.arrayBuffer()), reservations, type, maxAgeMs);
}

async function respond(c: Context, cache: CatalogueCache, entry: CacheEntry, state: string): Promise<Response> {
  const encoding = entry.raw.length >= COMPRESS_THRESHOLD ? acceptedEncoding(c.req.header('accept-encoding')) : null;
  const headers: Record<string, string> = {
    'content-type': entry.contentType,
    // A stand-in answer is not for shared caches to keep: they ask again, and meet the new one.
    'cache-control': state === 'STALE' ? RESERVATIONS_CACHE_CONTROL : entry.cacheControl,
    etag: etagOf(entry, encoding),
    vary: 'Accept-Encoding',
    'x-cache': state,
  };
  if (etagMatches(c.req.header('if-none-match'), entry.hash)) return answer(c, null, 304, headers);
  let body = entry.raw;
  if (encoding) {
    try {
      const twin = cache.encoded(entry, encoding);
      body = twin instanceof Promise ? await twin : twin;
      headers['content-encoding'] = encoding;
    } catch {
      headers.etag = etagOf(entry, null);
    }
  }
  headers['content-length'] = String(body.length);
  if (c.req.method === 'GET' && state !== 'STALE') answeredFrom.set(c.req.raw, { entry, encoding: headers['content-encoding'] ? encoding : null });
  return answer(c, c.req.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), 200, headers);
}

/** Replaces whatever the route answered: assigning c.res directly would merge the route's headers (its Content-Length) in. */
function answer(c: Context, body: Uint8Array<ArrayBuffer> | null, status: 200 | 304, headers: Record<string, string>): Response {
  c.res = undefined;
  c.res = new Response(body, { status, headers });
  return c.res;
}

/** Strong ETag per representation: the content hash, with the coding as a suffix (like Apache's mod_deflate). */
function etagOf(entry: CacheEntry, encoding: Encoding | null): string {
  return `"${entry.hash}${encoding === 'br' ? '-br' : encoding === 'gzip' ? '-gz' : ''}"`;
}

/** If-None-Match against the content (weak comparison, any coding of the same content). */
export function etagMatches(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  for (const tag of header.split(',')) {
    const bare = tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '').replace(/-(br|gz)$/, '');
    if (bare === hash) return true;
  }
  return false;
}

let lastAccept: string | undefined;
let lastChoice: Encoding | null = null;

/** br when accepted (preferred at equal weight), else gzip, else none; q-values and `*` respected. */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  if (header === lastAccept) return lastChoice;
  let br: number | undefined;
  let gz: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';');
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]) || 0;
    }
    const coding = name.trim().toLowerCase();
    if (coding === 'br') br = q;
    else if (coding === 'gzip' || coding === 'x-gzip') gz = q;
    else if (coding === '*') any = q;
  }
  const brQ = br ?? any ?? 0;
  const gzQ = gz ?? any ?? 0;
  const choice: Encoding | null = brQ > 0 && brQ >= gzQ ? 'br' : gzQ > 0 ? 'gzip' : null;
  lastAccept = header;
  lastChoice = choice;
  return choice;
}
