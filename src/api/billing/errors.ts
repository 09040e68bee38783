import { ErrorCode } from '../../domain/error-codes';
import { ApiError, unprocessable } from '../errors';
import type { PaymentRow } from '../payment-context';

/** 422: the billing key cannot be charged (unknown, deleted, issued by another provider). */
export const invalidBillingKey = () => unprocessable('유효하지 않은 결제 수단(빌링키)입니다. 카드를 다시 등록해주세요.', { billing_key: ['유효하지 않은 빌링키입니다.'] });

/** 502: the provider cannot be reached or answered an error of its own. */
export const providerUnavailable = (message = '결제사와 통신하지 못했습니다. 잠시 후 다시 시도해주세요.') => new ApiError(502, ErrorCode.PAYMENT, message);

/** 422 with the provider's reason in Korean: the card was declined and nothing was spent. */
const paymentDeclined = (reason: string) => new ApiError(422, ErrorCode.PAYMENT_DECLINED, reason, { payment: [reason] });

/** The one answer to a declined charge: 422 with the provider's reason (paymentDeclined); any other payment, or none, passes through. */
export function declinedOrFine<P extends Pick<PaymentRow, 'status' | 'failureReason'> | null>(payment: P): P {
  if (payment?.status === 'FAILED') throw paymentDeclined(payment.failureReason ?? '카드 결제에 실패했습니다.');
  return payment;
}
