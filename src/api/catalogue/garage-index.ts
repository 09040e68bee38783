import { FEATURED_BRAND_SLUGS, FEE_TERMS, GARAGE_PAGE_SIZE, OTHERS_SLUG, type Car } from '../../domain/car';
import type { GarageQuery } from '../../domain/schemas/catalogue';

/**
 * The live cars of one catalogue version, held in memory so a garage filter nobody asked for
 * before costs a few bit operations instead of a query. Each filter value has a bitset over the
 * cars (bit i: the i-th car by id); a query ANDs the ones it names, counts the bits for its
 * total and walks the requested order only until its page is full. The rules are the SQL's, one
 * for one: tests/api/garage-index.test.ts asks both.
 *
 * No car is kept as an object: their JSON is one buffer (outside V8's heap), what the filters
 * and orders read are typed arrays (columns). With 100,000 cars as objects (millions of small
 * ones) every full collection of the heap walked them all and held answers back for hundreds of
 * milliseconds. An edit does not read every car again: the next version's index is the last
 * one with the cars whose row version moved (patchGarageIndex). Each order is sorted on its
 * first use.
 */
export interface GarageIndex {
  version: number;
  /** Live cars (by id): how many, and per car its id and row version (PostgreSQL's xmin). */
  count: number;
  ids: Int32Array;
  rowVersions: Uint32Array;
  /** The digest of the brands and models the cars' JSON shows (a change to them reads every car again). */
  models: string;
  /** Each car's JSON (JSON.stringify of the API's Car), one after another: car i is json[offsets[i], offsets[i + 1]). */
  json: Buffer;
  offsets: Int32Array;
  /** Per car: its brand (a number into brandSlugs), model, fee terms (bit i: FEE_TERMS[i]), flags (hot 1, new 2, subscriptable 4). */
  brandSlugs: string[];
  brand: Uint16Array;
  model: Int32Array;
  terms: Uint16Array;
  flags: Uint8Array;
  /** Per car, what the orders sort by (NaN or 0: none) and the day it can be subscribed from (YYYYMMDD, 0: any day). */
  fee: Float64Array;
  mileage: Float64Array;
  released: Int32Array;
  availableFrom: Int32Array;
  /** Bitsets (ceil(count / 32) words) per brand slug, model id and fee term, and of the subscriptable cars. */
  byBrand: Map<string, Uint32Array>;
  byModel: Map<number, Uint32Array>;
  byTerm: Map<number, Uint32Array>;
  subscriptable: Uint32Array;
  /** Subscriptable cars available on a day (from null or not after it), for the last day asked. */
  available?: { day: string; bits: Uint32Array };
  /** Positions in each order a query asks for, sorted on first use. */
  orders: Map<string, Int32Array>;
  /** Home's answer (GET /subscriptions/cars: new and hot cars), as JSON. */
  home: Buffer;
}

/** A live car as read from the database: the API's Car, its brand slug and its row version. */
export interface IndexRow {
  car: Car;
  brandSlug: string;
  rowVersion: number;
}

const FEATURED = new Set<string>(FEATURED_BRAND_SLUGS);
const HOT = 1;
const NEW = 2;
const SUBSCRIPTABLE = 4;

const words = (n: number) => new Uint32Array(Math.ceil(n / 32));
const setBit = (bits: Uint32Array, i: number) => (bits[i >>> 5] |= 1 << (i & 31));
const hasBit = (bits: Uint32Array, i: number) => (bits[i >>> 5] & (1 << (i & 31))) !== 0;
/** A calendar day as a number that orders like it (YYYYMMDD). */
const dayNumber = (day: string | null) => (day ? Number(day.replaceAll('-', '')) : 0);

/** Lets the event loop run between slices of work on 100,000 cars. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const SLICE = 2000;

/** Columns for `n` cars; filled by putCar or copyCar, then finished by finish(). */
function columns(version: number, n: number, models: string, brandSlugs: string[]): GarageIndex {
  return {
    version,
    count: n,
    ids: new Int32Array(n),
    rowVersions: new Uint32Array(n),
    models,
    json: Buffer.alloc(0),
    offsets: new Int32Array(n + 1),
    brandSlugs,
    brand: new Uint16Array(n),
    model: new Int32Array(n),
    terms: new Uint16Array(n),
    flags: new Uint8Array(n),
    fee: new Float64Array(n),
    mileage: new Float64Array(n),
    released: new Int32Array(n),
    availableFrom: new Int32Array(n),
    byBrand: new Map(),
    byModel: new Map(),
    byTerm: new Map(),
    subscriptable: words(n),
    orders: new Map(),
    home: Buffer.alloc(0),
  };
}

