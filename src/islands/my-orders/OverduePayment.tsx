import { call, client } from '../../client/api';
import { termOfferPeriod } from '../../domain/checkout';
import { won } from '../../domain/money';
import type { Subscription } from '../../domain/subscriptions';
import { jsonCheckoutStorage } from '../checkout/checkoutStorage';
import { PaymentDeclined, PaymentDone } from '../checkout/PaymentOutcome';
import { useBillingCheckout, type CheckoutMessages } from '../checkout/useBillingCheckout';
import { CARD_RETURN_PARAM } from './CardChange';

/** Session storage of 카드 변경 후 결제: which subscription, across the card provider's redirect. */
const storage = jsonCheckoutStorage<{ subscriptionId: number }>('subscriptionPayment');

const MESSAGES: CheckoutMessages = {
  providerFailed: (m) => `카드 등록에 실패했습니다: ${m}`,
  sendFailed: '결제하지 못했습니다. 잠시 후 다시 시도해주세요.',
  callFailed: (m) => `카드 등록 창을 열지 못했습니다: ${m}`,
};

/**
 * A subscription's billing on my page: the next charge, or a failed one with its reason, the next
 * automatic try and 카드 변경 후 결제 (a new card, then the owed month at once).
 */
export default function SubscriptionBilling({ subscription: s, onPaid }: { subscription: Subscription; onPaid: () => void }) {
  const checkout = useBillingCheckout({
    storage,
    messages: MESSAGES,
    // The card provider's return belongs to the subscription that left for it (a list can hold several).
    // …and a return from 결제 카드 변경 (?card=) is that flow's (CardChange.tsx).
    ready: (storage.loadDraft()?.subscriptionId ?? s.id) === s.id && (typeof location === 'undefined' || !new URLSearchParams(location.search).has(CARD_RETURN_PARAM)),
    send: async (billingKey, draft) => {
      const res = await call((o) => client.subscriptions[':id'].pay.$post({ param: { id: String(draft?.subscriptionId ?? s.id) }, json: { billing_key: billingKey } }, o));
      if (res.ok) onPaid();
      return res;
    },
  });
  const b = s.billing;
  const pay = () =>
    checkout.start({ subscriptionId: s.id }, { redirectUrl: `${location.origin}/my/subscriptions`, issueName: `구독 #${s.id} 결제 카드 변경`, amount: b.next_charge_amount, offerPeriod: termOfferPeriod(Math.max(1, b.term_months - b.paid_months)) });
  return (
    <div className="mt-2 text-sm" data-testid="subscription-billing">
      {/* The owed month paid: 결제 완료 with the amount, then (the list reloaded) the next charge as usual. */}
      {checkout.stage === 'done' && <PaymentDone payment={checkout.payment} />}
      {b.status === 'ACTIVE' && b.next_charge_date && (
        <p>다음 결제 {b.next_charge_date} · {won(b.next_charge_amount ?? 0)}</p>
      )}
      {(b.status === 'PAST_DUE' || b.status === 'OVERDUE') && (
        <div role="alert" className="mt-1 border border-red-300 bg-red-50 p-3 text-red-800">
          <p className="font-semibold">{b.status === 'OVERDUE' ? '결제가 연체되었습니다.' : '월 구독료 결제에 실패했습니다.'}</p>
          {b.failed_payment?.failure_reason && <p>{b.failed_payment.failure_reason}</p>}
          {b.retry_date && <p>{b.retry_date}에 다시 결제를 시도합니다.</p>}
          <button type="button" onClick={() => void pay()} disabled={checkout.stage === 'sending'} className="mt-2 min-h-11 border border-red-800 px-4 py-2 font-semibold disabled:opacity-50">
            {checkout.stage === 'sending' ? '결제 중...' : '카드 변경 후 결제'}
          </button>
        </div>
      )}
      {checkout.declined && <PaymentDeclined reason={checkout.declined} onRetry={() => void pay()} />}
    </div>
  );
}
