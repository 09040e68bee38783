import { defaultOptionPrices, type CarOptionPrices } from '../../domain/subscription-price';

/** The console's form state of a car's option prices: on = the car's own prices, off = derived from its fee (null). */
export interface OptionPricesInput {
  on: boolean;
  plans: { km: string; monthly: string }[];
  numbers: Record<NumberKey, string>;
}
type NumberKey = 'overage_per_km' | 'young_driver_monthly' | 'extra_driver_monthly' | 'extra_driver_max' | 'deductible' | 'deposit' | 'prepayment_max';

const NUMBERS: { key: NumberKey; label: string }[] = [
  { key: 'overage_per_km', label: '초과 주행 km당 요금(원)' },
  { key: 'young_driver_monthly', label: '만 21~25세 운전자 월 추가(원)' },
  { key: 'extra_driver_monthly', label: '추가 운전자 1명 월 요금(원)' },
  { key: 'extra_driver_max', label: '추가 운전자 최대(명)' },
  { key: 'deductible', label: '자기부담금(원)' },
  { key: 'deposit', label: '보증금(원, 비우면 없음)' },
  { key: 'prepayment_max', label: '선납금 최대(원, 비우면 없음)' },
];
const MAX_PLANS = 5;
const str = (n: number | null) => (n === null ? '' : String(n));

/** Form state from the API value (null: the defaults the fee gives, switched off). */
export function optionPricesInput(value: unknown, row: { subscription_fee_minimum?: unknown } | null): OptionPricesInput {
  const own = value && typeof value === 'object' ? (value as CarOptionPrices) : null;
  const p = own ?? defaultOptionPrices({ subscription_fee_minimum: typeof row?.subscription_fee_minimum === 'number' ? row.subscription_fee_minimum : null });
  return {
    on: own !== null,
    plans: p.mileage_plans.map((m) => ({ km: String(m.km), monthly: String(m.monthly) })),
    numbers: Object.fromEntries(NUMBERS.map(({ key }) => [key, str(p[key])])) as Record<NumberKey, string>,
  };
}

const num = (s: string) => (s.trim() === '' ? null : Number(s.replace(/,/g, '').trim()));

/** The API value of the form state: null when off; rows without km dropped; the server checks the rest. */
export function optionPricesValue(v: OptionPricesInput): CarOptionPrices | null {
  if (!v.on) return null;
  const n = (k: NumberKey) => num(v.numbers[k]);
  return {
    mileage_plans: v.plans.filter((p) => p.km.trim()).map((p) => ({ km: num(p.km) as number, monthly: num(p.monthly) ?? 0 })),
    overage_per_km: n('overage_per_km') as number,
    young_driver_monthly: n('young_driver_monthly') as number,
    extra_driver_monthly: n('extra_driver_monthly') as number,
    extra_driver_max: n('extra_driver_max') as number,
    deductible: n('deductible') as number,
    deposit: n('deposit'),
    prepayment_max: n('prepayment_max'),
  };
}

/** A car's option prices in the console: mileage plans, driver age, drivers, 자기부담금, 보증금, 선납금. */
export default function OptionPricesField({ id, value, onChange }: { id: string; value: OptionPricesInput; onChange: (v: OptionPricesInput) => void }) {
  const cls = 'w-full border border-line bg-white px-3 py-2 text-sm outline-none focus:border-gold';
  const plans = value.plans.length < MAX_PLANS ? [...value.plans, { km: '', monthly: '' }] : value.plans;
  const setPlan = (i: number, patch: Partial<{ km: string; monthly: string }>) => onChange({ ...value, plans: plans.map((p, j) => (j === i ? { ...p, ...patch } : p)).filter((p) => p.km || p.monthly) });
  return (
    <fieldset id={id} className="space-y-3 border border-line p-3" data-testid="option-prices">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={value.on} onChange={(e) => onChange({ ...value, on: e.target.checked })} />
        이 차량만의 옵션 요금 사용 (끄면 월 구독료에서 계산한 기본값)
      </label>
      <div className="grid grid-cols-2 gap-2 text-sm">
        <p className="font-semibold">주행거리 플랜(km/월)</p>
        <p className="font-semibold">월 요금 차이(원, 할인은 -)</p>
        {plans.map((p, i) => (
          <div key={i} className="contents">
            <input aria-label={`주행거리 플랜 ${i + 1} km`} inputMode="numeric" disabled={!value.on} className={cls} value={p.km} onChange={(e) => setPlan(i, { km: e.target.value })} />
            <input aria-label={`주행거리 플랜 ${i + 1} 월 요금 차이`} disabled={!value.on} className={cls} value={p.monthly} onChange={(e) => setPlan(i, { monthly: e.target.value })} />
          </div>
        ))}
      </div>
      <div className="grid gap-2 sm:grid-cols-2">
        {NUMBERS.map(({ key, label }) => (
          <label key={key} className="block text-sm">
            {label}
            <input inputMode="numeric" disabled={!value.on} className={cls} value={value.numbers[key]} onChange={(e) => onChange({ ...value, numbers: { ...value.numbers, [key]: e.target.value } })} />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