/** Car `row` at position i; its JSON goes to `parts`. */
function putCar(index: GarageIndex, i: number, row: IndexRow, parts: Buffer[]): void {
  const { car } = row;
  const json = Buffer.from(JSON.stringify(car));
  parts.push(json);
  index.offsets[i + 1] = index.offsets[i] + json.length;
  index.ids[i] = car.id;
  index.rowVersions[i] = row.rowVersion;
  let brand = index.brandSlugs.indexOf(row.brandSlug);
  if (brand < 0) brand = index.brandSlugs.push(row.brandSlug) - 1;
  index.brand[i] = brand;
  index.model[i] = car.model.id;
  index.terms[i] = FEE_TERMS.reduce((bits, t, k) => (car[`subscription_fee_${t}`] !== null ? bits | (1 << k) : bits), 0);
  index.flags[i] = (car.is_hot ? HOT : 0) | (car.is_new ? NEW : 0) | (car.is_subscriptable ? SUBSCRIPTABLE : 0);
  index.fee[i] = car.subscription_fee_minimum ?? NaN;
  index.mileage[i] = car.mileage ?? NaN;
  index.released[i] = dayNumber(car.release_date);
  index.availableFrom[i] = dayNumber(car.subscription_available_from);
}

/** Car at position j of `from` at position i of `index` (same brand numbers: `index` extends from's brandSlugs). */
function copyCar(index: GarageIndex, i: number, from: GarageIndex, j: number, parts: Buffer[]): void {
  const json = from.json.subarray(from.offsets[j], from.offsets[j + 1]);
  parts.push(json);
  index.offsets[i + 1] = index.offsets[i] + json.length;
  index.ids[i] = from.ids[j];
  index.rowVersions[i] = from.rowVersions[j];
  index.brand[i] = from.brand[j];
  index.model[i] = from.model[j];
  index.terms[i] = from.terms[j];
  index.flags[i] = from.flags[j];
  index.fee[i] = from.fee[j];
  index.mileage[i] = from.mileage[j];
  index.released[i] = from.released[j];
  index.availableFrom[i] = from.availableFrom[j];
}

/** The JSON of car i (a view into the index's buffer). */
export const carJson = (index: GarageIndex, i: number) => index.json.subarray(index.offsets[i], index.offsets[i + 1]);

/** Bitsets and home's answer, from the columns. */
function finish(index: GarageIndex, parts: Buffer[]): GarageIndex {
  const n = index.count;
  index.json = Buffer.concat(parts);
  for (let i = 0; i < n; i++) {
    setBit(bitsOf(index.byBrand, index.brandSlugs[index.brand[i]], n), i);
    setBit(bitsOf(index.byModel, index.model[i], n), i);
    for (const [k, t] of FEE_TERMS.entries()) if (index.terms[i] & (1 << k)) setBit(bitsOf(index.byTerm, t, n), i);
    if (index.flags[i] & SUBSCRIPTABLE) setBit(index.subscriptable, i);
  }
  index.home = homeOf(index);
  return index;
}

function homeOf(index: GarageIndex): Buffer {
  // Home: 12 new cars by release day, newest first (no day first, as PostgreSQL sorts DESC), and 8 hot ones by id.
  const positions = Array.from(index.ids.keys());
  const byRelease = (a: number, b: number) => {
    const x = index.released[a];
    const y = index.released[b];
    return x === y ? index.ids[a] - index.ids[b] : x === 0 ? -1 : y === 0 ? 1 : y - x;
  };
  const list = (cars: number[]) => cars.map((i) => carJson(index, i).toString()).join(',');
  const fresh = positions.filter((i) => index.flags[i] & NEW).sort(byRelease).slice(0, 12);
  const hot = positions.filter((i) => index.flags[i] & HOT).slice(0, 8);
  return Buffer.from(`{"new_cars":[${list(fresh)}],"hot_cars":[${list(hot)}]}`);
}

/** The bitset of `key` in `map`, made on first use. */
function bitsOf<K>(map: Map<K, Uint32Array>, key: K, n: number): Uint32Array {
  let bits = map.get(key);
  if (!bits) map.set(key, (bits = words(n)));
  return bits;
}

