import type { PaymentProviderName, PaymentStatus } from '../domain/payments';

/** Which provider charged a payment. Nothing outside src/api/billing branches on it. */
export type ProviderName = PaymentProviderName;

interface ChargeRequest {
  /** Our payment id: the provider's idempotency key. */
  paymentId: string;
  billingKey: string;
  orderName: string;
  /** Won. */
  amount: number;
  customer: { id: string; name?: string | null; email?: string | null; phone?: string | null };
}

/**
 * What a charge came to. UNKNOWN is a timeout or a network failure: the provider may or may not
 * have charged, so it is never read as a failure; the reconcile job asks the provider later.
 */
export type ChargeResult =
  | { status: 'PAID'; pgTxId: string | null; paidAt: Date; receiptUrl: string | null }
  | { status: 'FAILED'; code: string; reason: string }
  | { status: 'UNKNOWN'; detail: string };

/** The provider's view of a payment (reconciliation). */
export interface ProviderPayment {
  paymentId: string;
  status: PaymentStatus | 'READY';
  amount: number;
  cancelledAmount: number;
  pgTxId: string | null;
  paidAt: Date | null;
  receiptUrl: string | null;
  failure: { code: string; reason: string } | null;
}

interface CancelRequest {
  paymentId: string;
  /** Won; absent = everything left. */
  amount?: number;
  reason: string;
  /** What we believe can still be cancelled: the provider refuses when it differs (a concurrent cancel). */
  currentCancellableAmount: number;
}

/**
 * What a cancel (refund) came to. FAILED is a definite refusal: nothing was cancelled. UNKNOWN is
 * an answer that does not say (a 5xx, UNAUTHORIZED, a network error): the provider may have
 * cancelled, so it is never read as a refusal; the refund is settled by reading the payment back.
 */
export type CancelResult =
  | { status: 'SUCCEEDED'; cancelledAmount: number }
  | { status: 'FAILED'; reason: string; code?: string }
  | { status: 'UNKNOWN'; detail: string };

/**
 * What deleting a billing key came to: DELETED (also when the provider had already deleted it), or
 * FAILED with the provider's reason; the key then stays usable at the provider and the caller says so.
 */
type DeleteKeyResult = { status: 'DELETED' } | { status: 'FAILED'; reason: string };

/** A verified webhook: the payment it concerns (reconcile reads the provider for the rest). */
interface WebhookEvent {
  id: string;
  type: string;
  paymentId: string | null;
}

/** A billing key's card as customers know it; last4 is null when the provider's masked number hides it. */
export interface CardInfo {
  issuer: string;
  last4: string | null;
}

/** The one door money moves through: PortOne V2 (portone.ts) or the sandbox (sandbox-provider.ts). */
export interface PaymentProvider {
  readonly name: ProviderName;
  /**
   * Throws the Korean 422 when the key cannot be charged (unknown, deleted, another provider's);
   * otherwise the card as the provider names it (issuer, last four digits), null when it does not say.
   */
  verifyBillingKey(billingKey: string): Promise<CardInfo | null>;
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** null when the provider has no payment with this id (the charge never reached it). */
  getPayment(paymentId: string): Promise<ProviderPayment | null>;
  cancel(req: CancelRequest): Promise<CancelResult>;
  /** Deletes a billing key at the provider (a card replaced on a subscription): it charges no more. */
  deleteBillingKey(billingKey: string, reason: string): Promise<DeleteKeyResult>;
  /** Verifies a webhook's signature on its raw body; throws WebhookRejected when it does not hold. */
  verifyWebhook(rawBody: string, headers: Record<string, string | undefined>): Promise<WebhookEvent>;
}

export class WebhookRejected extends Error {}

/** Korean text for the provider failures a customer can act on; anything else keeps the provider's own message. */
export function koreanFailure(code: string, message: string | null | undefined): string {
  const known: Record<string, string> = {
    LIMIT_EXCEEDED: '카드 한도가 초과되었습니다. 다른 카드로 결제해주세요.',
    CARD_REJECTED: '카드사에서 결제를 거절했습니다. 다른 카드로 결제해주세요.',
    INSUFFICIENT_FUNDS: '카드 잔액이 부족합니다. 잔액을 확인하거나 다른 카드로 결제해주세요.',
    BILLING_KEY_NOT_FOUND: '등록된 카드를 찾을 수 없습니다. 카드를 다시 등록해주세요.',
    BILLING_KEY_ALREADY_DELETED: '삭제된 카드입니다. 카드를 다시 등록해주세요.',
  };
  return known[code] ?? (message && /[가-힣]/.test(message) ? message : '카드 결제에 실패했습니다. 다른 카드로 결제해주세요.');
}
