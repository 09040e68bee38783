import { useState } from 'react';
import { call, client } from '../../client/api';
import { termOfferPeriod } from '../../domain/checkout';
import type { Subscription } from '../../domain/subscriptions';
import { jsonCheckoutStorage } from '../checkout/checkoutStorage';
import { PaymentDeclined } from '../checkout/PaymentOutcome';
import { useBillingCheckout, type CheckoutMessages } from '../checkout/useBillingCheckout';
import { cardLabel } from '../../domain/card-label';
import { dotDate } from '../../domain/dates';

/** Session storage of 결제 카드 변경: which subscription, across the card provider's redirect. */
const storage = jsonCheckoutStorage<{ subscriptionId: number }>('subscriptionCard');

/** The query the card provider returns to (`/my/subscriptions?card={id}`): tells this flow's return from 카드 변경 후 결제's. */
export const CARD_RETURN_PARAM = 'card';
const returnFor = () => (typeof location === 'undefined' ? null : new URLSearchParams(location.search).get(CARD_RETURN_PARAM));

const MESSAGES: CheckoutMessages = {
  providerFailed: (m) => `카드 등록에 실패했습니다: ${m}`,
  sendFailed: '결제 카드를 변경하지 못했습니다. 잠시 후 다시 시도해주세요.',
  callFailed: (m) => `카드 등록 창을 열지 못했습니다: ${m}`,
};

/**
 * 결제 카드 변경 on an active subscription (my subscriptions): a new card is registered as at
 * ordering, and every charge from then on uses it (a pending retry of an owed month too); the old
 * card is deleted at the card provider. Shown while charges remain; an overdue subscription pays
 * with 카드 변경 후 결제 instead.
 */
export default function CardChange({ subscription: s, onChanged }: { subscription: Subscription; onChanged: () => void }) {
  const [done, setDone] = useState<string | null>(null);
  const checkout = useBillingCheckout({
    storage,
    messages: MESSAGES,
    ready: returnFor() === String(s.id),
    send: async (billingKey, draft) => {
      const res = await call((o) => client.subscriptions[':id'].card.$post({ param: { id: String(draft?.subscriptionId ?? s.id) }, json: { billing_key: billingKey } }, o));
      if (res.ok) {
        setDone(res.data.retry_date ? `결제 카드를 변경했습니다. ${dotDate(res.data.retry_date)}에 새 카드로 밀린 요금을 다시 결제합니다.` : '결제 카드를 변경했습니다. 다음 결제부터 새 카드로 결제됩니다.');
        onChanged();
      }
      return res;
    },
  });
  const b = s.billing;
  if (!s.is_active || !b.next_charge_date || (b.status !== 'ACTIVE' && b.status !== 'PAST_DUE')) return null;
  const change = () =>
    checkout.start({ subscriptionId: s.id }, { redirectUrl: `${location.origin}/my/subscriptions?${CARD_RETURN_PARAM}=${s.id}`, issueName: `구독 #${s.id} 결제 카드 변경`, amount: b.next_charge_amount, offerPeriod: termOfferPeriod(Math.max(1, b.term_months - b.paid_months)) });
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="card-change">
      <span className="text-muted" data-testid="subscription-card">결제 카드 {cardLabel(b.card)}</span>
      <button type="button" onClick={() => void change()} disabled={checkout.stage === 'sending'} className="min-h-11 border border-ink px-4 py-2 font-semibold disabled:opacity-50">
        {checkout.stage === 'sending' ? '변경 중...' : '결제 카드 변경'}
      </button>
      {checkout.stage === 'done' && done && <p role="status" className="w-full">{done}</p>}
      {checkout.failure && checkout.stage !== 'done' && <p role="alert" className="w-full text-muted">{checkout.failure}</p>}
      {checkout.declined && <PaymentDeclined reason={checkout.declined} onRetry={() => void change()} />}
    </div>
  );
}
