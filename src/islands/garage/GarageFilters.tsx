import { MONTH_FILTER_OPTIONS, OTHERS_NAME, OTHERS_SLUG } from '../../domain/car';
import type { GarageBrand } from '../../domain/catalogue';
import { SORT_OPTIONS, type GarageFilters } from './garage-query';

interface Props {
  filters: GarageFilters;
  brands: GarageBrand[];
  onChange: (next: Partial<GarageFilters>) => void;
}

const brandOptions = (brands: GarageBrand[]) => [...brands.map((b) => ({ slug: b.slug, name: b.name })), { slug: OTHERS_SLUG, name: OTHERS_NAME }];
const pill = (on: boolean) =>
  `min-h-11 shrink-0 border text-xs font-semibold transition-colors md:px-3 ${on ? 'border-ink bg-ink text-paper' : 'border-line bg-white text-ink hover:border-ink'}`;
/** Filter names (Korean: no wide tracking). */
const label = 'text-xs font-semibold';
/** On mobile 기간 and 구독 가능 share a label column so their controls line up. */
const labelColumn = 'w-[6.75rem] shrink-0 md:w-auto';

/** Desktop: the left-hand brand list with the chosen brand's models. */
export function BrandList({ filters, brands, onChange }: Props) {
  const current = brands.find((b) => b.slug === filters.brand);
  return (
    <nav aria-label="브랜드" className="text-sm">
      <p className="text-xs font-semibold text-muted">브랜드</p>
      <ul className="mt-4 space-y-1">
        {[{ slug: null as string | null, name: '전체' }, ...brandOptions(brands)].map((b) => (
          <li key={b.slug ?? 'all'}>
            <button type="button" onClick={() => onChange({ brand: b.slug, models: [] })} aria-pressed={filters.brand === b.slug} className={`w-full py-1.5 text-left tracking-wide transition-colors hover:text-ink ${filters.brand === b.slug ? 'font-semibold text-ink' : 'text-ink/75'}`}>
              {b.name}
            </button>
            {current && b.slug === current.slug && (
              <ul className="mb-2 ml-3 border-l border-line pl-3" aria-label={`${current.name} 모델`}>
                {current.model_list.map((m) => {
                  const on = filters.models.includes(m.id);
                  return (
                    <li key={m.id}>
                      <button type="button" aria-pressed={on} onClick={() => onChange({ models: on ? filters.models.filter((x) => x !== m.id) : [...filters.models, m.id] })} className={`w-full py-1 text-left text-[13px] ${on ? 'font-semibold text-ink' : 'text-ink/75'}`}>
                        {m.name} <span className="text-muted">({m.car_count})</span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** 기간 (the spec's MONTHS), 구독 가능 (AVAILABILITY) and 정렬 (SORT); on mobile also the brand dropdown. */
export function FilterBar({ filters, brands, onChange }: Props) {
  const sortValue = filters.sort ? `${filters.sort}:${filters.order}` : '';
  // Mobile: 브랜드 and 정렬 side by side, then one row each for 기간 (all terms in view) and 구독 가능.
  return (
    <div className="grid grid-cols-2 gap-x-3 gap-y-3 border-y border-line py-4 md:flex md:flex-wrap md:items-center md:gap-x-8 md:gap-y-4">
      <label className="flex min-w-0 flex-col gap-1.5 md:hidden">
        <span className={label}>브랜드</span>
        <select className="field min-h-11 py-2" value={filters.brand ?? ''} onChange={(e) => onChange({ brand: e.target.value || null, models: [] })} aria-label="브랜드 선택">
          <option value="">전체</option>
          {brandOptions(brands).map((b) => <option key={b.slug} value={b.slug}>{b.name}</option>)}
        </select>
      </label>
      <label className="flex min-w-0 flex-col gap-1.5 md:order-last md:ml-auto md:flex-row md:items-center md:gap-3">
        <span className={label}>정렬</span>
        <select className="field min-h-11 py-2 md:w-48" value={sortValue} aria-label="정렬"
          onChange={(e) => {
            const [sort, order] = e.target.value.split(':') as [GarageFilters['sort'], GarageFilters['order']];
            onChange(e.target.value ? { sort, order } : { sort: null, order: 'asc' });
          }}>
          <option value="">추천 순</option>
          {SORT_OPTIONS.map((o) => <option key={`${o.sort}:${o.order}`} value={`${o.sort}:${o.order}`}>{o.label}</option>)}
        </select>
      </label>
      {/* Mobile: the label above, so seven terms of at least 44 px fit across a 390 px phone. */}
      <div className="col-span-2 flex flex-col gap-1.5 md:flex-row md:items-center md:gap-3" role="group" aria-labelledby="filter-months">
        <span id="filter-months" className={`${label} md:w-auto`}>기간(개월)</span>
        <div className="grid min-w-0 flex-1 grid-cols-7 gap-1 md:flex md:gap-1.5" data-testid="month-options">
          {[null, ...MONTH_FILTER_OPTIONS].map((m) => (
            <button key={m ?? 'all'} type="button" aria-pressed={filters.month === m} onClick={() => onChange({ month: m })} className={pill(filters.month === m)}>
              {m === null ? '전체' : m}
            </button>
          ))}
        </div>
      </div>
      <div className="col-span-2 flex items-center gap-3" role="group" aria-labelledby="filter-availability">
        <span id="filter-availability" className={`${label} ${labelColumn}`}>구독 가능</span>
        <div className="flex gap-1.5">
          <button type="button" aria-pressed={!filters.availableOnly} onClick={() => onChange({ availableOnly: false })} className={`${pill(!filters.availableOnly)} px-3`}>전체</button>
          <button type="button" aria-pressed={filters.availableOnly} onClick={() => onChange({ availableOnly: true })} className={`${pill(filters.availableOnly)} px-3`}>지금 구독 가능</button>
        </div>
      </div>
    </div>
  );
}
