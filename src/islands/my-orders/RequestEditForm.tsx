import { useEffect, useMemo, useState } from 'react';
import { call, client } from '../../client/api';
import { availableDurations, carDisplayName, feeForTerm } from '../../domain/car';
import { cardLabel } from '../../domain/card-label';
import { pricedOptions, quoteSubscriptionOrder } from '../../domain/subscription-price';
import { termOfferPeriod } from '../../domain/checkout';
import { todayInKorea } from '../../domain/dates';
import { couponSelectable, type CouponHolding } from '../../domain/pricing';
import type { SubscriptionRequest } from '../../domain/subscriptions';
import CouponSelect from '../checkout/CouponSelect';
import { jsonCheckoutStorage } from '../checkout/checkoutStorage';
import { subscriptionCheckoutMessages } from '../checkout/payment-messages';
import { useBillingCheckout } from '../checkout/useBillingCheckout';

interface Props {
  request: SubscriptionRequest;
  onSaved: (r: SubscriptionRequest) => void;
}

/** What a save sends besides the billing key (kept across the provider redirect of 카드 변경). */
interface EditDraft {
  month: number;
  couponId: number | null;
  points: number;
}

const field = 'w-full border border-line bg-white px-3 py-2';
const storage = jsonCheckoutStorage<EditDraft>('subscribeEdit');
const MESSAGES = subscriptionCheckoutMessages('요청 수정에 실패했습니다.');

/** Edits term, coupon (picker of the held coupons) and points; 카드 변경 registers a new card through the billing flow. */
export default function RequestEditForm({ request, onSaved }: Props) {
  const [month, setMonth] = useState(request.month);
  const [couponId, setCouponId] = useState<number | null>(request.coupon?.id ?? null);
  const [points, setPoints] = useState(String(request.point_used));
  const [coupons, setCoupons] = useState<CouponHolding[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; lines: string[] } | null>(null);

  useEffect(() => {
    void call((o) => client.subscriptions.coupons.$get({ query: { service: 'SUBSCRIBE' } }, o)).then((res) => res.ok && setCoupons(res.data.coupons));
  }, []);

  const termFee = feeForTerm(request.car, month);
  // The monthly fee with the options as ordered (what the server measures the coupon against).
  const stored = request.options;
  const fee = termFee === null || !stored ? termFee : quoteSubscriptionOrder({ month, fee: termFee, prices: stored.prices, options: pricedOptions(stored.options) }).monthly;
  // The coupon this request holds counts as free to keep; others must fit the fee.
  const usable = useMemo(
    () => (fee === null ? [] : coupons.filter((h) => h.id === request.coupon?.id || couponSelectable(h, fee, todayInKorea(new Date())))),
    [coupons, fee, request.coupon?.id],
  );

  async function send(billingKey: string, draft: EditDraft | null) {
    const d = draft ?? { month, couponId, points: Number(points) || 0 };
    const res = await call((o) => client.subscriptions.requests[':id'].$put({ param: { id: String(request.id) }, json: {
      month: d.month, coupon_id: d.couponId ?? 0, point_amount: d.points, billing_key: billingKey,
    } }, o));
    if (res.ok) {
      onSaved(res.data.subscription_request);
      setNotice({ ok: true, lines: ['요청이 성공적으로 수정되었습니다.'] });
    } else {
      setNotice({ ok: false, lines: ['요청 수정에 실패했습니다.', res.error.message, ...Object.values(res.error.errors ?? {}).flat()] });
    }
    return res;
  }
  const checkout = useBillingCheckout({ storage, send, messages: MESSAGES });

  async function save(e: { preventDefault(): void }) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    // The masked key stands for the card already registered.
    await send(request.billing_key, { month, couponId, points: Number(points) || 0 });
    setBusy(false);
  }

  function changeCard() {
    void checkout.start(
      { month, couponId, points: Number(points) || 0 },
      {
        redirectUrl: `${location.origin}/subscribe/request/${request.id}`,
        issueName: `${carDisplayName(request.car)} ${month}개월 구독 (카드 변경)`,
        amount: null,
        offerPeriod: termOfferPeriod(month),
      },
    );
  }

  return (
    <form onSubmit={(e) => void save(e)} className="grid gap-4 sm:grid-cols-2" aria-label="신청 수정">
      <label className="text-sm">기간 (개월)
        <select value={month} onChange={(e) => setMonth(Number(e.target.value))} className={field}>
          {availableDurations(request.car).map((t) => <option key={t} value={t}>{t}개월</option>)}
        </select>
      </label>
      <label className="text-sm">포인트
        <input type="number" min={0} required value={points} onChange={(e) => setPoints(e.target.value)} className={field} />
      </label>
      <div className="text-sm sm:col-span-2">
        <p className="mb-1">쿠폰</p>
        <CouponSelect coupons={usable} fee={fee ?? 0} value={couponId} onChange={setCouponId} />
      </div>
      <div className="flex flex-wrap items-center gap-3 text-sm sm:col-span-2">
        <span>결제 카드 <span className="text-muted" data-testid="request-card">{cardLabel(request.card)}</span></span>
        <button type="button" onClick={changeCard} disabled={busy || checkout.stage === 'sending'} className="min-h-11 border border-ink px-4 disabled:opacity-50">카드 변경</button>
      </div>
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy || checkout.stage === 'sending'} className="min-h-11 bg-ink px-6 py-3 font-semibold text-paper disabled:opacity-50">
          {busy || checkout.stage === 'sending' ? '저장 중...' : '저장'}
        </button>
        {notice && (
          <div role={notice.ok ? 'status' : 'alert'} className={`mt-3 text-sm ${notice.ok ? 'text-green-800' : 'text-red-700'}`}>
            {[...new Set(notice.lines)].map((l) => <p key={l}>{l}</p>)}
          </div>
        )}
      </div>
    </form>
  );
}
