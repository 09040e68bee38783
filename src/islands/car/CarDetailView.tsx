import type { ReactNode } from 'react';
import { TAG_TEXT, carCover, carDisplayName, carFeatures, carSpecRows, homeTags, type Car } from '../../domain/car';
import { PHOTO_SIZES } from '../../domain/photos';
import Picture from '../photos/Picture';

interface Props {
  car: Car;
  /** The month slider and inquire button (an island on the static page). */
  purchase?: ReactNode;
}

const tagClass = { NEW: 'border-ink bg-ink text-paper', HOT: 'border-danger bg-danger text-white', PROMOTED: 'border-gold-deep text-gold-deep' } as const;

/** The car detail page; rendered to static HTML at build, and by the fallback island for newer cars. */
export default function CarDetailView({ car, purchase }: Props) {
  const name = carDisplayName(car);
  const images = car.gallery.length ? car.gallery : [carCover(car)];
  return (
    <article className="mx-auto grid max-w-7xl gap-8 px-0 pb-16 md:grid-cols-[minmax(0,1fr)_400px] md:gap-12 md:px-6 md:pt-10">
      <section aria-label="차량 이미지" className="md:col-start-1 md:row-start-1">
        <ul tabIndex={0} aria-label={`${name} 이미지 ${images.length}장`} data-deferred-root className="no-scrollbar flex snap-x snap-mandatory overflow-x-auto md:flex-col md:gap-4 md:overflow-visible" data-testid="car-gallery">
          {images.map((image, i) => (
            <li key={image.src + i} className="w-full shrink-0 snap-center bg-placeholder">
              <Picture image={image} sizes={PHOTO_SIZES.carGallery} priority={i === 0} deferred={i > 0} className="aspect-[16/9] w-full object-cover" />
            </li>
          ))}
        </ul>
        {images.length > 1 && <p className="mt-2 px-4 text-center text-[11px] text-muted md:hidden">← 밀어서 {images.length}장 보기 →</p>}
      </section>

      <aside className="px-4 md:col-start-2 md:row-span-2 md:row-start-1 md:px-0">
        <div className="md:sticky md:top-[80px] md:w-[400px]" data-testid="car-panel">
          <ul className="flex flex-wrap gap-1.5" aria-label="태그">
            {homeTags(car).map((t) => (
              <li key={t} data-tag={t} className={`border px-2 py-0.5 text-[11px] font-bold ${tagClass[t]}`}>{TAG_TEXT[t]}</li>
            ))}
          </ul>
          <p className="mt-4 text-[11px] font-semibold uppercase tracking-[0.3em] text-muted">{car.model.brand.name}</p>
          <h1 className="mt-2 font-serif text-3xl leading-tight md:text-4xl">{name}</h1>
          <p className="mt-2 text-sm text-muted">모델 · {car.model.name}</p>
          <div className="mt-8">{purchase}</div>
        </div>
      </aside>

      <div className="px-4 md:col-start-1 md:row-start-2 md:px-0">
        {car.description && (
          <section aria-labelledby="car-description">
            <p className="eyebrow" aria-hidden="true">DESCRIPTION</p>
            <h2 id="car-description" className="mt-2 text-lg font-semibold">차량 소개</h2>
            <p className="mt-4 leading-8 text-ink/85">{car.description}</p>
          </section>
        )}
        <DetailSection title="제원" rows={carSpecRows(car)} className="mt-10 border-t" />
        <DetailSection title="차량 정보" rows={carFeatures(car)} className="border-y" />
      </div>
    </article>
  );
}

/** A collapsible, open-by-default list of label/value rows (제원 and 차량 정보: the spec's Specifications and Features). */
function DetailSection({ title, rows, className }: { title: string; rows: { label: string; value: string | number }[]; className: string }) {
  return (
    <details className={`group border-line ${className}`} open>
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between py-5 text-sm font-semibold">
        {title} <span aria-hidden="true" className="text-lg transition-transform group-open:rotate-45">+</span>
      </summary>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-4 pb-6 text-sm">
        {rows.map((row) => (
          <div key={row.label} className="border-b border-line pb-3">
            <dt className="text-xs text-muted">{row.label}</dt>
            <dd className="mt-1 font-medium">{row.value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