/** The index of a catalogue version's live cars (`rows`, by id), made a slice at a time. The cars themselves are not kept. */
export async function garageIndex(version: number, rows: readonly IndexRow[], models: string): Promise<GarageIndex> {
  const index = columns(version, rows.length, models, []);
  const parts: Buffer[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i % SLICE === SLICE - 1) await turn();
    putCar(index, i, rows[i], parts);
  }
  return finish(index, parts);
}

/**
 * The index of a new catalogue version from the last one: `rowVersions` of every live car now
 * (id → row version), and `changed`, the rows of the cars whose row version moved or that came.
 * A car the rows lack although its version moved (archived meanwhile) is left out; the next
 * version finds it again.
 */
export async function patchGarageIndex(from: GarageIndex, version: number, rowVersions: ReadonlyMap<number, number>, changed: readonly IndexRow[]): Promise<GarageIndex> {
  const rows = new Map(changed.map((row) => [row.car.id, row]));
  const ids = [...rowVersions.keys()].filter((id) => rows.has(id) || rowVersions.get(id) === versionOf(from, id)).sort((a, b) => a - b);
  if (ids.length === from.count && ids.every((id, i) => from.ids[i] === id) && changed.every((row) => from.brandSlugs.includes(row.brandSlug))) {
    return editedInPlace(from, version, rowVersions.size, rows);
  }
  const index = columns(version, ids.length, from.models, [...from.brandSlugs]);
  const parts: Buffer[] = [];
  let j = 0;
  for (const [i, id] of ids.entries()) {
    if (i % SLICE === SLICE - 1) await turn();
    const row = rows.get(id);
    if (row) putCar(index, i, row, parts);
    else {
      while (from.ids[j] < id) j++;
      copyCar(index, i, from, j, parts);
    }
  }
  return finish(index, parts);
}

/**
 * The usual edit: the same cars at the same positions, a few of them changed. The columns are
 * copied whole (memory copies), the JSON is the old buffer's runs around the new cars', the
 * bitsets and the orders already sorted are mended at the changed positions only: an edit costs
 * a few milliseconds at 100,000 cars, not a rebuild of every car (and re-sorting every order).
 */
function editedInPlace(from: GarageIndex, version: number, n: number, rows: ReadonlyMap<number, IndexRow>): GarageIndex {
  const at = [...rows.keys()].map((id) => positionOf(from, id)).sort((a, b) => a - b);
  const cloneSets = <K>(sets: Map<K, Uint32Array>) => new Map([...sets].map(([key, bits]) => [key, bits.slice()] as const));
  const index: GarageIndex = {
    ...from,
    version,
    rowVersions: from.rowVersions.slice(),
    brandSlugs: [...from.brandSlugs],
    brand: from.brand.slice(),
    model: from.model.slice(),
    terms: from.terms.slice(),
    flags: from.flags.slice(),
    fee: from.fee.slice(),
    mileage: from.mileage.slice(),
    released: from.released.slice(),
    availableFrom: from.availableFrom.slice(),
    offsets: new Int32Array(n + 1),
    byBrand: cloneSets(from.byBrand),
    byModel: cloneSets(from.byModel),
    byTerm: cloneSets(from.byTerm),
    subscriptable: from.subscriptable.slice(),
    available: undefined,
    orders: new Map(),
  };
  const fresh: Buffer[] = [];
  for (const i of at) {
    const scratch: Buffer[] = [];
    putCar(index, i, rows.get(from.ids[i])!, scratch);
    fresh.push(scratch[0]);
    // Out of every bitset it was in, then into those it belongs to now.
    const clear = (bits: Uint32Array) => (bits[i >>> 5] &= ~(1 << (i & 31)));
    for (const sets of [index.byBrand, index.byModel, index.byTerm]) for (const bits of sets.values()) clear(bits);
    clear(index.subscriptable);
    setBit(bitsOf(index.byBrand, index.brandSlugs[index.brand[i]], n), i);
    setBit(bitsOf(index.byModel, index.model[i], n), i);
    for (const [k, t] of FEE_TERMS.entries()) if (index.terms[i] & (1 << k)) setBit(bitsOf(index.byTerm, t, n), i);
    if (index.flags[i] & SUBSCRIPTABLE) setBit(index.subscriptable, i);
  }
  const parts: Buffer[] = [];
  let runFrom = 0;
  for (const [k, i] of at.entries()) {
    parts.push(from.json.subarray(from.offsets[runFrom], from.offsets[i]), fresh[k]);
    runFrom = i + 1;
  }
  parts.push(from.json.subarray(from.offsets[runFrom], from.offsets[n]));
  index.json = Buffer.concat(parts);
  for (let i = 0, k = 0; i < n; i++) {
    const length = at[k] === i ? fresh[k++].length : from.offsets[i + 1] - from.offsets[i];
    index.offsets[i + 1] = index.offsets[i] + length;
  }
  // Each order sorted already: the changed cars out, then merged back in where they sort now.
  const moved = new Set(at);
  for (const [key, sorted] of from.orders) {
    const [sort, order] = key ? key.split(':') : [];
    const compare = comparer(index, { sort: sort as SortField | undefined, order: order as GarageQuery['order'] });
    const changedInOrder = [...at].sort(compare);
    const out = new Int32Array(n);
    let o = 0;
    let c = 0;
    for (const p of sorted) {
      if (moved.has(p)) continue;
      while (c < changedInOrder.length && compare(changedInOrder[c], p) < 0) out[o++] = changedInOrder[c++];
      out[o++] = p;
    }
    while (c < changedInOrder.length) out[o++] = changedInOrder[c++];
    index.orders.set(key, out);
  }
  index.home = homeOf(index);
  return index;
}

