import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { todayInKorea } from '../../../domain/dates';
import { noteCatalogueChange } from '../catalogue';
import { noteBookingChange } from '../inventory';
import { CACHED_LEVELS, compress, type Encoding } from '../../compression';
import { wallMs } from '../../jobs/clock';

export type { Encoding };

/** What changed: the catalogue (cars, models, brands, FAQs, policies) or bookings (butler reserved days, cars taken by subscriptions and holds). */
export type ChangeKind = 'catalogue' | 'reservations';

/**
 * Tells other replicas about changes and hears theirs (PostgreSQL LISTEN/NOTIFY in
 * production, an in-memory bus in tests). `publish` never throws.
 */
export interface ChangeChannel {
  publish(kind: ChangeKind): void;
  subscribe(listener: (kind: ChangeKind) => void): void;
  close(): Promise<void>;
}

/** One cached answer: the JSON bytes once, and each compressed twin made once, on first demand. */
export interface CacheEntry {
  key: string;
  /** Content hash; the ETag of each representation is derived from it. */
  hash: string;
  raw: Buffer;
  contentType: string;
  br?: Buffer;
  gzip?: Buffer;
  pending: Partial<Record<Encoding, Promise<Buffer>>>;
  cacheControl: string;
  reservations: boolean;
  /** wallMs() after which the entry is no longer served (answers that age by the clock alone). */
  expiresAt?: number;
}

export interface CatalogueCacheOptions {
  /** Entries across both segments (default 1,000). */
  maxEntries?: number;
  /** Bytes of JSON plus compressed twins across both segments (default 64 MiB). */
  maxBytes?: number;
  /** The Korean calendar day; answers that depend on "today" (available_only, reserved days) change with it. */
  today?: () => string;
  channel?: ChangeChannel;
  /** How long after a catalogue bump the previous answer may stand in while its key is recomputed (default STALE_WHILE_RECOMPUTING_MS; 0: never). */
  staleMs?: number;
  /** The clock of that window (tests pass their own). */
  now?: () => number;
}

/** Browsers revalidate every time (a 304 costs nothing); shared caches may hold an answer for 10 s. */
const CATALOGUE_CACHE_CONTROL = 'public, max-age=0, s-maxage=10, stale-while-revalidate=60';
/** Reserved days change with every booking: shared caches revalidate every time too. */
export const RESERVATIONS_CACHE_CONTROL = 'public, no-cache';

/**
 * After a catalogue edit, while one request recomputes a key, the others asking for it are
 * answered from the previous generation's entry for at most this long after the edit (then
 * they wait, as before): one request per key waits instead of every connection.
 */
const STALE_WHILE_RECOMPUTING_MS = 1000;

/** Answers below this size are sent as they are (compression would not pay for itself). */
export const COMPRESS_THRESHOLD = 1024;


/**
 * The catalogue read cache. Keys carry the in-memory catalogue generation (bumped on a local
 * write, on a NOTIFY from another replica, or when the database's catalogue version moves), the
 * Korean day, and for answers with reserved days the reservations generation; a bump also
 * drops the dead entries at once. Memory is bounded by a segmented LRU: a new key enters the
 * small probation segment and moves to the protected one on its second read, so a stream of
 * one-off keys (random filters) only churns probation and cannot push popular answers out.
 * After a catalogue bump the dropped entries stand in for their keys for STALE_WHILE_RECOMPUTING_MS
 * while one request recomputes each (`stale`); they are held beside the new ones that long at most.
 */
export class CatalogueCache {
  readonly maxEntries: number;
  readonly maxBytes: number;
  private readonly probation: CacheSegment;
  private readonly main: CacheSegment;
  private readonly inflight = new Map<string, Promise<CacheEntry | null>>();
  private readonly today: () => string;
  private readonly channel?: ChangeChannel;
  private catalogueGeneration = 0;
  private reservationsGeneration = 0;
  /** The entries of earlier catalogue generations (by key without the generation), each servable until `until`. */
  private previous = new Map<string, { entry: CacheEntry; until: number }>();
  /** The latest deadline in `previous`: past it, all of it goes. */
  private previousUntil = 0;
  private readonly staleMs: number;
  private readonly now: () => number;
  readonly stats = { hits: 0, misses: 0, stores: 0, stale: 0 };

