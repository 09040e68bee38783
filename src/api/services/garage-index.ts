import { FEATURED_BRAND_SLUGS, GARAGE_PAGE_SIZE, OTHERS_SLUG, type Car, type FeeTerm } from '../../domain/car';
import type { GarageQuery } from '../../domain/schemas/catalogue';

/**
 * The live cars of one catalogue version, held in memory so a garage filter nobody asked for
 * before costs a pass over an array instead of a query (10,000 cars: about a millisecond). The
 * rules are the SQL's, one for one: tests/api compare both on the same catalogue.
 */
export interface GarageIndex {
  version: number;
  /** Live cars by id, each with what the filters read that Car does not carry. */
  cars: IndexedCar[];
  /** The cars in each order a query asks for, sorted once per version on first use. */
  orders: Map<string, IndexedCar[]>;
}

export interface IndexedCar {
  car: Car;
  brandSlug: string;
}

const FEATURED = new Set<string>(FEATURED_BRAND_SLUGS);

type SortField = NonNullable<GarageQuery['sort']>;
const sortValue: Record<SortField, (c: Car) => number | string | null> = {
  subscription_fee_minimum: (c) => c.subscription_fee_minimum,
  mileage: (c) => c.mileage,
  release_date: (c) => c.release_date,
  subscription_available_from: (c) => c.subscription_available_from,
};

/** Whether a car passes the garage's filters (services/catalogue.ts garage() says the same in SQL). */
function matcher(q: GarageQuery, today: string): (entry: IndexedCar) => boolean {
  const slugs = new Set(q.brand.filter((b) => b !== OTHERS_SLUG));
  const others = q.brand.includes(OTHERS_SLUG);
  const modelIds = new Set(q.model);
  const months = q.month as FeeTerm[];
  return ({ car, brandSlug }) => {
    if (q.available_only && (!car.is_subscriptable || (car.subscription_available_from !== null && car.subscription_available_from > today))) return false;
    if (q.brand.length && !slugs.has(brandSlug) && !(others && !FEATURED.has(brandSlug))) return false;
    if (modelIds.size && !modelIds.has(car.model.id)) return false;
    if (months.length && !months.some((m) => car[`subscription_fee_${m}`] !== null)) return false;
    return true;
  };
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

export function garageIndex(version: number, cars: IndexedCar[]): GarageIndex {
  return { version, cars, orders: new Map() };
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
  const matches = matcher(q, today);
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
