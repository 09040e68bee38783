import { FEATURED_BRAND_SLUGS, FEE_TERMS, GARAGE_PAGE_SIZE, OTHERS_SLUG, type Car } from '../../domain/car';
import type { GarageQuery } from '../../domain/schemas/catalogue';

/**
 * The live cars of one catalogue version, held in memory so a garage filter nobody asked for
 * before costs a few bit operations instead of a query. Each filter value has a bitset over the
 * cars (bit i: the i-th car by id); a query ANDs the ones it names, counts the bits for its
 * total and walks the requested order only until its page is full. The rules are the SQL's, one
 * for one: tests/api/garage-index.test.ts asks both.
 *
 * No car is kept as an object: their JSON is one buffer (outside V8's heap), the sort keys are
 * typed arrays. With 100,000 cars as objects (millions of small ones) every full collection of
 * the heap walked them all and held answers back for hundreds of milliseconds. The index is made
 * a slice of cars at a time (the server answers other requests between slices), and each order
 * is sorted on its first use.
 */
export interface GarageIndex {
  version: number;
  /** Live cars (by id): how many, and each one's id. */
  count: number;
  ids: Int32Array;
  /** Each car's JSON (JSON.stringify of the API's Car), one after another: car i is json[offsets[i], offsets[i + 1]). */
  json: Buffer;
  offsets: Int32Array;
  /** Bitsets (ceil(count / 32) words) per brand slug, model id and fee term, and of the subscriptable cars. */
  byBrand: Map<string, Uint32Array>;
  byModel: Map<number, Uint32Array>;
  byTerm: Map<number, Uint32Array>;
  subscriptable: Uint32Array;
  /** Per car: the day it can be subscribed from (YYYYMMDD, 0: any day). */
  availableFrom: Int32Array;
  /** Per car, what the orders sort by (NaN or 0: none; hot 1, new 2 in `flags`). */
  keys: { fee: Float64Array; mileage: Float64Array; released: Int32Array; flags: Uint8Array };
  /** Subscriptable cars available on a day (from null or not after it), for the last day asked. */
  available?: { day: string; bits: Uint32Array };
  /** Positions in each order a query asks for, sorted on first use. */
  orders: Map<string, Int32Array>;
  /** Home's answer (GET /subscriptions/cars: new and hot cars), as JSON. */
  home: Buffer;
}

const FEATURED = new Set<string>(FEATURED_BRAND_SLUGS);

const words = (n: number) => new Uint32Array(Math.ceil(n / 32));
const setBit = (bits: Uint32Array, i: number) => (bits[i >>> 5] |= 1 << (i & 31));
const hasBit = (bits: Uint32Array, i: number) => (bits[i >>> 5] & (1 << (i & 31))) !== 0;
/** A calendar day as a number that orders like it (YYYYMMDD). */
const dayNumber = (day: string) => Number(day.replaceAll('-', ''));

/** The bitset of `key` in `map`, made on first use. */
function bitsOf<K>(map: Map<K, Uint32Array>, key: K, n: number): Uint32Array {
  let bits = map.get(key);
  if (!bits) map.set(key, (bits = words(n)));
  return bits;
}

type SortField = NonNullable<GarageQuery['sort']>;

/** A car's sort value in the index (null: none, last in either direction). */
function sortValue(index: GarageIndex, field: SortField): (i: number) => number | null {
  const { fee, mileage, released } = index.keys;
  const number = (values: Float64Array) => (i: number) => (Number.isNaN(values[i]) ? null : values[i]);
  const day = (values: Int32Array) => (i: number) => values[i] || null;
  return { subscription_fee_minimum: number(fee), mileage: number(mileage), release_date: day(released), subscription_available_from: day(index.availableFrom) }[field];
}

/** ORDER BY the sort field (nulls last) or hot, new; then id: the SQL's order, over positions. */
function comparer(index: GarageIndex, q: Pick<GarageQuery, 'sort' | 'order'>): (a: number, b: number) => number {
  const { ids } = index;
  const { flags } = index.keys;
  if (!q.sort) return (a, b) => (flags[b] & 1) - (flags[a] & 1) || (flags[b] & 2) - (flags[a] & 2) || ids[a] - ids[b];
  const value = sortValue(index, q.sort);
  const direction = q.order === 'desc' ? -1 : 1;
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === y) return ids[a] - ids[b];
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * direction;
  };
}

const orderKey = (q: Pick<GarageQuery, 'sort' | 'order'>) => (q.sort ? `${q.sort}:${q.order}` : '');

/** Home's cars: 12 new ones by release day, newest first (no day first, as PostgreSQL sorts DESC), and 8 hot ones by id. */
export function homeOf(cars: readonly Car[]): { new_cars: Car[]; hot_cars: Car[] } {
  const byRelease = (a: Car, b: Car) =>
    a.release_date === b.release_date ? a.id - b.id : a.release_date === null ? -1 : b.release_date === null ? 1 : a.release_date < b.release_date ? 1 : -1;
  return {
    new_cars: cars.filter((car) => car.is_new).sort(byRelease).slice(0, 12),
    hot_cars: cars.filter((car) => car.is_hot).slice(0, 8),
  };
}

