import { won } from '../../domain/money';
import { partnerLine, type ButlerLegalAnswer, type EligibilityClaim, type ExemptionCase } from '../../domain/butler-legal';

interface Props {
  legal: ButlerLegalAnswer;
  claim: EligibilityClaim | null;
  onClaim: (claim: EligibilityClaim | null) => void;
  /** The refusal to show under the step (the client's judgeEligibility, or the server's). */
  problem: string | null;
  /** Van-only case chosen but the fleet has no 11–15 seat van. */
  noVan: boolean;
}

const field = (id: string, label: string, value: string | null | undefined, onChange: (v: string) => void, extra: { type?: string; placeholder?: string; maxLength?: number; autoComplete?: string } = {}) => (
  <div key={id}>
    <label htmlFor={id} className="mb-1 block text-sm font-semibold">{label}</label>
    <input id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value)} className="field" {...extra} />
  </div>
);

/**
 * The butler booking's legal basis (src/domain/butler-legal.ts): under `partner` the licensed
 * carrier is named; under `exemptions` the customer picks the 시행령 제18조 case that applies and
 * gives its proof (the server judges it again before paying); under `own-car` a notice.
 */
export default function LegalBasis({ legal, claim, onClaim, problem, noVan }: Props) {
  if (legal.model === 'partner' && legal.partner) {
    return (
      <section aria-label="운송 사업자" className="border border-line bg-white p-4 text-sm" data-testid="butler-partner">
        <p className="font-semibold">{partnerLine(legal.partner)}</p>
        <p className="mt-1 text-muted">의전 운행은 면허를 가진 위 운송사업자가 수행합니다.</p>
      </section>
    );
  }
  if (legal.model === 'own-car') {
    return (
      <section aria-label="운영 방식" className="border border-line bg-white p-4 text-sm">
        <p className="font-semibold">고객님의 차량에 기사를 배정하는 서비스입니다. 운전자를 포함한 차량 대여는 제공하지 않습니다.</p>
        {legal.own_car && (
          <p className="mt-1 text-muted" data-testid="own-car-rate">
            기사 요금: 시간당 {won(legal.own_car.hourly_rate)} (최소 {legal.own_car.min_hours}시간, 초과 시 시작한 시간마다 같은 요금)
          </p>
        )}
      </section>
    );
  }
  const set = (patch: Partial<EligibilityClaim>) => claim && onClaim({ ...claim, ...patch });
  const choose = (c: ExemptionCase) => onClaim({ case: c, confirmed: claim?.confirmed ?? false });
  const chosen = legal.cases.find((c) => c.case === claim?.case) ?? null;
  return (
    <section aria-labelledby="eligibility-h" className="space-y-4" data-testid="eligibility-step">
      <div>
        <h2 id="eligibility-h" className="text-lg font-semibold">대여 자격 확인</h2>
        <p className="mt-1 text-sm text-muted">
          운전자를 포함한 차량 대여는 여객자동차 운수사업법 제34조와 시행령 제18조가 정한 경우에만 가능합니다. 해당하는 경우를 선택해주세요.
        </p>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-semibold">해당하는 경우</legend>
        <div className="grid gap-2">
          {legal.cases.map((c) => (
            <label key={c.case} className="flex cursor-pointer items-center gap-2 border border-line bg-white px-4 py-3 text-sm has-[:checked]:border-ink">
              <input type="radio" name="eligibility-case" value={c.case} checked={claim?.case === c.case} onChange={() => choose(c.case)} className="accent-ink" />
              {c.label}
            </label>
          ))}
        </div>
      </fieldset>
      {chosen && claim && (
        <div className="space-y-3">
          <p id="eligibility-hint" className="text-sm text-muted">{chosen.hint}</p>
          {claim.case === 'FOREIGNER' && field('eligibility-foreigner-id', '여권번호 또는 외국인등록번호', claim.foreigner_id, (v) => set({ foreigner_id: v }), { maxLength: 20, autoComplete: 'off', placeholder: '예: M12345678' })}
          {claim.case === 'SENIOR' && field('eligibility-birth-date', '생년월일', claim.birth_date, (v) => set({ birth_date: v }), { type: 'date', autoComplete: 'bday' })}
          {claim.case === 'CORPORATE' && field('eligibility-contract', '법인 임차 계약번호', claim.contract_number, (v) => set({ contract_number: v }), { maxLength: 40 })}
          {claim.case === 'WEDDING' && [
            field('eligibility-wedding-date', '결혼식 날짜', claim.wedding_date, (v) => set({ wedding_date: v }), { type: 'date' }),
            field('eligibility-wedding-venue', '예식장', claim.wedding_venue, (v) => set({ wedding_venue: v }), { maxLength: 100 }),
          ]}
          {claim.case === 'VAN_PORT' && field('eligibility-transport', '항공편명 또는 선박편명', claim.transport_number, (v) => set({ transport_number: v }), { maxLength: 20, placeholder: '예: KE123' })}
          {chosen.van_only && (
            <p role="status" className="text-sm text-gold" data-testid="van-only">
              {noVan ? '지금 예약할 수 있는 11~15인승 승합차가 없습니다. 다른 경우를 선택하거나 고객센터로 문의해주세요.' : '11~15인승 승합차만 선택할 수 있습니다.'}
            </p>
          )}
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" checked={!!claim.confirmed} onChange={(e) => set({ confirmed: e.target.checked })} className="mt-1 accent-ink" />
            선택한 경우에 해당하며, 탑승 시 증빙을 확인받는 데 동의합니다. 사실과 다르면 예약이 거절되고 결제 금액은 전액 환불됩니다.
          </label>
        </div>
      )}
      {problem && <p role="alert" className="text-sm text-red-700" data-testid="eligibility-problem">{problem}</p>}
    </section>
  );
}
