import { TAG_TEXT, carCover, carDisplayName, fromFee, garageLabels, isAvailableByDate, isGarageActive, type Car } from '../../domain/car';
import { PHOTO_SIZES } from '../../domain/photos';
import Picture from '../photos/Picture';
import { formatNumber, won } from '../../domain/money';
import type { CarAvailability } from '../../domain/availability';

interface Props {
  car: Car;
  featured?: boolean;
  /** Today in Korea (YYYY-MM-DD); availability is judged against it. */
  today: string;
  /** The live read (holds and confirmations since the build) for the months filter's term, once it has answered. */
  availability?: CarAvailability;
  /** The garage's months filter: the "from" price is the lowest fee among these terms (all terms when empty). */
  months?: readonly number[];
}

/** One garage card: half opacity unless subscriptable and available; a link only when available by date. */
export default function GarageCard({ car, featured = false, today, availability, months = [] }: Props) {
  const name = carDisplayName(car);
  const available = isAvailableByDate(car, today);
  const active = isGarageActive(car, today);
  const labels = garageLabels(car);
  const fee = months.length ? fromFee(car, months) : car.subscription_fee_minimum;
  const body = (
    <>
      <div className="relative">
        <div className={`overflow-hidden bg-placeholder ${featured ? 'aspect-[16/9] md:aspect-[2/1]' : 'aspect-[16/9]'} ${active ? '' : 'opacity-50'}`} data-dim={!active || undefined}>
          <Picture image={carCover(car)} sizes={featured ? PHOTO_SIZES.carGallery : PHOTO_SIZES.card} priority={featured} className="h-full w-full object-cover transition-transform duration-700 group-hover:scale-[1.03]" />
        </div>
        {labels.length > 0 && (
          <ul className="absolute left-3 top-3 flex gap-1.5" aria-label="라벨">
            {labels.map((l) => (
              <li key={l} data-label={l} className={`px-2 py-1 text-[11px] font-bold ${l === 'Promoted' ? 'bg-ink text-paper' : 'bg-danger text-white'}`}>{TAG_TEXT[l]}</li>
            ))}
          </ul>
        )}
      </div>
      <div className={`flex items-end justify-between gap-3 pt-4 ${featured ? 'md:pt-5' : ''}`}>
        <div className="min-w-0">
          <p className="text-[11px] font-semibold uppercase tracking-[0.25em] text-muted">{car.model.brand.name}</p>
          <p className={`mt-1 truncate font-semibold ${featured ? 'text-lg md:text-2xl' : 'text-base'}`}>{name}</p>
          <p className="mt-1 text-xs text-muted">
            {car.mileage !== null ? `${formatNumber(car.mileage)} km` : '-'}
            {car.color ? ` · ${car.color}` : ''}
          </p>
        </div>
        <div className="shrink-0 text-right">
          <p className="text-sm font-semibold" data-testid="garage-card-fee">{fee !== null ? `${won(fee)}/월~` : '문의 필요'}</p>
          {!available && car.subscription_available_from && <p className="mt-1 text-xs text-danger">{car.subscription_available_from.slice(0, 10)}부터 구독 가능</p>}
          {available && !car.is_subscriptable && <p className="mt-1 text-xs text-muted">구독 상담 필요</p>}
          {/* The live line's place is kept from the first paint (empty until the answer): the card does not grow. */}
          {active && (
            <p className={`mt-1 min-h-4 text-xs ${availability && !availability.free ? 'text-danger' : 'text-muted'}`} data-availability-live>{availability?.text}</p>
          )}
        </div>
      </div>
    </>
  );
  // Half opacity on the picture; the text stays at a readable contrast (WCAG AA).
  const className = `group block ${active ? '' : 'text-ink/70'}`;
  return available ? (
    <a href={`/car/${car.id}`} className={className} data-car-id={car.id} data-active={active}>
      {body}
    </a>
  ) : (
    <div className={`${className} cursor-not-allowed`} aria-disabled="true" data-car-id={car.id} data-active={active}>
      {body}
    </div>
  );
}