/** Lets the event loop run between slices of work on 100,000 cars. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const SLICE = 2000;

/** The index of a catalogue version's live cars (by id), made a slice at a time. The cars themselves are not kept. */
export async function garageIndex(version: number, rows: readonly { car: Car; brandSlug: string }[]): Promise<GarageIndex> {
  const n = rows.length;
  const parts: Buffer[] = [];
  const offsets = new Int32Array(n + 1);
  const index: GarageIndex = {
    version,
    count: n,
    ids: new Int32Array(n),
    json: Buffer.alloc(0),
    offsets,
    byBrand: new Map(),
    byModel: new Map(),
    byTerm: new Map(),
    subscriptable: words(n),
    availableFrom: new Int32Array(n),
    keys: { fee: new Float64Array(n), mileage: new Float64Array(n), released: new Int32Array(n), flags: new Uint8Array(n) },
    orders: new Map(),
    home: Buffer.from(JSON.stringify(homeOf(rows.map((r) => r.car)))),
  };
  for (let i = 0; i < n; i++) {
    if (i % SLICE === SLICE - 1) await turn();
    const { car, brandSlug } = rows[i];
    const json = Buffer.from(JSON.stringify(car));
    parts.push(json);
    offsets[i + 1] = offsets[i] + json.length;
    index.ids[i] = car.id;
    index.availableFrom[i] = car.subscription_available_from ? dayNumber(car.subscription_available_from) : 0;
    index.keys.fee[i] = car.subscription_fee_minimum ?? NaN;
    index.keys.mileage[i] = car.mileage ?? NaN;
    index.keys.released[i] = car.release_date ? dayNumber(car.release_date) : 0;
    index.keys.flags[i] = (car.is_hot ? 1 : 0) | (car.is_new ? 2 : 0);
    setBit(bitsOf(index.byBrand, brandSlug, n), i);
    setBit(bitsOf(index.byModel, car.model.id, n), i);
    for (const t of FEE_TERMS) if (car[`subscription_fee_${t}`] !== null) setBit(bitsOf(index.byTerm, t, n), i);
    if (car.is_subscriptable) setBit(index.subscriptable, i);
  }
  index.json = Buffer.concat(parts);
  return index;
}

/** The positions in the query's order, sorted the first time an order is asked for. */
function inOrder(index: GarageIndex, q: Pick<GarageQuery, 'sort' | 'order'>): Int32Array {
  const key = orderKey(q);
  let sorted = index.orders.get(key);
  if (!sorted) index.orders.set(key, (sorted = Int32Array.from(index.ids.keys()).sort(comparer(index, q))));
  return sorted;
}

/** The union of some bitsets (an empty one when none exists). */
function union(n: number, sets: (Uint32Array | undefined)[]): Uint32Array {
  const out = words(n);
  for (const bits of sets) if (bits) for (let w = 0; w < out.length; w++) out[w] |= bits[w];
  return out;
}

function intersect(into: Uint32Array, bits: Uint32Array): void {
  for (let w = 0; w < into.length; w++) into[w] &= bits[w];
}

function popcount(bits: Uint32Array): number {
  let total = 0;
  for (let v of bits) {
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    total += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return total;
}

/** Subscriptable cars available on `day` (the SQL: is_subscriptable and (from is null or from <= day)); kept for the last day asked. */
function availableOn(index: GarageIndex, day: string): Uint32Array {
  if (index.available?.day === day) return index.available.bits;
  const today = dayNumber(day);
  const bits = words(index.count);
  for (let i = 0; i < index.count; i++) if (hasBit(index.subscriptable, i) && index.availableFrom[i] <= today) setBit(bits, i);
  index.available = { day, bits };
  return bits;
}

/** The cars passing the garage's filters (live, available, brand or others, model, any of the terms), as a bitset. */
function matching(index: GarageIndex, q: GarageQuery, today: string): Uint32Array {
  const n = index.count;
  const out = words(n).fill(0xffffffff);
  if (q.available_only) intersect(out, availableOn(index, today));
  if (q.brand.length) {
    const others = q.brand.includes(OTHERS_SLUG);
    const slugs = q.brand.filter((b) => b !== OTHERS_SLUG);
    intersect(out, union(n, [...index.byBrand].filter(([slug]) => slugs.includes(slug) || (others && !FEATURED.has(slug))).map(([, bits]) => bits)));
  }
  if (q.model.length) intersect(out, union(n, q.model.map((id) => index.byModel.get(id))));
  if (q.month.length) intersect(out, union(n, q.month.map((t) => index.byTerm.get(t))));
  // The fill set bits past the last car: clear them so the count is right.
  if (n % 32) out[out.length - 1] &= (1 << n % 32) - 1;
  return out;
}

/** One page of the filtered, sorted garage (positions in the index) and the number of cars that match. */
export function garagePositions(index: GarageIndex, q: GarageQuery, today: string): { positions: number[]; total: number } {
  const bits = matching(index, q, today);
  const total = popcount(bits);
  const start = (q.page - 1) * GARAGE_PAGE_SIZE;
  const positions: number[] = [];
  if (start >= total) return { positions, total };
  let seen = 0;
  for (const i of inOrder(index, q)) {
    if (!hasBit(bits, i)) continue;
    if (seen++ >= start) positions.push(i);
    if (positions.length === GARAGE_PAGE_SIZE) break;
  }
  return { positions, total };
}

/** A car's JSON (a view into the index's buffer). */
export const carJson = (index: GarageIndex, position: number): Buffer => index.json.subarray(index.offsets[position], index.offsets[position + 1]);
