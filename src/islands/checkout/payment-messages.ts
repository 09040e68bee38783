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