/** A car's position in an index (binary search: ids ascend), or -1. */
function positionOf(index: GarageIndex, id: number): number {
  let lo = 0;
  let hi = index.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (index.ids[mid] === id) return mid;
    if (index.ids[mid] < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A car's row version in an index, or undefined. */
function versionOf(index: GarageIndex, id: number): number | undefined {
  const at = positionOf(index, id);
  return at < 0 ? undefined : index.rowVersions[at];
}

/** The cars whose row version differs from the index's, or that it lacks: the rows a patch reads. */
export function changedSince(from: GarageIndex, rowVersions: ReadonlyMap<number, number>): number[] {
  return [...rowVersions].filter(([id, v]) => versionOf(from, id) !== v).map(([id]) => id);
}

type SortField = NonNullable<GarageQuery['sort']>;

/** A car's sort value in the index (null: none, last in either direction). */
function sortValue(index: GarageIndex, field: SortField): (i: number) => number | null {
  const number = (values: Float64Array) => (i: number) => (Number.isNaN(values[i]) ? null : values[i]);
  const day = (values: Int32Array) => (i: number) => values[i] || null;
  return { subscription_fee_minimum: number(index.fee), mileage: number(index.mileage), release_date: day(index.released), subscription_available_from: day(index.availableFrom) }[field];
}

/** ORDER BY the sort field (nulls last) or hot, new; then id: the SQL's order, over positions. */
function comparer(index: GarageIndex, q: Pick<GarageQuery, 'sort' | 'order'>): (a: number, b: number) => number {
  const { ids, flags } = index;
  if (!q.sort) return (a, b) => (flags[b] & HOT) - (flags[a] & HOT) || (flags[b] & NEW) - (flags[a] & NEW) || ids[a] - ids[b];
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

/** The positions in the query's order, sorted the first time an order is asked for. */
function inOrder(index: GarageIndex, q: Pick<GarageQuery, 'sort' | 'order'>): Int32Array {
  const key = q.sort ? `${q.sort}:${q.order}` : '';
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
  for (let i = 0; i < index.count; i++) if (index.flags[i] & SUBSCRIPTABLE && index.availableFrom[i] <= today) setBit(bits, i);
  index.available = { day, bits };
  return bits;
}

/**
 * The cars passing the garage's filters (live, available, brand or others, model, any of the
 * terms), as a bitset. `taken`: cars a subscription or a hold occupies from the earliest start
 * (catalogue/inventory.ts), left out of "지금 구독 가능".
 */
function matching(index: GarageIndex, q: GarageQuery, today: string, taken: ReadonlySet<number>): Uint32Array {
  const n = index.count;
  const out = words(n).fill(0xffffffff);
  if (q.available_only) {
    intersect(out, availableOn(index, today));
    for (const id of taken) {
      const at = positionOf(index, id);
      if (at >= 0) out[at >>> 5] &= ~(1 << (at & 31));
    }
  }
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
export function garagePositions(index: GarageIndex, q: GarageQuery, today: string, taken: ReadonlySet<number> = new Set()): { positions: number[]; total: number } {
  const bits = matching(index, q, today, taken);
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
