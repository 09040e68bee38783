import { useEffect, useMemo, useState } from 'react';
import { call, client } from '../../../client/api';
import { formatWon, won } from '../../../domain/money';
import type { ButlerRequestView } from '../../../domain/butler';
import type { CouponTerms } from '../../../domain/pricing';
import PriceTable from '../../checkout/PriceTable';
import { instantOf } from '../../butler/reservation-form';
import { differenceLine, editPrice, type EditPayer, type EditPrice } from './edit-price';
import VatSplit from '../../common/VatSplit';
import type { EditDraft } from './draft';

type Terms = Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'>;

/** The held coupon's terms: null without a coupon, 'loading', or 'unknown' when they could not be read. */
type CouponState = Terms | null | 'loading' | 'unknown';

/** The terms of the coupon a request holds (GET /butlers/coupons lists used holdings too). */
function useHeldCoupon(holdingId: number | null): CouponState {
  const [state, setState] = useState<CouponState>('loading');
  useEffect(() => {
    if (holdingId === null) return;
    let live = true;
    void call((o) => client.butlers.coupons.$get({}, o)).then((res) => {
      if (!live) return;
      const held = res.ok ? res.data.coupons.find((h) => h.id === holdingId) : undefined;
      setState(held ? held.coupon : 'unknown');
    });
    return () => {
      live = false;
    };
  }, [holdingId]);
  return holdingId === null ? null : state;
}

export type EditPriceState =
  | { status: 'ready'; price: EditPrice }
  /** The start time is blank or unreadable: nothing to price yet. */
  | { status: 'incomplete' }
  | { status: 'loading' }
  /** The coupon's terms could not be read: the price is known only after saving. */
  | { status: 'unknown' };

/** The price the server will charge for the draft, recomputed on every change. */
export function useEditPrice(request: ButlerRequestView, draft: EditDraft): EditPriceState {
  const coupon = useHeldCoupon(request.coupon?.id ?? null);
  return useMemo(() => {
    if (coupon === 'loading' || coupon === 'unknown') return { status: coupon };
    const start = instantOf(draft.start);
    if (!start) return { status: 'incomplete' };
    const end = draft.end ? instantOf(draft.end) : null;
    return { status: 'ready', price: editPrice(request.car, start, end, coupon, request.point_used, request.final_price) };
  }, [coupon, draft.start, draft.end, request.car, request.point_used, request.final_price]);
}

const minus = (n: number) => (n > 0 ? `-${won(n)}` : won(0));

/**
 * 변경 후 요금: the new price line by line, what is paid now, and the charge or refund of the
 * difference; for a company trip the new price's 공급가액 and 부가세 and where the company pays it.
 */
export default function EditPricePreview({ state, payer = 'own' }: { state: EditPriceState; payer?: EditPayer }) {
  return (
    <section aria-labelledby="edit-fee-h" className="space-y-3" data-testid="edit-price">
      <h2 id="edit-fee-h" className="text-lg font-semibold">변경 후 요금</h2>
      {state.status === 'ready' ? (
        <>
          <PriceTable
            testId="edit-price-table"
            rows={[
              { label: '기본 요금 (8시간)', value: won(state.price.quote.baseFee) },
              { label: `초과 요금 (${state.price.quote.overtimeHours}시간 × ${won(state.price.quote.overtimeRate)})`, value: won(state.price.quote.overtimeFee) },
              { label: '쿠폰 할인', value: minus(state.price.quote.couponDiscount) },
              { label: '포인트 사용', value: minus(state.price.quote.points) },
              { label: '현재 결제 금액', value: won(state.price.current), testId: 'edit-price-current' },
              { label: '변경 후 결제 금액', value: won(state.price.quote.final), total: true, testId: 'edit-price-final' },
            ]}
          />
          {payer !== 'own' && <p className="text-right"><VatSplit total={state.price.quote.final} className="text-sm text-muted" testId="edit-price-vat" /></p>}
          <p aria-live="polite" data-testid="edit-price-difference" className={`text-sm font-semibold ${state.price.difference === 0 ? 'text-muted' : 'text-ink'}`}>
            {differenceLine(state.price, payer)}
            {state.price.pointsBack > 0 && ` 사용한 포인트 중 ${formatWon(state.price.pointsBack)}P는 포인트로 돌려드립니다.`}
          </p>
        </>
      ) : (
        <p className="text-sm text-muted">
          {state.status === 'loading'
            ? '요금을 계산하는 중입니다...'
            : state.status === 'incomplete'
              ? '출발 시간을 입력하면 변경 후 요금이 표시됩니다.'
              : '변경 후 요금을 미리 계산하지 못했습니다. 금액이 바뀌면 차액은 등록된 카드로 결제되거나 환불됩니다.'}
        </p>
      )}
    </section>
  );
}
