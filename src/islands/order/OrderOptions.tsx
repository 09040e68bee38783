import { useState } from 'react';
import { formatNumber, won } from '../../domain/money';
import {
  DELIVERY_WINDOW_LABEL, DELIVERY_WINDOWS, deliveryZone, REGIONAL_DELIVERY_FEE, type CarOptionPrices, type DeliveryWindow, type SubscriptionOptions,
} from '../../domain/subscription-price';
import AddressField from '../butler/AddressField';
import AddressSearch from '../butler/AddressSearch';
import { dotDate } from '../../domain/dates';

interface Props {
  prices: CarOptionPrices;
  options: SubscriptionOptions;
  onChange: (o: SubscriptionOptions) => void;
  /** 선납금 amounts the term admits (prepaymentChoices). */
  prepayments: number[];
  /** The term's first day: the 탁송 (or lounge pickup) day. */
  startDate: string;
  /** A refusal of the current choice (optionRefusal), shown under the options. */
  problem: string | null;
  /** Why the age band is what it is, once the drivers' licences fixed it (the radios then only show it). */
  ageFixed?: string | null;
}

const signed = (n: number) => (n > 0 ? `+${won(n)}` : won(n));
const radio = 'flex min-h-11 cursor-pointer items-center gap-2 border border-line px-3 py-2 text-sm has-[:checked]:border-ink has-[:checked]:font-semibold';

/** The order page's options: mileage plan, youngest driver, extra drivers, handover (탁송 address and window), 선납금; 보증금 and 자기부담금 stated. */
export default function OrderOptions({ prices, options, onChange, prepayments, startDate, problem, ageFixed = null }: Props) {
  const [searching, setSearching] = useState(false);
  const set = (patch: Partial<SubscriptionOptions>) => onChange({ ...options, ...patch });
  const zone = options.delivery_address ? deliveryZone(options.delivery_address) : null;
  return (
    <section aria-labelledby="options-h" className="space-y-5" data-testid="order-options">
      <h2 id="options-h" className="font-semibold">옵션 선택</h2>
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold">주행거리 플랜</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {prices.mileage_plans.map((p) => (
            <label key={p.km} className={radio}>
              <input type="radio" name="order-mileage" checked={options.mileage_km === p.km} onChange={() => set({ mileage_km: p.km })} />
              월 {formatNumber(p.km)}km{p.monthly !== 0 && <span className="text-muted"> (월 {signed(p.monthly)})</span>}
            </label>
          ))}
        </div>
        <p className="text-xs text-muted">초과 주행 시 km당 {won(prices.overage_per_km)}이 반납 때 정산됩니다.</p>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold">최연소 운전자 연령</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          <label className={radio}>
            <input type="radio" name="order-age" checked={options.driver_age === 'AGE_26'} disabled={ageFixed !== null} onChange={() => set({ driver_age: 'AGE_26' })} />
            만 26세 이상
          </label>
          <label className={radio}>
            <input type="radio" name="order-age" checked={options.driver_age === 'AGE_21'} disabled={ageFixed !== null} onChange={() => set({ driver_age: 'AGE_21' })} />
            만 21~25세<span className="text-muted"> (월 {signed(prices.young_driver_monthly)})</span>
          </label>
        </div>
        <p className="text-xs text-muted" data-testid="age-band-note">{ageFixed ?? '운전면허를 확인하면 운전자들의 생년월일로 정해집니다.'}</p>
      </fieldset>
      {prices.extra_driver_max > 0 && (
        <div className="space-y-1">
          <label htmlFor="order-drivers" className="block text-sm font-semibold">추가 운전자</label>
          <select id="order-drivers" value={options.extra_drivers} onChange={(e) => set({ extra_drivers: Number(e.target.value) })} className="field">
            {Array.from({ length: prices.extra_driver_max + 1 }, (_, n) => (
              <option key={n} value={n}>{n === 0 ? '없음' : `${n}명 (월 +${won(n * prices.extra_driver_monthly)})`}</option>
            ))}
          </select>
        </div>
      )}
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold">인수 방법</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          <label className={radio}>
            <input type="radio" name="order-handover" checked={options.handover === 'PICKUP'} onChange={() => set({ handover: 'PICKUP' })} />
            라운지 방문 인수
          </label>
          <label className={radio}>
            <input type="radio" name="order-handover" checked={options.handover === 'DELIVERY'} onChange={() => set({ handover: 'DELIVERY', delivery_window: options.delivery_window ?? 'MORNING' })} />
            탁송
          </label>
        </div>
        {options.handover === 'DELIVERY' ? (
          <div className="space-y-3 border border-line p-3">
            <AddressField id="order-delivery-address" label="탁송 주소" value={options.delivery_address ?? ''} onOpen={() => setSearching(true)} required />
            <div>
              <label htmlFor="order-delivery-window" className="mb-1 block text-sm font-semibold">탁송 시간대</label>
              <select id="order-delivery-window" value={options.delivery_window ?? 'MORNING'} onChange={(e) => set({ delivery_window: e.target.value as DeliveryWindow })} className="field">
                {DELIVERY_WINDOWS.map((w) => <option key={w} value={w}>{DELIVERY_WINDOW_LABEL[w]}</option>)}
              </select>
            </div>
            <p className="text-xs text-muted" data-testid="delivery-note">
              탁송일은 구독 시작일({startDate ? dotDate(startDate) : '선택한 날'})입니다. 서울·경기는 무료, 그 외 지역은 인도·회수 탁송비 {won(REGIONAL_DELIVERY_FEE)}이 첫 결제에 포함됩니다.
              {zone && <strong className="ml-1">{zone === 'CAPITAL' ? '이 주소는 무료 탁송 지역입니다.' : `이 주소는 탁송비 ${won(REGIONAL_DELIVERY_FEE)}이 부과됩니다.`}</strong>}
            </p>
            <AddressSearch open={searching} title="탁송 주소 검색" onSelect={(a) => set({ delivery_address: a })} onClose={() => setSearching(false)} defaultQuery={options.delivery_address ?? undefined} />
          </div>
        ) : (
          <p className="text-xs text-muted">구독 시작일에 LUXE 라운지에서 차량을 인수합니다.</p>
        )}
      </fieldset>
      {prepayments.length > 1 && (
        <div className="space-y-1">
          <label htmlFor="order-prepayment" className="block text-sm font-semibold">선납금 (선택)</label>
          <select id="order-prepayment" value={options.prepayment} onChange={(e) => set({ prepayment: Number(e.target.value) })} className="field">
            {prepayments.map((p) => <option key={p} value={p}>{p === 0 ? '없음' : won(p)}</option>)}
          </select>
          <p className="text-xs text-muted">선납금은 오늘 결제되고, 구독 개월 수로 나눈 금액(원 미만 버림)만큼 매월 구독료가 줄어듭니다. 중도 해지 시 남은 개월의 차감액은 반납 후 환불됩니다.</p>
        </div>
      )}
      <ul className="space-y-1 text-xs text-muted">
        {prices.deposit !== null && <li data-testid="order-deposit-note">보증금 {won(prices.deposit)}은 첫 결제에 포함되며, 반납 정산 금액(초과 주행, 손상, 연료·충전 부족)을 먼저 차감하고 남은 금액을 환불합니다.</li>}
        <li>종합보험 포함 · 사고 시 자기부담금 1건당 {won(prices.deductible)} (계약서에 명시)</li>
      </ul>
      {problem && <p role="alert" className="text-sm font-semibold text-red-800" data-testid="options-problem">{problem}</p>}
    </section>
  );
}
