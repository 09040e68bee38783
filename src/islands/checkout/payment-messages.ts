import { won } from '../../domain/money';
import type { PaymentView } from '../../domain/payments';
import type { CheckoutMessages } from './useBillingCheckout';

/** A provider's or browser's message when it is Korean; an English SDK or network error is no help to the reader. */
const korean = (message: string) => (/[가-힣]/.test(message) ? message : '');

/** 결제에 실패했습니다: {reason} (the spec's 'Payment failed: {message}'). */
export const paymentFailed = (message: string) => (korean(message) ? `결제에 실패했습니다: ${message}` : '결제에 실패했습니다. 잠시 후 다시 시도해주세요.');

/** The card window could not be opened (the spec's 'Error during payment call: …'). */
export const paymentCallFailed = (message: string) =>
  korean(message) ? `결제 요청 중 오류가 발생했습니다: ${message}` : '결제 요청 중 오류가 발생했습니다. 잠시 후 다시 시도해주세요.';

/** The subscription checkouts' alerts, with the text shown when the order itself fails. */
export const subscriptionCheckoutMessages = (sendFailed: string): CheckoutMessages => ({ providerFailed: paymentFailed, sendFailed, callFailed: paymentCallFailed });

/**
 * What the completion dialogs say happened to the card: the order's charge is made at once (no
 * bank transfer to wait for), so the sentence states it was charged, is still being confirmed by
 * the card company, or that nothing was due (coupon and points covered the price).
 */
export function chargedSentence(payment: Pick<PaymentView, 'status' | 'amount'> | null): string {
  if (!payment) return '결제할 금액이 없어 카드로 결제되지 않았습니다.';
  if (payment.status === 'PENDING') return `등록하신 카드로 ${won(payment.amount)} 결제를 요청했으며, 카드사 확인을 기다리고 있습니다.`;
  return `등록하신 카드로 ${won(payment.amount)}이 결제되었습니다.`;
}
