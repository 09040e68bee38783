import { FEATURED_BRAND_SLUGS, FEE_TERMS, GARAGE_PAGE_SIZE, OTHERS_SLUG, type Car } from '../../domain/car';
import type { GarageQuery } from '../../domain/schemas/catalogue';

/**
 * The live cars of one catalogue version, held in memory so a garage filter nobody asked for
 * before costs a few bit operations instead of a query. Each filter value has a bitset over the
 * cars (bit i: the i-th car by id); a query ANDs the ones it names, counts the bits for its
 * total and walks the requested order only until its page is full. Each car's JSON is written
 * once per version. The rules are the SQL's, one for one: tests/api/garage-index.test.ts asks both.
 */
export interface GarageIndex {
  version: number;
  /** Live cars by id. */
  cars: Car[];
  /** Bitsets (Uint32Array of ceil(n / 32) words) over `cars`, per brand slug, model id, fee term and the subscriptable flag. */
  byBrand: Map<string, Uint32Array>;
  byModel: Map<number, Uint32Array>;
  byTerm: Map<number, Uint32Array>;
  subscriptable: Uint32Array;
  /** Subscriptable cars available on a day (from null or not after it), for the last day asked. */
  available?: { day: string; bits: Uint32Array };
  /** Positions in `cars` in each order a query asks for, sorted once per version on first use. */
  orders: Map<string, Int32Array>;
  /** Each car's JSON (UTF-8), written on first use. */
  json: (Buffer | undefined)[];
  /** Home's new and hot cars (GET /subscriptions/cars), made once per version. */
  home?: { new_cars: Car[]; hot_cars: Car[] };
}

const FEATURED = new Set<string>(FEATURED_BRAND_SLUGS);

const words = (n: number) => new Uint32Array(Math.ceil(n / 32));
const setBit = (bits: Uint32Array, i: number) => (bits[i >>> 5] |= 1 << (i & 31));
const hasBit = (bits: Uint32Array, i: number) => (bits[i >>> 5] & (1 << (i & 31))) !== 0;

/** The bitset of `key` in `map`, made on first use. */
function bitsOf<K>(map: Map<K, Uint32Array>, key: K, n: number): Uint32Array {
  let bits = map.get(key);
  if (!bits) map.set(key, (bits = words(n)));
  return bits;
}

export function garageIndex(version: number, rows: { car: Car; brandSlug: string }[]): GarageIndex {
  const n = rows.length;
  const index: GarageIndex = { version, cars: [], byBrand: new Map(), byModel: new Map(), byTerm: new Map(), subscriptable: words(n), orders: new Map(), json: new Array<Buffer | undefined>(n) };
  for (const [i, { car, brandSlug }] of rows.entries()) {
    index.cars.push(car);
    setBit(bitsOf(index.byBrand, brandSlug, n), i);
    setBit(bitsOf(index.byModel, car.model.id, n), i);
    for (const t of FEE_TERMS) if (car[`subscription_fee_${t}`] !== null) setBit(bitsOf(index.byTerm, t, n), i);
    if (car.is_subscriptable) setBit(index.subscriptable, i);
  }
  return index;
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
  const bits = words(index.cars.length);
  index.cars.forEach((car, i) => {
    if (hasBit(index.subscriptable, i) && (car.subscription_available_from === null || car.subscription_available_from <= day)) setBit(bits, i);
  });
  index.available = { day, bits };
  return bits;
}

/** The cars passing the garage's filters (live, available, brand or others, model, any of the terms), as a bitset. */
function matching(index: GarageIndex, q: GarageQuery, today: string): Uint32Array {
  const n = index.cars.length;
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

type SortField = NonNullable<GarageQuery['sort']>;
const sortValue: Record<SortField, (c: Car) => number | string | null> = {
  subscription_fee_minimum: (c) => c.subscription_fee_minimum,
  mileage: (c) => c.mileage,
  release_date: (c) => c.release_date,
  subscription_available_from: (c) => c.subscription_available_from,
};

/** ORDER BY the sort field (nulls last) or hot, new; then id: the SQL's order. */
function comparer(q: Pick<GarageQuery, 'sort' | 'order'>): (a: Car, b: Car) => number {
  if (!q.sort) return (a, b) => Number(b.is_hot) - Number(a.is_hot) || Number(b.is_new) - Number(a.is_new) || a.id - b.id;
  const value = sortValue[q.sort];
  const direction = q.order === 'desc' ? -1 : 1;
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === y) return a.id - b.id;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * direction;
  };
}

function inOrder(index: GarageIndex, q: Pick<GarageQuery, 'sort' | 'order'>): Int32Array {
  const key = q.sort ? `${q.sort}:${q.order}` : '';
  let sorted = index.orders.get(key);
  if (!sorted) {
    const compare = comparer(q);
    const { cars } = index;
    sorted = Int32Array.from(cars.keys()).sort((a, b) => compare(cars[a], cars[b]));
    index.orders.set(key, sorted);
  }
  return sorted;
}

/** One page of the filtered, sorted garage (positions in `index.cars`) and the number of cars that match. */
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

/** A car's JSON (JSON.stringify of the API's Car, as UTF-8), written once per version. */
export function carJson(index: GarageIndex, position: number): Buffer {
  return (index.json[position] ??= Buffer.from(JSON.stringify(index.cars[position])));
}

/** Home's cars: 12 new ones by release day, newest first (no day first, as PostgreSQL sorts DESC), and 8 hot ones by id. */
export function homeOf(index: GarageIndex): { new_cars: Car[]; hot_cars: Car[] } {
  const byRelease = (a: Car, b: Car) =>
    a.release_date === b.release_date ? a.id - b.id : a.release_date === null ? -1 : b.release_date === null ? 1 : a.release_date < b.release_date ? 1 : -1;
  index.home ??= {
    new_cars: index.cars.filter((car) => car.is_new).sort(byRelease).slice(0, 12),
    hot_cars: index.cars.filter((car) => car.is_hot).slice(0, 8),
  };
  return index.home;
}
