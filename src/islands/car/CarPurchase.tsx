import { useEffect, useRef, useState } from 'react';
import { availableDurations, defaultDuration, feeForTerm, orderRefusal, termPriceText, type Car } from '../../domain/car';
import { carInquiryPath } from '../../domain/contact';
import { todayInKorea } from '../../domain/dates';
import { won } from '../../domain/money';
import { inquire } from '../../client/inquire';
import { initOptions } from '../../page-scripts/car-options';
import { showAvailability } from '../../page-scripts/availability';
import CarOptions from './CarOptions';

interface Props {
  car: Car;
}

/**
 * Month slider over the offered terms (ascending; the longest by default), the fee, and 구독 신청하기 (the spec's Inquire Now).
 * The fallback page hydrates it; the static car page renders it once and purchase.ts drives it.
 */
export default function CarPurchase({ car }: Props) {
  const terms = availableDurations(car);
  const [month, setMonth] = useState(defaultDuration(car));
  const root = useRef<HTMLDivElement>(null);
  // Hydrated (the fallback page): the options script drives its own markup, as on the static page.
  useEffect(() => {
    if (root.current) initOptions(root.current);
  }, []);
  // Hydrated: the line follows the slider's term, as purchase.ts does on the static page.
  useEffect(() => {
    if (root.current) void showAvailability(root.current);
  }, [month]);
  const index = month === null ? 0 : terms.indexOf(month);

  // data-* let the static car page drive this markup without React (purchase.ts).
  const fees = Object.fromEntries(terms.map((t) => [t, feeForTerm(car, t)]));
  // Not open for orders (yet): said here and the button is off; purchase.ts re-checks the date in the browser.
  const refusal = orderRefusal(car, todayInKorea(new Date()));
  return (
    <div ref={root} className="border border-line bg-white p-6" data-purchase data-car-id={car.id} data-terms={JSON.stringify(terms)} data-fees={JSON.stringify(fees)}
      data-subscriptable={String(car.is_subscriptable)} data-available-from={car.subscription_available_from ?? ''}>
      <div className="flex items-baseline justify-between">
        <label htmlFor="month-slider" className="text-xs font-semibold">구독 기간</label>
        <span className="text-sm font-semibold" data-testid="selected-month">{month === null ? '-' : `${month}개월`}</span>
      </div>
      {terms.length > 0 ? (
        <>
          <input id="month-slider" type="range" min={0} max={Math.max(terms.length - 1, 0)} step={1} value={index} disabled={terms.length < 2}
            onChange={(e) => setMonth(terms[Number(e.target.value)])}
            aria-valuetext={month === null ? undefined : `${month}개월`}
            className="mt-3 h-11 w-full cursor-pointer accent-ink" />
          <ol className="mt-2 flex justify-between text-[11px] text-muted" aria-hidden="true">
            {terms.map((t) => <li key={t} data-term={t} className={t === month ? 'font-semibold text-ink' : ''}>{t}</li>)}
          </ol>
        </>
      ) : (
        <p className="mt-4 text-sm text-muted">
          구독 기간과 요금은 상담을 통해 안내해드립니다.{' '}
          <a href={carInquiryPath(car)} className="inline-flex min-h-11 items-center font-semibold text-ink underline underline-offset-4" data-testid="car-inquiry">문의하기</a>
        </p>
      )}
      <div className="mt-6 border-t border-line pt-5">
        <p className="text-xs text-muted">월 구독료</p>
        <p className="mt-1 text-2xl font-semibold tracking-tight" data-testid="monthly-fee" aria-live="polite">
          {month === null ? '문의 필요' : termPriceText(car, month)}
        </p>
        {car.retail_price !== null && (
          <p className="mt-2 text-sm text-muted">
            차량 가격 <s data-testid="retail-price">{won(car.retail_price)}</s>
          </p>
        )}
      </div>
      <CarOptions car={car} month={defaultDuration(car)} />
      {/* Filled in the browser from GET /subscriptions/availability (page-scripts/availability.ts) for the chosen term: holds and
          confirmations since the build. Two lines are kept from the start (the line and its shorter-term note), so filling it moves
          nothing below (CLS 0). */}
      <p className="mt-4 min-h-10 text-sm font-semibold" data-availability data-note data-car-id={car.id} data-month={month ?? undefined} data-testid="car-availability" />
      <p role="status" className="mt-6 text-sm font-semibold text-red-800" data-testid="order-refusal" data-order-refusal hidden={!refusal}>{refusal}</p>
      <button type="button" disabled={Boolean(refusal)} onClick={() => inquire(car.id, month, root.current?.dataset.options ?? '')} className="btn-primary mt-6 w-full py-4" data-inquire>구독 신청하기</button>
    </div>
  );
}
