import { call, client } from '../../../client/api';
import type { ButlerRequestView } from '../../../domain/butler';
import { butlerOfferPeriod } from '../../../domain/checkout';
import { won } from '../../../domain/money';
import { tripChargeName } from '../../../domain/waiting';
import { jsonCheckoutStorage } from '../../checkout/checkoutStorage';
import { PaymentDone } from '../../checkout/PaymentOutcome';
import { useBillingCheckout, type CheckoutMessages } from '../../checkout/useBillingCheckout';

/** Session storage of 카드 변경 후 결제: which booking, across the card provider's redirect. */
const storage = jsonCheckoutStorage<{ requestId: number }>('butlerOvertimePayment');

const MESSAGES: CheckoutMessages = {
  providerFailed: (m) => `카드 등록에 실패했습니다: ${m}`,
  sendFailed: '결제하지 못했습니다. 잠시 후 다시 시도해주세요.',
  callFailed: (m) => `카드 등록 창을 열지 못했습니다: ${m}`,
};

/**
 * A declined overtime charge (staff recorded a longer trip; the card on file refused the
 * difference): the amount, the card company's reason and 카드 변경 후 결제 (a new card, then the
 * charge at once). Paid: 결제 완료 with the amount. A new card declined says why and offers another.
 */
export default function OvertimePayment({ r, onSettled }: { r: ButlerRequestView; onSettled: () => Promise<unknown> }) {
  const checkout = useBillingCheckout({
    storage,
    messages: MESSAGES,
    // The card provider's return belongs to the booking that left for it.
    ready: (storage.loadDraft()?.requestId ?? r.id) === r.id,
    send: async (billingKey, draft) => {
      const res = await call((o) => client.butlers.requests[':id'].pay.$post({ param: { id: String(draft?.requestId ?? r.id) }, json: { billing_key: billingKey } }, o));
      // Paid or declined, the booking shows its latest attempt.
      await onSettled();
      return res;
    },
  });
  const p = r.overtime_payment;
  if (checkout.stage === 'done') return <PaymentDone payment={checkout.payment} />;
  if (p?.status !== 'FAILED') return null;
  const pay = () =>
    checkout.start({ requestId: r.id }, { redirectUrl: `${location.origin}${location.pathname}`, issueName: `의전 #${r.id} 결제 카드 변경`, amount: p.amount, offerPeriod: butlerOfferPeriod(new Date()) });
  // The charge may hold the waiting too (src/domain/waiting.ts): named by what it holds.
  const what = tripChargeName(r.trip_charge);
  return (
    <div role="alert" className="border border-red-300 bg-red-50 p-5 text-sm text-red-800" data-testid="overtime-payment">
      <p className="font-semibold">{checkout.declined ? '카드 결제가 거절되었습니다.' : `${what} 결제에 실패했습니다.`}</p>
      <p className="mt-1">{what} {won(p.amount)}</p>
      <p className="mt-1">{checkout.declined ?? p.failure_reason}</p>
      <button type="button" onClick={() => void pay()} disabled={checkout.stage === 'sending'} className="mt-3 min-h-11 border border-red-800 px-4 py-2 font-semibold disabled:opacity-50">
        {checkout.stage === 'sending' ? '결제 중...' : '카드 변경 후 결제'}
      </button>
    </div>
  );
}
