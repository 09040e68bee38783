import { MONTH_FILTER_OPTIONS, OTHERS_SLUG } from '../../domain/car';
import type { GarageBrand } from '../../domain/catalogue';
import { SORT_OPTIONS, type GarageFilters } from './garage-query';

interface Props {
  filters: GarageFilters;
  brands: GarageBrand[];
  onChange: (next: Partial<GarageFilters>) => void;
}

const brandOptions = (brands: GarageBrand[]) => [...brands.map((b) => ({ slug: b.slug, name: b.name })), { slug: OTHERS_SLUG, name: 'Others' }];
const pill = (on: boolean) =>
  `min-h-9 shrink-0 border px-3 text-xs font-semibold tracking-[0.12em] transition-colors ${on ? 'border-ink bg-ink text-paper' : 'border-line bg-white text-ink hover:border-ink'}`;

/** Desktop: the left-hand brand list with the chosen brand's models. */
export function BrandList({ filters, brands, onChange }: Props) {
  const current = brands.find((b) => b.slug === filters.brand);
  return (
    <nav aria-label="브랜드" className="text-sm">
      <p className="eyebrow">BRANDS</p>
      <ul className="mt-4 space-y-1">
        {[{ slug: null as string | null, name: 'All' }, ...brandOptions(brands)].map((b) => (
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

/** MONTHS, AVAILABILITY and SORT; on mobile also the brand dropdown. */
export function FilterBar({ filters, brands, onChange }: Props) {
  const sortValue = filters.sort ? `${filters.sort}:${filters.order}` : '';
  return (
    <div className="flex flex-col gap-4 border-y border-line py-4 md:flex-row md:flex-wrap md:items-center md:gap-x-8">
      <label className="flex items-center gap-3 md:hidden">
        <span className="w-[6.75rem] shrink-0 text-[11px] font-semibold tracking-[0.18em]">BRAND</span>
        <select className="field py-2" value={filters.brand ?? ''} onChange={(e) => onChange({ brand: e.target.value || null, models: [] })} aria-label="브랜드 선택">
          <option value="">All</option>
          {brandOptions(brands).map((b) => <option key={b.slug} value={b.slug}>{b.name}</option>)}
        </select>
      </label>
      <div className="flex items-center gap-3" role="group" aria-labelledby="filter-months">
        <span id="filter-months" className="w-[6.75rem] shrink-0 text-[11px] font-semibold tracking-[0.18em] md:w-auto">MONTHS</span>
        <div className="no-scrollbar -mr-4 flex gap-1.5 overflow-x-auto pr-4 md:mr-0 md:flex-wrap md:overflow-visible md:pr-0">
          {[null, ...MONTH_FILTER_OPTIONS].map((m) => (
            <button key={m ?? 'all'} type="button" aria-pressed={filters.month === m} onClick={() => onChange({ month: m })} className={pill(filters.month === m)}>
              {m === null ? 'All' : m}
            </button>
          ))}
        </div>
      </div>
      <div className="flex items-center gap-3" role="group" aria-labelledby="filter-availability">
        <span id="filter-availability" className="w-[6.75rem] shrink-0 text-[11px] font-semibold tracking-[0.18em] md:w-auto">AVAILABILITY</span>
        <div className="flex gap-1.5">
          <button type="button" aria-pressed={!filters.availableOnly} onClick={() => onChange({ availableOnly: false })} className={pill(!filters.availableOnly)}>All</button>
          <button type="button" aria-pressed={filters.availableOnly} onClick={() => onChange({ availableOnly: true })} className={pill(filters.availableOnly)}>지금 구독 가능</button>
        </div>
      </div>
      <label className="flex items-center gap-3 md:ml-auto">
        <span className="w-[6.75rem] shrink-0 text-[11px] font-semibold tracking-[0.18em] md:w-auto">SORT</span>
        <select className="field py-2 md:w-48" value={sortValue} aria-label="정렬"
          onChange={(e) => {
            const [sort, order] = e.target.value.split(':') as [GarageFilters['sort'], GarageFilters['order']];
            onChange(e.target.value ? { sort, order } : { sort: null, order: 'asc' });
          }}>
          <option value="">추천 순</option>
          {SORT_OPTIONS.map((o) => <option key={`${o.sort}:${o.order}`} value={`${o.sort}:${o.order}`}>{o.label}</option>)}
        </select>
      </label>
    </div>
  );
}
