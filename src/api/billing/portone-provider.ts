import { PortOneClient, PortOneError, type Payment } from '@portone/server-sdk';
import type { Config } from '../env';
import { invalidBillingKey, providerUnavailable } from './errors';
import { cardIssuerName } from '../../domain/card-label';
import { koreanFailure, WebhookRejected, type CardInfo, type ChargeResult, type PaymentProvider, type ProviderPayment } from '../payment-provider';
import { verifyStandardWebhook } from './sandbox-provider';
import { rowTime } from '../jobs/clock';

/** The `data` of a PortOne REST error (the SDK's error classes carry it). */
type RestErrorData = { type?: string; message?: string; pgCode?: string; pgMessage?: string };
const restError = (err: unknown): RestErrorData | null =>
  err instanceof PortOneError && 'data' in err && err.data && typeof err.data === 'object' ? err.data : null;

/** The fields readPayment reads: each variant of the SDK's Payment has some of them (an unknown status comes as a string too). */
type PaymentView = {
  status: Payment.Payment['status'];
  amount?: { total?: number; cancelled?: number };
  pgTxId?: string;
  paidAt?: string;
  receiptUrl?: string;
  failure?: { reason?: string; pgCode?: string; pgMessage?: string };
};

/**
 * The payWithBillingKey errors (PayWithBillingKeyError in @portone/server-sdk) that are a definite
 * refusal: the card company declined (PG_PROVIDER), the billing key or channel cannot be charged,
 * or PortOne rejected the request itself. Nothing was charged under the payment id, so the charge
 * is FAILED and a retry may use a new id. Every other answer (UNAUTHORIZED, FORBIDDEN,
 * PAYMENT_SCHEDULE_ALREADY_EXISTS, a 5xx or unrecognised body, a network error) leaves the outcome
 * unknown: it is UNKNOWN, and the reconcile job asks the provider under the same id.
 */
const DEFINITE_REFUSALS = new Set([
  'PG_PROVIDER',
  'BILLING_KEY_NOT_FOUND',
  'BILLING_KEY_ALREADY_DELETED',
  'CHANNEL_NOT_FOUND',
  'INVALID_REQUEST',
  'MAX_TRANSACTION_COUNT_REACHED',
  'DISCOUNT_AMOUNT_EXCEEDS_TOTAL_AMOUNT',
  'SUM_OF_PARTS_EXCEEDS_TOTAL_AMOUNT',
  'PROMOTION_PAY_METHOD_DOES_NOT_MATCH',
]);

/**
 * The cancelPayment errors (CancelPaymentError in @portone/server-sdk) that are a definite refusal:
 * nothing was cancelled. Each has its Korean reason. Every other answer (UNAUTHORIZED, FORBIDDEN,
 * a 5xx or unrecognised body, a network error) leaves the refund's outcome unknown (UNKNOWN): it is
 * settled by reading the payment back, never recorded as a failed refund.
 */
const CANCEL_REFUSALS: Record<string, string> = {
  PAYMENT_NOT_FOUND: '결제사에서 결제 내역을 찾을 수 없어 취소하지 못했습니다.',
  PAYMENT_NOT_PAID: '결제가 완료되지 않아 취소할 수 없습니다.',
  PAYMENT_ALREADY_CANCELLED: '이미 취소된 결제입니다.',
  CANCELLABLE_AMOUNT_CONSISTENCY_BROKEN: '취소 가능 금액이 변경되었습니다. 결제 내역을 새로 확인한 뒤 다시 시도해주세요.',
  CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT: '취소 금액이 취소 가능 금액을 넘었습니다.',
  CANCEL_TAX_AMOUNT_EXCEEDS_CANCELLABLE_TAX_AMOUNT: '취소 세액이 취소 가능 세액을 넘었습니다.',
  CANCEL_TAX_FREE_AMOUNT_EXCEEDS_CANCELLABLE_TAX_FREE_AMOUNT: '면세 취소 금액이 취소 가능 면세 금액을 넘었습니다.',
  NEGATIVE_PROMOTION_ADJUSTED_CANCEL_AMOUNT: '프로모션 할인을 반영한 취소 금액이 0원보다 작아 취소할 수 없습니다.',
  PROMOTION_DISCOUNT_RETAIN_OPTION_SHOULD_NOT_BE_CHANGED: '프로모션 할인 유지 설정은 바꿀 수 없습니다.',
  SUM_OF_PARTS_EXCEEDS_CANCEL_AMOUNT: '취소 금액의 구성이 취소 금액을 넘었습니다.',
  INVALID_REQUEST: '결제사가 취소 요청을 거절했습니다.',
  PG_PROVIDER: '카드사가 결제 취소를 거절했습니다.',
};
const DEFINITE_CANCEL_REFUSALS = new Set(Object.keys(CANCEL_REFUSALS));

