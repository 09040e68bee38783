import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import { LRUCache } from 'lru-cache';
import { createServer, IncomingMessage, type OutgoingHttpHeaders, type RequestListener, type ServerOptions, type ServerResponse } from 'node:http';
import { RESERVATIONS_CACHE_CONTROL, type CacheEntry, type CatalogueCache, type Encoding } from '../api/catalogue/cache/catalogue-cache';
import { cachedAnswerOf, etagMatches } from '../api/catalogue/cache/catalogue-middleware';

/**
 * Catalogue cache hits answered at the socket, before the request becomes a fetch Request
 * and walks Hono's middleware (which costs more than the answer itself under load).
 *
 * The fast path never decides anything on its own: it only replays, for the exact raw URL
 * it saw, an answer the full pipeline already sent from a cache entry, with the very headers
 * every middleware put on it, and only while that entry is still the current one for its
 * key (same catalogue generation and Korean day), or, right after an edit, while it stands in
 * for its key as the full pipeline would answer it (catalogue-cache.ts stale()). Anything else (a first read, an Origin
 * header, a request body, HEAD, a different coding, an edit in between) goes the normal way.
 */
export class CatalogueFastPath {
  /** Raw URL plus representation → the answer replayed for it; bounded, so junk URLs cannot grow it. */
  private readonly replays = new LRUCache<string, Replay>({ max: 4096, maxSize: 4 * 1024 * 1024 });
  readonly stats = { served: 0 };

  constructor(private readonly cache: CatalogueCache) {}

  /**
   * Wraps the app's fetch (as @hono/node-server calls it) to remember each full answer sent
   * from a cache entry. Pass the result to `serve({ fetch })`.
   */
  recording(fetch: AppFetch) {
    return async (req: Request, env: HttpBindings | Http2Bindings): Promise<Response> => {
      const res = await fetch(req, env);
      const answered = res.status === 200 ? cachedAnswerOf(req) : undefined;
      if (answered && env.incoming instanceof IncomingMessage) this.remember(env.incoming, res, answered.entry, answered.encoding);
      return res;
    };
  }

  /** A `createServer` for `serve()` whose request listener tries the fast path first. */
  serverFactory(): typeof createServer {
    return ((options: ServerOptions, next: RequestListener) =>
      createServer(options, (req, res) => {
        if (!this.serve(req, res)) next(req, res);
      })) as typeof createServer;
  }

  private remember(req: IncomingMessage, res: Response, entry: CacheEntry, encoding: Encoding | null): void {
    const variant = replayable(req);
    // The coding must be the one the cache chose: then the body is the entry's own bytes.
    if (variant === null || !req.url || (res.headers.get('content-encoding') ?? null) !== encoding) return;
    if (res.headers.getSetCookie().length) return;
    const headers: OutgoingHttpHeaders = {};
    res.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'date') headers[name] = value;
    });
    headers['x-cache'] = 'HIT';
    this.replays.set(`${variant}|${req.url}`, { entry, encoding, headers }, { size: req.url.length + 600 });
  }

  private serve(req: IncomingMessage, res: ServerResponse): boolean {
    const variant = replayable(req);
    if (variant === null || !req.url) return false;
    const replay = this.replays.get(`${variant}|${req.url}`);
    if (!replay) return false;
    // Still the current answer: the entry is held under its key (an edit or a new Korean day drops or bypasses it).
    const entry = this.cache.current(replay.entry);
    // Or, right after an edit, the stand-in the full pipeline would answer too (while another request computes the key).
    const standIn = entry ? undefined : this.cache.standIn(replay.entry);
    if (!entry && !standIn) {
      this.replays.delete(`${variant}|${req.url}`);
      return false;
    }
    const served = (entry ?? standIn)!;
    const body = replay.encoding ? served[replay.encoding] : served.raw;
    if (!body) return false;
    this.stats.served++;
    // The header sets are made once per replay (an entry's bytes never change), not per request.
    const headers = entry ? replay.headers : (replay.stale ??= { ...replay.headers, 'cache-control': RESERVATIONS_CACHE_CONTROL, 'x-cache': 'STALE' });
    if (etagMatches(req.headers['if-none-match'], served.hash)) {
      const notModified = entry ? (replay.notModified ??= withoutCoding(headers)) : withoutCoding(headers);
      res.writeHead(304, notModified);
      res.end();
      return true;
    }
    const ok = entry ? (replay.ok ??= { ...headers, 'content-length': body.length }) : (replay.staleOk ??= { ...headers, 'content-length': body.length });
    res.writeHead(200, ok);
    res.end(body);
    return true;
  }
}

type AppFetch = (req: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;

interface Replay {
  entry: CacheEntry;
  encoding: Encoding | null;
  headers: OutgoingHttpHeaders;
  /** headers with the body's length, and without the coding for 304, once first sent. */
  ok?: OutgoingHttpHeaders;
  notModified?: OutgoingHttpHeaders;
  /** The same as a stand-in after an edit (catalogue-cache.ts stale()): not for shared caches to keep. */
  stale?: OutgoingHttpHeaders;
  staleOk?: OutgoingHttpHeaders;
}

function withoutCoding(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  const { 'content-encoding': _coding, ...rest } = headers;
  return rest;
}

/**
 * What distinguishes one representation of a URL's answer from another, or null for a request
 * the fast path leaves alone: not a bodiless GET, or cross-origin (CORS headers depend on it).
 */
function replayable(req: IncomingMessage): string | null {
  if (req.method !== 'GET') return null;
  const h = req.headers;
  if (h.origin !== undefined || h['content-length'] !== undefined || h['transfer-encoding'] !== undefined) return null;
  return `${h['accept-encoding'] ?? ''}|${String(h['x-forwarded-proto'] ?? '')}`;
}

/** `serve()` options that put the fast path in front of `fetch`. */
export function fastServe(cache: CatalogueCache, fetch: AppFetch) {
  const fast = new CatalogueFastPath(cache);
  return { fetch: fast.recording(fetch), createServer: fast.serverFactory() };
}