  constructor(opts: CatalogueCacheOptions = {}) {
    this.maxEntries = Math.max(2, Math.floor(opts.maxEntries ?? 1000));
    this.maxBytes = Math.max(2, Math.floor(opts.maxBytes ?? 64 * 1024 * 1024));
    const probationEntries = Math.max(1, Math.floor(this.maxEntries / 4));
    const probationBytes = Math.max(1, Math.floor(this.maxBytes / 4));
    this.probation = cacheSegment(probationEntries, probationBytes);
    this.main = cacheSegment(this.maxEntries - probationEntries, this.maxBytes - probationBytes);
    this.today = opts.today ?? koreanDayEverySecond();
    this.staleMs = Math.max(0, opts.staleMs ?? STALE_WHILE_RECOMPUTING_MS);
    this.now = opts.now ?? Date.now;
    this.channel = opts.channel;
    this.channel?.subscribe((kind) => this.drop(kind));
  }

  /** Entries held (both segments); never above maxEntries. */
  get size(): number {
    return this.probation.size + this.main.size;
  }

  /** Bytes held (JSON and compressed twins); never above maxBytes. */
  get bytes(): number {
    return this.probation.calculatedSize + this.main.calculatedSize;
  }

  /** The full key of a catalogue read: generations and day first, so a bump makes old keys unreachable. */
  keyOf(readKey: string, reservations: boolean): string {
    return `${this.generation(reservations)}|${this.today()}|${readKey}`;
  }

  get(key: string): CacheEntry | undefined {
    const hot = this.main.get(key);
    if (hot && expired(hot)) {
      this.main.delete(key);
      return undefined;
    }
    if (hot) {
      this.stats.hits++;
      return hot;
    }
    const warm = this.probation.get(key);
    if (warm && expired(warm)) {
      this.probation.delete(key);
      return undefined;
    }
    if (warm) {
      this.stats.hits++;
      this.probation.delete(key);
      this.main.set(key, warm);
      return warm;
    }
    return undefined;
  }

  /** `entry` when it is still the answer a read of its key gets now (counted as a hit), else undefined. */
  current(entry: CacheEntry): CacheEntry | undefined {
    if (!entry.key.startsWith(`${this.generation(entry.reservations)}|${this.today()}|`)) return undefined;
    return this.get(entry.key) === entry ? entry : undefined;
  }

  /** The answer another request for the same key is computing right now, if any. */
  pending(key: string): Promise<CacheEntry | null> | undefined {
    return this.inflight.get(key);
  }

  /**
   * The previous catalogue generation's answer for `key`, only while another request computes
   * `key` (the first reader after an edit always computes, so it gets the edit) and within
   * staleMs of the edit that made it stale. Counted in stats.stale.
   */
  stale(key: string): CacheEntry | undefined {
    if (!this.inflight.has(key)) return undefined;
    const unversioned = withoutGeneration(key);
    const slot = this.previous.get(unversioned);
    if (!slot) return undefined;
    if (this.now() >= slot.until || expired(slot.entry)) {
      this.previous.delete(unversioned);
      return undefined;
    }
    this.stats.stale++;
    return slot.entry;
  }

  /** `entry` when it is, right now, the stand-in stale() answers for its read in the current generation. */
  standIn(entry: CacheEntry): CacheEntry | undefined {
    const unversioned = withoutGeneration(entry.key);
    if (this.previous.get(unversioned)?.entry !== entry || !unversioned.startsWith(`${this.today()}|`)) return undefined;
    return this.stale(`${this.generation(entry.reservations)}|${unversioned}`);
  }

  /** Marks `key` as being computed; call the returned function with the entry (or null) when done. */
  begin(key: string): (entry: CacheEntry | null) => void {
    this.stats.misses++;
    if (this.previous.size && this.now() >= this.previousUntil) this.previous.clear();
    let settle!: (entry: CacheEntry | null) => void;
    const promise = new Promise<CacheEntry | null>((resolve) => (settle = resolve));
    if (!this.inflight.has(key)) this.inflight.set(key, promise);
    return (entry) => {
      if (this.inflight.get(key) === promise) this.inflight.delete(key);
      settle(entry);
    };
  }

  /**
   * An entry for a fresh answer. It is kept only when `key` is still current (no bump happened
   * while the answer was computed, so it cannot be older than the last write); either way the
   * request that computed it is answered from it.
   */
  store(key: string, raw: Buffer, reservations: boolean, contentType = 'application/json', maxAgeMs?: number): CacheEntry {
    const entry: CacheEntry = {
      key,
      hash: createHash('sha256').update(raw).digest('base64url').slice(0, 27),
      raw,
      contentType,
      pending: {},
      cacheControl: reservations ? RESERVATIONS_CACHE_CONTROL : CATALOGUE_CACHE_CONTROL,
      reservations,
      ...(maxAgeMs ? { expiresAt: wallMs() + maxAgeMs } : {}),
    };
    if (key.slice(0, key.indexOf('|')) === this.generation(reservations)) {
      this.probation.set(key, entry);
      this.stats.stores++;
    }
    return entry;
  }

