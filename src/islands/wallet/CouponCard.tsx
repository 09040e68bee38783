import { couponConditionText, couponState } from '../../domain/coupons';
import { todayInKorea } from '../../domain/dates';
import { won } from '../../domain/money';
import type { CouponHolding } from '../../domain/pricing';

/** The discount in words: 10% 할인, 300,000원 할인, or 무료. */
function discountText(c: CouponHolding['coupon']): string {
  if (c.discount_type === 'PERCENTAGE') return `${c.discount_rate ?? 0}% 할인`;
  if (c.discount_type === 'FIXED') return `${won(c.discount ?? 0)} 할인`;
  return '무료';
}

const badge = {
  '사용 가능': null,
  '사용 예정': 'border-gold text-gold-deep',
  '사용 완료': 'border-line text-muted',
  '기간 만료': 'border-line text-muted',
} as const;

/** One held coupon with its state (사용 예정 before its first day); dimmed when used or expired. */
export default function CouponCard({ holding }: { holding: CouponHolding }) {
  const c = holding.coupon;
  const state = couponState(holding, todayInKorea(new Date()));
  const inactive = state === '사용 완료' || state === '기간 만료';
  const condition = couponConditionText(c);
  return (
    <li className={`border border-line bg-white p-4 ${inactive ? 'opacity-60' : ''}`} data-testid="coupon-card" data-state={state}>
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="font-semibold">
            {c.name}
            {badge[state] && <span className={`ml-2 inline-block border px-1.5 py-0.5 align-middle text-[11px] font-semibold ${badge[state]}`}>{state}</span>}
          </p>
          {c.description && <p className="mt-1 text-sm text-muted">{c.description}</p>}
        </div>
        <p className="shrink-0 text-lg font-bold text-gold">{discountText(c)}</p>
      </div>
      <p className="mt-3 text-xs text-muted">
        {c.code} · {c.valid_from ?? '제한 없음'} ~ {c.valid_to ?? '제한 없음'}
        {condition && ` · ${condition}`}
        {state === '사용 예정' && c.valid_from && ` · ${c.valid_from.slice(0, 10)}부터 사용 가능`}
      </p>
    </li>
  );
}
