import { feeForTerm, type Car } from '../../domain/car';
import { formatNumber, won } from '../../domain/money';
import {
  carOptionPrices, defaultOptions, PREPAYMENT_STEP, pricedOptions, quoteSubscriptionOrder, REGIONAL_DELIVERY_FEE,
} from '../../domain/subscription-price';

const signed = (n: number) => (n > 0 ? `+${won(n)}` : won(n));

/**
 * The car page's options and price summary, before login: plain markup with the defaults (and the
 * default term) rendered in, driven in the browser by page-scripts/car-options.ts from the option
 * prices in data-option-prices. Its props never change after the first render, so React (on the
 * fallback page) never redraws what the script writes.
 */
export default function CarOptions({ car, month }: { car: Car; month: number | null }) {
  const prices = carOptionPrices(car);
  const options = defaultOptions(prices);
  const fee = month === null ? null : feeForTerm(car, month);
  const q = fee === null || month === null ? null : quoteSubscriptionOrder({ month, fee, prices, options: pricedOptions(options) });
  const steps: number[] = [];
  for (let p = PREPAYMENT_STEP; p <= (prices.prepayment_max ?? 0); p += PREPAYMENT_STEP) steps.push(p);
  const select = 'field mt-1 py-2 text-sm';
  return (
    <div className="mt-6 space-y-3 border-t border-line pt-5" data-options data-option-prices={JSON.stringify(prices)} hidden={q === null}>
      <p className="text-xs font-semibold">옵션 선택</p>
      <label className="block text-xs text-muted">
        주행거리 플랜
        <select name="km" defaultValue={options.mileage_km} className={select}>
          {prices.mileage_plans.map((p) => <option key={p.km} value={p.km}>월 {formatNumber(p.km)}km{p.monthly ? ` (월 ${signed(p.monthly)})` : ''}</option>)}
        </select>
      </label>
      <label className="block text-xs text-muted">
        최연소 운전자
        <select name="age" defaultValue="26" className={select}>
          <option value="26">만 26세 이상</option>
          <option value="21">만 21~25세 (월 {signed(prices.young_driver_monthly)})</option>
        </select>
      </label>
      {prices.extra_driver_max > 0 && (
        <label className="block text-xs text-muted">
          추가 운전자
          <select name="drivers" defaultValue="0" className={select}>
            {Array.from({ length: prices.extra_driver_max + 1 }, (_, n) => <option key={n} value={n}>{n ? `${n}명 (월 +${won(n * prices.extra_driver_monthly)})` : '없음'}</option>)}
          </select>
        </label>
      )}
      <label className="block text-xs text-muted">
        인수 방법
        <select name="handover" defaultValue="pickup" className={select}>
          <option value="pickup">라운지 방문 인수</option>
          <option value="capital">탁송 · 서울·경기 (무료)</option>
          <option value="other">탁송 · 그 외 지역 (+{won(REGIONAL_DELIVERY_FEE)})</option>
        </select>
      </label>
      {steps.length > 0 && (
        <label className="block text-xs text-muted">
          선납금 (선택)
          <select name="prepay" defaultValue="0" className={select}>
            <option value="0">없음</option>
            {steps.map((p) => <option key={p} value={p}>{won(p)}</option>)}
          </select>
        </label>
      )}
      <p className="text-[11px] text-muted">
        초과 주행 km당 {won(prices.overage_per_km)} · 자기부담금 1건당 {won(prices.deductible)}
        {prices.deposit !== null && ` · 보증금 ${won(prices.deposit)} (반납 정산 후 남은 금액 환불)`}
      </p>
      <dl className="grid grid-cols-2 gap-y-1 text-sm" data-testid="car-price-summary" aria-live="polite">
        <dt>오늘 결제 금액</dt>
        <dd className="text-right font-semibold" data-q="paid_today" data-testid="car-paid-today">{q ? won(q.paid_today) : '-'}</dd>
        <dt>2회차부터 매월</dt>
        <dd className="text-right" data-q="monthly" data-testid="car-later-monthly">{q ? won(q.monthly) : '-'}</dd>
        <dt>보증금 (환불)</dt>
        <dd className="text-right" data-q="deposit" data-testid="car-deposit">{q ? won(q.deposit) : '-'}</dd>
        <dt>총 구독료</dt>
        <dd className="text-right" data-q="term_total" data-testid="car-term-total">{q ? won(q.term_total) : '-'}</dd>
      </dl>
      <p className="text-[11px] text-muted">쿠폰·포인트는 신청 페이지에서 첫 달 구독료에 적용됩니다. 총 구독료는 보증금을 뺀 기간 전체 금액입니다.</p>
    </div>
  );
}