  /** The compressed twin, made once per entry (off the event loop, src/api/compression.ts). */
  encoded(entry: CacheEntry, encoding: Encoding): Buffer | Promise<Buffer> {
    const done = entry[encoding];
    if (done) return done;
    return (entry.pending[encoding] ??= compress(entry.raw, encoding, CACHED_LEVELS).then((buf) => {
      entry[encoding] = buf;
      delete entry.pending[encoding];
      reweigh(this.probation, entry);
      reweigh(this.main, entry);
      return buf;
    }));
  }

  /** A local write: drop what it made stale here and tell the other replicas. */
  changed(kind: ChangeKind): void {
    this.drop(kind);
    this.channel?.publish(kind);
  }

  /** Drops stale answers (a local write, another replica's, or the database version moved). */
  drop(kind: ChangeKind): void {
    if (kind === 'catalogue') {
      // The garage index reads the version again too, so the answers cached next are the new catalogue's.
      noteCatalogueChange();
      this.catalogueGeneration++;
      this.keepAsPrevious();
      this.probation.clear();
      this.main.clear();
    } else {
      // The garage's taken cars are read again too (catalogue/inventory.ts).
      noteBookingChange();
      this.reservationsGeneration++;
      for (const segment of [this.probation, this.main]) {
        for (const [key, e] of [...segment.entries()]) if (e.reservations) segment.delete(key);
      }
      // A stand-in must not show bookings older than the last one either.
      for (const [key, slot] of [...this.previous]) if (slot.entry.reservations) this.previous.delete(key);
    }
  }

  /**
   * The entries held now become the stand-ins for their keys' next generation, until staleMs
   * from now; a stand-in kept from an earlier edit whose key was not computed since keeps its
   * own (earlier) deadline, so no answer stands in longer than staleMs after the edit it misses.
   */
  private keepAsPrevious(): void {
    const now = this.now();
    for (const [key, slot] of [...this.previous]) if (now >= slot.until) this.previous.delete(key);
    if (!this.staleMs) return;
    for (const segment of [this.probation, this.main]) {
      for (const [key, entry] of segment.entries()) if (!expired(entry)) this.previous.set(withoutGeneration(key), { entry, until: now + this.staleMs });
    }
    this.previousUntil = now + this.staleMs;
  }

  async close(): Promise<void> {
    await this.channel?.close();
  }

  /** Keys held, for tests and diagnostics. */
  keys(): string[] {
    return [...this.probation.rkeys(), ...this.main.rkeys()];
  }

  private generation(reservations: boolean): string {
    return reservations ? `${this.catalogueGeneration}.${this.reservationsGeneration}` : String(this.catalogueGeneration);
  }
}

/** A full key without its generations (the Korean day and the read): the same read in another generation. */
const withoutGeneration = (key: string) => key.slice(key.indexOf('|') + 1);

const expired = (entry: CacheEntry) => entry.expiresAt !== undefined && wallMs() >= entry.expiresAt;

/** The wall clock's Korean day, worked out at most once a second (it is read on every request). */
function koreanDayEverySecond(): () => string {
  let at = 0;
  let day = '';
  return () => {
    const now = wallMs();
    if (now - at >= 1000) {
      at = now;
      day = todayInKorea(new Date(now));
    }
    return day;
  };
}

type CacheSegment = LRUCache<string, CacheEntry>;

/**
 * One segment: bounded by entries and by weight (bytes of JSON and twins), least recently used
 * out first; an entry heavier than the whole segment is not kept. lru-cache is faster than the
 * Map LRU it replaced (`npm run bench -- --only cache`, default sizes: a hit 43 ns against 163,
 * a set that evicts 267 ns against 344).
 */
export function cacheSegment(maxEntries: number, maxBytes: number): CacheSegment {
  return new LRUCache<string, CacheEntry>({ max: maxEntries, maxSize: maxBytes, sizeCalculation: weight });
}

/**
 * Counts an entry's new compressed twin in its segment. lru-cache keeps the old size when the
 * same value is set again, so the entry goes out and back in (as the most recent, evicting
 * older ones or, if it alone is now too heavy, itself).
 */
export function reweigh(segment: CacheSegment, entry: CacheEntry): void {
  if (segment.peek(entry.key) !== entry) return;
  segment.delete(entry.key);
  segment.set(entry.key, entry);
}

function weight(entry: CacheEntry): number {
  return entry.raw.length + (entry.br?.length ?? 0) + (entry.gzip?.length ?? 0) + entry.key.length + 200;
}
