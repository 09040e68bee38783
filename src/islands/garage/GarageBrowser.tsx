import { useCallback, useEffect, useRef, useState } from 'react';
import { API_BASE_URL } from '../../config/services';
import { OTHERS_NAME, OTHERS_SLUG, type Car } from '../../domain/car';
import { todayInKorea } from '../../domain/dates';
import type { GarageBrand } from '../../domain/catalogue';
import type { ApiData, ApiPath } from '../../client/api';
import GarageCard from './GarageCard';
import { fetchAvailability } from '../../client/availability';
import type { CarAvailability } from '../../domain/availability';
import { BrandList, FilterBar } from './GarageFilters';
import { DEFAULT_FILTERS, filtersFromSearch, filtersToSearch, garageApiQuery, isKnownBrand, type GarageFilters } from './garage-query';

interface Page {
  cars: Car[];
  total: number;
  next: number | null;
}
interface Props {
  /** The first page of the default garage, rendered into the HTML at build. */
  initial: Page;
  brands: GarageBrand[];
  today: string;
}
type Status = 'idle' | 'loading' | 'more' | 'error';

/** One page of GET /subscriptions/garages with a plain fetch (as the spec does); throws on a non-OK answer. */
async function fetchGarage(f: GarageFilters, page: number, signal: AbortSignal) {
  const res = await fetch(`${API_BASE_URL}${'/subscriptions/garages' satisfies ApiPath}?${garageApiQuery(f, page)}`, { signal, headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error('Failed to fetch garage data');
  const { data } = (await res.json()) as { data: ApiData<'/subscriptions/garages'> };
  return data;
}

/** The garage: filters kept in the URL, page 1 refetched on every change, further pages appended on scroll. */
export default function GarageBrowser({ initial, brands: initialBrands, today: buildDay }: Props) {
  const [filters, setFilters] = useState<GarageFilters>(DEFAULT_FILTERS);
  const [brands, setBrands] = useState(initialBrands);
  const [page, setPage] = useState<Page & { number: number }>({ ...initial, number: 1 });
  const [status, setStatus] = useState<Status>('idle');
  const [today, setToday] = useState(buildDay);
  const [failedPage, setFailedPage] = useState(1);
  const request = useRef<AbortController | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);

  // Never rejects (a failure shows the error state), so callers start it and move on.
  const load = useCallback(async (f: GarageFilters, number: number) => {
    request.current?.abort();
    const ctl = (request.current = new AbortController());
    setStatus(number === 1 ? 'loading' : 'more');
    try {
      const data = await fetchGarage(f, number, ctl.signal);
      if (f.brand && !isKnownBrand(f.brand, data.garage_list)) {
        // A brand the garage does not list falls back to All.
        const all = { ...f, brand: null, models: [] };
        history.replaceState(null, '', `/garage${filtersToSearch(all)}`);
        setFilters(all);
        return void load(all, 1);
      }
      setBrands(data.garage_list);
      setPage((prev) => ({ cars: number === 1 ? data.cars : [...prev.cars, ...data.cars], total: data.pagination_info.count, next: data.pagination_info.next, number }));
      setStatus('idle');
    } catch (err) {
      if (ctl.signal.aborted) return;
      // The spec only logs this failure; a warning keeps it out of the error console.
      console.warn('Failed to fetch garage data', err);
      setFailedPage(number);
      setStatus('error');
    }
  }, []);

  // The URL decides the filters: on arrival (after hydrating the pre-rendered page) and on back/forward.
  useEffect(() => {
    setToday(todayInKorea(new Date()));
    const fromUrl = (arrival: boolean) => {
      const f = filtersFromSearch(location.search);
      setFilters(f);
      // The pre-rendered first page is the default garage; anything else is fetched.
      if (!arrival || location.search) void load(f, 1);
    };
    fromUrl(true);
    const onPop = () => fromUrl(false);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [load]);

  const change = (next: Partial<GarageFilters>) => {
    const f = { ...filters, ...next };
    history.pushState(null, '', `/garage${filtersToSearch(f)}`);
    setFilters(f);
    void load(f, 1);
  };

  // Infinite scroll: the next page when the sentinel comes within 400 px.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || status !== 'idle' || !page.next) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && page.next) void load(filters, page.next);
      },
      { rootMargin: '400px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [status, page, filters, load]);

  // What is true now (holds, confirmations) for the months filter's term: one small read for the cars shown that were not read yet for it.
  const [live, setLive] = useState(() => new Map<string, CarAvailability>());
  const shownIds = page.cars.map((c) => c.id).join(',');
  const liveKey = (id: number) => `${filters.month ?? ''}:${id}`;
  useEffect(() => {
    const month = filters.month;
    const missing = shownIds ? shownIds.split(',').map(Number).filter((id) => !live.has(`${month ?? ''}:${id}`)) : [];
    if (!missing.length) return;
    let stale = false;
    void fetchAvailability(missing, { month }).then((found) => {
      if (!stale && found.size) setLive((prev) => new Map([...prev, ...[...found].map(([id, a]) => [`${month ?? ''}:${id}`, a] as const)]));
    });
    return () => {
      stale = true;
    };
  }, [shownIds, live, filters.month]);

  const title = filters.brand === OTHERS_SLUG ? OTHERS_NAME : (brands.find((b) => b.slug === filters.brand)?.name ?? '전체 브랜드');
  const busy = status === 'loading';
  // Page 1 failed: neither the old cars nor their count stand for the chosen filters.
  const failedFirst = status === 'error' && failedPage === 1;
  const showGrid = !busy && !failedFirst;
  return (
    <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 md:grid-cols-[200px_1fr] md:px-6 md:py-14">
      <aside className="hidden md:block">
        <BrandList filters={filters} brands={brands} onChange={change} />
      </aside>
      <div className="min-w-0">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h1 className="font-serif text-3xl md:text-4xl" data-testid="garage-title">{title}</h1>
          <p className="text-xs font-semibold text-muted" data-testid="garage-count" aria-live="polite">
            {failedFirst ? '' : `${page.cars.length} / ${page.total}대`}
          </p>
        </div>
        <div className="mt-6">
          <FilterBar filters={filters} brands={brands} onChange={change} />
        </div>
        {busy && <p className="py-16 text-center text-sm text-muted" role="status">차량 정보를 불러오는 중...</p>}
        {status === 'idle' && page.cars.length === 0 && <p className="py-16 text-center text-sm text-muted">조건에 맞는 차량이 없습니다.</p>}
        {showGrid && (
          <ul className="mt-8 grid grid-cols-1 gap-x-6 gap-y-10 sm:grid-cols-2 lg:grid-cols-3" data-testid="garage-grid">
            {page.cars.map((car, i) => (
              <li key={car.id} className={i === 0 ? 'sm:col-span-2' : ''}>
                <GarageCard car={car} featured={i === 0} today={today} months={filters.month ? [filters.month] : []} availability={live.get(liveKey(car.id))} />
              </li>
            ))}
          </ul>
        )}
        {status === 'error' && (
          <div className="py-16 text-center" role="alert">
            <p className="text-sm">차량 목록을 불러오지 못했습니다. 잠시 후 다시 시도해주세요.</p>
            <button type="button" className="btn-primary mt-5" onClick={() => void load(filters, failedPage)}>다시 시도</button>
          </div>
        )}
        <div ref={sentinel} aria-hidden="true" className="h-px" />
        {status === 'more' && <p className="py-8 text-center text-sm text-muted" role="status">더 불러오는 중...</p>}
      </div>
    </div>
  );
}
