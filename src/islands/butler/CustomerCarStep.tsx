import { OWN_CAR_INSURANCE_TEXT, type SubscriptionCarChoice } from '../../domain/butler-own-car';
import type { CustomerCarDraft } from './customer-car';

interface Props {
  /** The customer's active subscription cars (empty when none or not logged in). */
  choices: SubscriptionCarChoice[];
  value: CustomerCarDraft;
  onChange: (value: CustomerCarDraft) => void;
  /** The refusal to show under the step (the client's check, or the server's). */
  problem: string | null;
}

/**
 * BUTLER_LEGAL_MODEL=own-car: the car the driver will drive, instead of a fleet car — the
 * customer's LUXE subscription car, or their own car (제조사/모델, 차량번호, and the statement that
 * it is insured for another driver). The server checks all of it again before paying.
 */
export default function CustomerCarStep({ choices, value, onChange, problem }: Props) {
  const own = value.kind === 'own' ? value : { kind: 'own' as const, makeModel: '', plate: '', insured: false };
  return (
    <section aria-labelledby="customer-car-h" className="space-y-4" data-testid="customer-car-step">
      <div>
        <h2 id="customer-car-h" className="text-lg font-semibold">기사가 운전할 차량</h2>
        <p className="mt-1 text-sm text-muted">고객님의 차량에 LUXE 기사를 배정합니다. 운전자를 포함한 차량 대여는 제공하지 않습니다.</p>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-semibold">차량 선택</legend>
        <div className="grid gap-2">
          {choices.map((c) => (
            <label key={c.subscription_id} className="flex cursor-pointer items-center gap-2 border border-line bg-white px-4 py-3 text-sm has-[:checked]:border-ink">
              <input
                type="radio"
                name="customer-car"
                checked={value.kind === 'subscription' && value.subscriptionId === c.subscription_id}
                onChange={() => onChange({ kind: 'subscription', subscriptionId: c.subscription_id })}
                className="accent-ink"
              />
              <span className="min-w-0 break-words">이용 중인 구독 차량: {c.name}{c.plate ? ` · ${c.plate}` : ''}</span>
            </label>
          ))}
          <label className="flex cursor-pointer items-center gap-2 border border-line bg-white px-4 py-3 text-sm has-[:checked]:border-ink">
            <input type="radio" name="customer-car" checked={value.kind === 'own'} onChange={() => onChange(own)} className="accent-ink" />
            내 차량 직접 입력
          </label>
        </div>
      </fieldset>
      {value.kind === 'own' && (
        <div className="space-y-3">
          <div>
            <label htmlFor="own-car-model" className="mb-1 block text-sm font-semibold">제조사/모델</label>
            <input id="own-car-model" value={value.makeModel} onChange={(e) => onChange({ ...value, makeModel: e.target.value })} maxLength={60} placeholder="예: BMW 520i" className="field" />
          </div>
          <div>
            <label htmlFor="own-car-plate" className="mb-1 block text-sm font-semibold">차량번호</label>
            <input id="own-car-plate" value={value.plate} onChange={(e) => onChange({ ...value, plate: e.target.value })} maxLength={20} placeholder="예: 12가3456" autoComplete="off" className="field" />
          </div>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" checked={value.insured} onChange={(e) => onChange({ ...value, insured: e.target.checked })} className="mt-1 accent-ink" aria-describedby="own-car-insurance-note" />
            <span>(필수) {OWN_CAR_INSURANCE_TEXT}</span>
          </label>
          <p id="own-car-insurance-note" className="text-xs text-muted">보험 가입 여부는 탑승 시 기사가 확인할 수 있습니다.</p>
        </div>
      )}
      {problem && <p role="alert" className="text-sm text-red-700" data-testid="customer-car-problem">{problem}</p>}
    </section>
  );
}
