import { FEATURED_BRAND_SLUGS, FEE_TERMS, GARAGE_PAGE_SIZE, OTHERS_SLUG, type Car } from '../../domain/car';
import type { GarageQuery } from '../../domain/schemas/catalogue';

/**
 * The live cars of one catalogue version, held in memory so a garage filter nobody asked for
 * before costs one pass over an array instead of a query. What the filters read is precomputed per
 * car (the brand as a number, the fee terms as bits), so a pass over 10,000 cars stays far under a
 * millisecond. The rules are the SQL's, one for one: tests/api/garage-index.test.ts asks both.
 */
export interface GarageIndex {
  version: number;
  /** Live cars by id. */
  cars: IndexedCar[];
  /** Brand slugs by the number the cars carry. */
  brandSlugs: string[];
  /** The cars in each order a query asks for, sorted once per version on first use. */
  orders: Map<string, IndexedCar[]>;
  /** Home's new and hot cars (GET /subscriptions/cars), made once per version. */
  home?: { new_cars: Car[]; hot_cars: Car[] };
}

export interface IndexedCar {
  car: Car;
  brand: number;
  /** Bit i set: the car has a fee for FEE_TERMS[i]. */
  terms: number;
}

const FEATURED = new Set<string>(FEATURED_BRAND_SLUGS);

export function garageIndex(version: number, rows: { car: Car; brandSlug: string }[]): GarageIndex {
  const brandSlugs: string[] = [];
  const brandNumber = new Map<string, number>();
  const cars = rows.map(({ car, brandSlug }) => {
    let brand = brandNumber.get(brandSlug);
    if (brand === undefined) brandNumber.set(brandSlug, (brand = brandSlugs.push(brandSlug) - 1));
    const terms = FEE_TERMS.reduce((bits, t, i) => (car[`subscription_fee_${t}`] !== null ? bits | (1 << i) : bits), 0);
    return { car, brand, terms };
  });
  return { version, cars, brandSlugs, orders: new Map() };
}

type SortField = NonNullable<GarageQuery['sort']>;
const sortValue: Record<SortField, (c: Car) => number | string | null> = {
  subscription_fee_minimum: (c) => c.subscription_fee_minimum,
  mileage: (c) => c.mileage,
  release_date: (c) => c.release_date,
  subscription_available_from: (c) => c.subscription_available_from,
};

/** Whether a car passes the garage's filters (the SQL: live, available, brand or others, model, any of the terms). */
function matcher(index: GarageIndex, q: GarageQuery, today: string): (entry: IndexedCar) => boolean {
  const others = q.brand.includes(OTHERS_SLUG);
  const slugs = q.brand.filter((b) => b !== OTHERS_SLUG);
  const brandOk = index.brandSlugs.map((slug) => slugs.includes(slug) || (others && !FEATURED.has(slug)));
  const modelIds = new Set(q.model);
  const termBits = FEE_TERMS.reduce((bits, t, i) => (q.month.includes(t) ? bits | (1 << i) : bits), 0);
  return ({ car, brand, terms }) =>
    (!q.available_only || (car.is_subscriptable && (car.subscription_available_from === null || car.subscription_available_from <= today))) &&
    (!q.brand.length || brandOk[brand]) &&
    (!modelIds.size || modelIds.has(car.model.id)) &&
    (!termBits || (terms & termBits) !== 0);
}

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

function inOrder(index: GarageIndex, q: Pick<GarageQuery, 'sort' | 'order'>): IndexedCar[] {
  const key = q.sort ? `${q.sort}:${q.order}` : '';
  let sorted = index.orders.get(key);
  if (!sorted) {
    const compare = comparer(q);
    index.orders.set(key, (sorted = [...index.cars].sort((a, b) => compare(a.car, b.car))));
  }
  return sorted;
}

/** One page of the filtered, sorted garage and the number of cars that match: one pass over the cars in the query's order. */
export function garagePage(index: GarageIndex, q: GarageQuery, today: string): { cars: Car[]; total: number } {
  const matches = matcher(index, q, today);
  const start = (q.page - 1) * GARAGE_PAGE_SIZE;
  const page: Car[] = [];
  let total = 0;
  for (const entry of inOrder(index, q)) {
    if (!matches(entry)) continue;
    if (total >= start && page.length < GARAGE_PAGE_SIZE) page.push(entry.car);
    total++;
  }
  return { cars: page, total };
}

/** Home's cars: 12 new ones by release day, newest first (no day first, as PostgreSQL sorts DESC), and 8 hot ones by id. */
export function homeOf(index: GarageIndex): { new_cars: Car[]; hot_cars: Car[] } {
  const byRelease = (a: Car, b: Car) =>
    a.release_date === b.release_date ? a.id - b.id : a.release_date === null ? -1 : b.release_date === null ? 1 : a.release_date < b.release_date ? 1 : -1;
  index.home ??= {
    new_cars: index.cars.filter((e) => e.car.is_new).map((e) => e.car).sort(byRelease).slice(0, 12),
    hot_cars: index.cars.filter((e) => e.car.is_hot).slice(0, 8).map((e) => e.car),
  };
  return index.home;
}