/** PortOne V2 through its official server SDK (`@portone/server-sdk`). */
export function portoneProvider(config: Config): PaymentProvider {
  const { apiSecret, apiBaseUrl, storeId, webhookSecret } = config.portone;
  const client = PortOneClient({ secret: apiSecret ?? '', baseUrl: apiBaseUrl, storeId });

  const readPayment = async (paymentId: string): Promise<ProviderPayment | null> => {
    let p: PaymentView;
    try {
      p = await client.payment.getPayment({ paymentId });
    } catch (err) {
      if (restError(err)?.type === 'PAYMENT_NOT_FOUND') return null;
      throw err;
    }
    const amount = p.amount ?? {};
    const status = String(p.status);
    const failure = p.failure;
    return {
      paymentId,
      status: (['PAID', 'FAILED', 'CANCELLED', 'PARTIAL_CANCELLED'].includes(status) ? status : status === 'READY' ? 'READY' : 'PENDING') as ProviderPayment['status'],
      amount: amount.total ?? 0,
      cancelledAmount: amount.cancelled ?? 0,
      pgTxId: p.pgTxId ?? null,
      paidAt: p.paidAt ? new Date(p.paidAt) : null,
      receiptUrl: p.receiptUrl ?? null,
      failure: status === 'FAILED' ? { code: failure?.pgCode ?? 'PG_PROVIDER', reason: koreanFailure(failure?.pgCode ?? '', failure?.pgMessage ?? failure?.reason) } : null,
    };
  };

  return {
    name: 'portone',
    async verifyBillingKey(billingKey) {
      let info: BillingKeyAnswer;
      try {
        info = (await client.payment.billingKey.getBillingKeyInfo({ billingKey })) as BillingKeyAnswer;
      } catch (err) {
        const type = restError(err)?.type;
        if (type === 'BILLING_KEY_NOT_FOUND' || type === 'INVALID_REQUEST') throw invalidBillingKey();
        throw type ? providerUnavailable('결제 수단을 확인하지 못했습니다. 잠시 후 다시 시도해주세요.') : providerUnavailable();
      }
      if (info.status !== 'ISSUED') throw invalidBillingKey();
      return portoneCard(info);
    },
    async charge(req): Promise<ChargeResult> {
      try {
        const res = await client.payment.payWithBillingKey({
          paymentId: req.paymentId,
          billingKey: req.billingKey,
          orderName: req.orderName,
          amount: { total: req.amount },
          currency: 'KRW',
          customer: { id: req.customer.id, ...(req.customer.email ? { email: req.customer.email } : {}), ...(req.customer.phone ? { phoneNumber: req.customer.phone } : {}) },
        });
        const paid = await readPayment(req.paymentId).catch(() => null);
        return { status: 'PAID', pgTxId: res.payment.pgTxId ?? null, paidAt: new Date(res.payment.paidAt), receiptUrl: paid?.receiptUrl ?? null };
      } catch (err) {
        const data = restError(err);
        if (!data) return { status: 'UNKNOWN', detail: err instanceof Error ? err.message : String(err) };
        if (data.type === 'ALREADY_PAID') {
          // A retry of a charge that went through: the provider's record is the answer.
          const paid = await readPayment(req.paymentId).catch(() => null);
          if (paid?.status === 'PAID' || paid?.status === 'PARTIAL_CANCELLED' || paid?.status === 'CANCELLED') return { status: 'PAID', pgTxId: paid.pgTxId, paidAt: paid.paidAt ?? rowTime(), receiptUrl: paid.receiptUrl };
          return { status: 'UNKNOWN', detail: 'ALREADY_PAID without a paid payment' };
        }
        if (!data.type || !DEFINITE_REFUSALS.has(data.type)) return { status: 'UNKNOWN', detail: `PortOne answered ${data.type ?? 'an error'}${data.message ? `: ${data.message}` : ''}` };
        const code = data.type === 'PG_PROVIDER' ? (data.pgCode ?? 'PG_PROVIDER') : data.type;
        return { status: 'FAILED', code, reason: koreanFailure(code, data.pgMessage ?? data.message) };
      }
    },
    getPayment: readPayment,
    async cancel(req) {
      try {
        const res = await client.payment.cancelPayment({ paymentId: req.paymentId, amount: req.amount, reason: req.reason, currentCancellableAmount: req.currentCancellableAmount });
        const c = res.cancellation as { status?: string; totalAmount?: number };
        if (c.status === 'FAILED') return { status: 'FAILED', reason: '결제사가 취소를 거절했습니다.' };
        return { status: 'SUCCEEDED', cancelledAmount: c.totalAmount ?? req.amount ?? req.currentCancellableAmount };
      } catch (err) {
        const data = restError(err);
        if (!data?.type || !DEFINITE_CANCEL_REFUSALS.has(data.type)) {
          return { status: 'UNKNOWN', detail: data ? `PortOne answered ${data.type ?? 'an error'}${data.message ? `: ${data.message}` : ''}` : err instanceof Error ? err.message : String(err) };
        }
        const own = data.type === 'PG_PROVIDER' ? (data.pgMessage ?? data.message) : undefined;
        return { status: 'FAILED', code: data.type, reason: own && /[가-힣]/.test(own) ? own : CANCEL_REFUSALS[data.type] };
      }
    },
    async deleteBillingKey(billingKey, reason) {
      try {
        await client.payment.billingKey.deleteBillingKey({ billingKey, reason });
        return { status: 'DELETED' };
      } catch (err) {
        const data = restError(err);
        // Deleted before (or never known): nothing is left to charge under it.
        if (data?.type === 'BILLING_KEY_ALREADY_DELETED' || data?.type === 'BILLING_KEY_NOT_FOUND') return { status: 'DELETED' };
        return { status: 'FAILED', reason: data ? `PortOne answered ${data.type ?? 'an error'}${data.message ? `: ${data.message}` : ''}` : err instanceof Error ? err.message : String(err) };
      }
    },
    async verifyWebhook(rawBody, headers) {
      if (!webhookSecret) throw new WebhookRejected('PORTONE_WEBHOOK_SECRET is not set');
      return verifyStandardWebhook(webhookSecret, rawBody, headers);
    },
  };
}

type BillingKeyAnswer = { status?: string; methods?: { card?: { name?: string; issuer?: string; publisher?: string; number?: string } }[] };

/**
 * The card of PortOne's billing-key info: the issuer's code named in Korean (HYUNDAI_CARD → 현대카드;
 * else the publisher's; else a Korean product name, which names its issuer), and the last four
 * digits of the masked number when they are digits (1234-56**-****-7890). null when no method
 * names a card (an easy-pay key without card details).
 */
export function portoneCard(info: BillingKeyAnswer): CardInfo | null {
  const card = info.methods?.map((m) => m.card).find((c) => c && (c.name || c.issuer || c.publisher || c.number));
  if (!card) return null;
  const productName = card.name && /[가-힣]/.test(card.name) ? card.name : null;
  const issuer = (cardIssuerName(card.issuer) ?? cardIssuerName(card.publisher) ?? productName ?? '').trim().slice(0, 40);
  const tail = (card.number ?? '').replace(/[\s-]/g, '').slice(-4);
  const last4 = /^\d{4}$/.test(tail) ? tail : null;
  if (!issuer && !last4) return null;
  return { issuer, last4 };
}
