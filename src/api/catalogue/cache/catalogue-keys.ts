import { LRUCache } from 'lru-cache';
import { GarageQuerySchema, IdSchema } from '../../../domain/schemas/catalogue';

/**
 * Which GET paths of the API are catalogue reads, and the cache key of each request: the
 * path's kind plus its input normalised through the very zod schemas the routes parse it
 * with. Inputs the route would answer the same way share one key (parameter order, repeated
 * values, unknown parameters, defaults); inputs the route would refuse get no key at all, so
 * they reach the route and its 400. Routes that read no query ignore it entirely.
 */
export interface CatalogueRead {
  key: string;
  /** The answer carries bookings (butler reserved days, cars taken by a subscription or a hold), which change without the catalogue. */
  reservations: boolean;
  /** Kept at most this long: a hold lapses by the clock, with no write to drop the answer. */
  maxAgeMs?: number;
}

/** How long a garage answer filtered to "지금 구독 가능" is kept (the availability read's max-age too). */
const TAKEN_CARS_MAX_AGE_MS = 30_000;

type Keyer = (param: string | undefined, search: string, query: () => Record<string, string[]>) => string | null;

const idKey = (kind: string): Keyer => (param) => {
  const parsed = IdSchema.safeParse(param);
  return parsed.success ? `${kind}:${parsed.data}` : null;
};
const fixed = (kind: string): Keyer => () => kind;
const sortedUnique = <T extends string | number>(list: T[]) => [...new Set(list)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * Normalised keys by raw query string: the same URL (the common case under load) skips zod.
 * Pure (the raw string alone decides the key), and bounded like everything else here.
 */
const garageKeys = new LRUCache<string, { key: string | null }>({ max: 2048, maxSize: 1024 * 1024 });
const MEMO_MAX_QUERY = 512;

/** garageKey for a request: `search` is the raw query string (memo key), `query` parses it (called on a memo miss). */
function garageKeyOf(search: string, query: () => Record<string, string[]>): string | null {
  const known = garageKeys.get(search);
  if (known) return known.key;
  const key = garageKey(query());
  if (search.length <= MEMO_MAX_QUERY) garageKeys.set(search, { key }, { size: search.length + (key?.length ?? 0) + 64 });
  return key;
}

/** The garage query as the route sees it (repeated keys as arrays, like parseQuery), normalised. */
export function garageKey(all: Record<string, string[]>): string | null {
  const input: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(all)) input[key] = values.length === 1 ? values[0] : values;
  const parsed = GarageQuerySchema.safeParse(input);
  if (!parsed.success) return null;
  const q = parsed.data;
  // `order` only matters with a `sort` (see catalogue/garage-index.ts); brand/model/month are sets.
  return `garage:${JSON.stringify([q.available_only, sortedUnique(q.brand), sortedUnique(q.model), sortedUnique(q.month), q.sort ?? null, q.sort ? q.order : null, q.page])}`;
}

const GARAGE = /^\/subscriptions\/garages$/;

/** A garage key of available_only=true (garageKey's array starts with it): the answer leaves out taken cars. */
const availableOnly = (key: string) => key.startsWith('garage:[true,');

/** `maxAgeMs` applies to the reads that carry bookings. */
const READS: { pattern: RegExp; key: Keyer; reservations?: boolean | ((key: string) => boolean); maxAgeMs?: number }[] = [
  { pattern: /^\/subscriptions\/cars$/, key: fixed('cars') },
  { pattern: /^\/subscriptions\/cars\/([^/]+)$/, key: idKey('car') },
  { pattern: GARAGE, key: (_, search, query) => garageKeyOf(search, query), reservations: availableOnly, maxAgeMs: TAKEN_CARS_MAX_AGE_MS },
  { pattern: /^\/subscriptions\/models$/, key: fixed('models') },
  { pattern: /^\/subscriptions\/models\/([^/]+)$/, key: idKey('model') },
  { pattern: /^\/butlers\/cars$/, key: fixed('butler-cars'), reservations: true },
  { pattern: /^\/butlers\/cars\/([^/]+)$/, key: idKey('butler-car'), reservations: true },
  { pattern: /^\/catalogue\/?$/, key: fixed('catalogue'), reservations: true },
  { pattern: /^\/services\/faqs$/, key: fixed('faqs') },
  { pattern: /^\/services\/faqs\/([^/]+)$/, key: idKey('faq') },
  { pattern: /^\/services\/terms$/, key: fixed('terms') },
  { pattern: /^\/services\/terms\/([^/]+)$/, key: idKey('term') },
  { pattern: /^\/services\/privacy-policies$/, key: fixed('privacy') },
  { pattern: /^\/services\/privacy-policies\/([^/]+)$/, key: idKey('privacy') },
];

/**
 * The catalogue read at `path` (relative to the API's mount point), or null when the path is
 * not a catalogue read or its input is invalid. `search` is the raw query string; `query` (its
 * parsed form, repeated keys as arrays) is only called for routes that read one.
 */
export function catalogueRead(path: string, search: string, query: () => Record<string, string[]>): CatalogueRead | null {
  for (const read of READS) {
    const match = read.pattern.exec(path);
    if (!match) continue;
    const key = read.key(match[1], search, query);
    if (key === null) return null;
    const reservations = typeof read.reservations === 'function' ? read.reservations(key) : Boolean(read.reservations);
    return reservations && read.maxAgeMs ? { key, reservations, maxAgeMs: read.maxAgeMs } : { key, reservations };
  }
  return null;
}
