import { GARAGE_SORT_FIELDS, MONTH_FILTER_OPTIONS, OTHERS_SLUG, type GarageSortField } from '../../domain/car';

/** The garage's filter state; it lives in the page URL so a filtered garage can be shared. */
export interface GarageFilters {
  brand: string | null;
  models: number[];
  month: number | null;
  availableOnly: boolean;
  sort: GarageSortField | null;
  order: 'asc' | 'desc';
}

export const DEFAULT_FILTERS: GarageFilters = { brand: null, models: [], month: null, availableOnly: false, sort: null, order: 'asc' };

/** Reads the filters from a query string; values the garage does not offer are dropped. */
export function filtersFromSearch(search: string): GarageFilters {
  const q = new URLSearchParams(search);
  const month = Number(q.get('month'));
  const sort = q.get('sort') as GarageSortField | null;
  const brand = q.get('brand')?.trim().toLowerCase() || null;
  return {
    brand: brand === 'all' ? null : brand,
    models: q.getAll('model').map(Number).filter((n) => Number.isInteger(n) && n > 0),
    month: (MONTH_FILTER_OPTIONS as readonly number[]).includes(month) ? month : null,
    availableOnly: q.get('available') === 'true',
    sort: sort && (GARAGE_SORT_FIELDS as readonly string[]).includes(sort) ? sort : null,
    order: q.get('order') === 'desc' ? 'desc' : 'asc',
  };
}

/** The page URL's query string for the filters ('' for the default garage). */
export function filtersToSearch(f: GarageFilters): string {
  const q = new URLSearchParams();
  if (f.brand) q.set('brand', f.brand);
  f.models.forEach((m) => q.append('model', String(m)));
  if (f.month) q.set('month', String(f.month));
  if (f.availableOnly) q.set('available', 'true');
  if (f.sort) {
    q.set('sort', f.sort);
    q.set('order', f.order);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Query of GET /subscriptions/garages for one page (pages start at 1). */
export function garageApiQuery(f: GarageFilters, page: number): string {
  const q = new URLSearchParams();
  if (f.availableOnly) q.set('available_only', 'true');
  if (f.brand) q.set('brand', f.brand);
  f.models.forEach((m) => q.append('model', String(m)));
  if (f.month) q.append('month', String(f.month));
  if (f.sort) {
    q.set('sort', f.sort);
    q.set('order', f.order);
  }
  q.set('page', String(page));
  return q.toString();
}

/** A brand is kept when the garage list has it, or it is 'others' (brands without a showcase entry). */
export function isKnownBrand(brand: string, list: { slug: string }[]): boolean {
  return brand === OTHERS_SLUG || list.some((b) => b.slug === brand);
}

/** The four sort fields, each ascending and descending, with Korean labels. */
export const SORT_OPTIONS: { sort: GarageSortField; order: 'asc' | 'desc'; label: string }[] = [
  { sort: 'subscription_fee_minimum', order: 'asc', label: '가격 낮은 순' },
  { sort: 'subscription_fee_minimum', order: 'desc', label: '가격 높은 순' },
  { sort: 'mileage', order: 'asc', label: '주행거리 짧은 순' },
  { sort: 'mileage', order: 'desc', label: '주행거리 긴 순' },
  { sort: 'release_date', order: 'desc', label: '출시일 최신 순' },
  { sort: 'release_date', order: 'asc', label: '출시일 오래된 순' },
  { sort: 'subscription_available_from', order: 'asc', label: '구독 가능일 빠른 순' },
  { sort: 'subscription_available_from', order: 'desc', label: '구독 가능일 늦은 순' },
];
