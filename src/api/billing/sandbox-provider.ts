import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from '@portone/server-sdk';
import type { PaymentStatus } from '../../domain/payments';
import { inTransaction, type Db } from '../db/client';
import { sandboxDeletedBillingKeys, sandboxPayments } from '../db/schema';
import type { Config } from '../env';
import type { Clock } from '../jobs/clock';
import { invalidBillingKey } from './errors';
import { koreanFailure, WebhookRejected, type CancelResult, type CardInfo, type ChargeResult, type PaymentProvider, type ProviderPayment } from '../payment-provider';
import { rowTime } from '../jobs/clock';

/** Prefix of billing keys issued by the sandbox provider. */
const SANDBOX_KEY_PREFIX = 'sandbox-bk-';

/**
 * The sandbox's test cards, chosen on its card page: what every charge of a key issued for it
 * does. `slow` answers after SANDBOX_SLOW_MS (15 s), longer than the server waits for a provider.
 */
const SANDBOX_CARDS = ['approve', 'decline-limit', 'decline-rejected', 'insufficient', 'slow'] as const;
export type SandboxCard = (typeof SANDBOX_CARDS)[number];

/** The card page's `charges` field (approve|decline|insufficient|slow, with decline_reason=limit|rejected). */
export function sandboxCardFrom(charges: string | undefined, declineReason?: string): SandboxCard | null {
  if (!charges || charges === 'approve') return 'approve';
  if (charges === 'decline') return declineReason === 'limit' ? 'decline-limit' : 'decline-rejected';
  if (charges === 'insufficient' || charges === 'slow') return charges;
  return (SANDBOX_CARDS as readonly string[]).includes(charges) ? (charges as SandboxCard) : null;
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', `sandbox-billing:${secret}`).update(body).digest('base64url').slice(0, 24);
}

/** A new sandbox billing key for a test card, signed so the server can trust the card without storing it. */
export function issueSandboxBillingKey(config: Config, card: SandboxCard = 'approve'): string {
  const body = `${card}.${randomBytes(12).toString('base64url')}`;
  return `${SANDBOX_KEY_PREFIX}${body}.${sign(config.jwtSecret, body)}`;
}

/** The test card of a key this server's sandbox issued; null for anything else. */
function sandboxCardOf(config: Config, key: string): SandboxCard | null {
  if (!key.startsWith(SANDBOX_KEY_PREFIX)) return null;
  const parts = key.slice(SANDBOX_KEY_PREFIX.length).split('.');
  if (parts.length !== 3) return null;
  const [card, nonce, sig] = parts;
  const a = Buffer.from(sig);
  const b = Buffer.from(sign(config.jwtSecret, `${card}.${nonce}`));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  return (SANDBOX_CARDS as readonly string[]).includes(card) ? (card as SandboxCard) : null;
}

/** The issuer the sandbox names for each test card, so pages can tell them apart. */
const SANDBOX_ISSUERS: Record<SandboxCard, string> = {
  approve: '샌드박스카드',
  'decline-limit': '샌드박스한도초과카드',
  'decline-rejected': '샌드박스거절카드',
  insufficient: '샌드박스잔액부족카드',
  slow: '샌드박스지연카드',
};

/** A sandbox key's card: its test card's issuer and four digits derived from the key (the same key, the same digits). */
export function sandboxCardInfo(card: SandboxCard, key: string): CardInfo {
  const n = createHmac('sha256', 'sandbox-card-number').update(key).digest().readUInt32BE(0) % 10000;
  return { issuer: SANDBOX_ISSUERS[card], last4: String(n).padStart(4, '0') };
}

/** The sandbox's webhook secret (Standard Webhooks, `whsec_` + base64), derived from the signing secret. */
export function sandboxWebhookSecret(config: Config): string {
  return `whsec_${createHmac('sha256', `sandbox-webhook:${config.jwtSecret}`).update('v1').digest('base64')}`;
}

const DECLINES: Partial<Record<SandboxCard, string>> = {
  'decline-limit': 'LIMIT_EXCEEDED',
  'decline-rejected': 'CARD_REJECTED',
  insufficient: 'INSUFFICIENT_FUNDS',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sandbox provider: PortOne's behaviour on its own books (sandbox_payments) in the product's
 * database. A payment id is charged once (a repeat answers the first result), cancels check the
 * cancellable amount, and every payment has a printable receipt (/api/sandbox/receipts/{id}).
 */
/** `clock`: the business clock, so a sandbox payment's times follow POST /admin/test-clock like ours. */
export function sandboxProvider(db: Db, config: Config, clock: Clock): PaymentProvider {
  const toProviderPayment = (row: typeof sandboxPayments.$inferSelect): ProviderPayment => ({
    paymentId: row.paymentId,
    status: row.status,
    amount: row.amount,
    cancelledAmount: row.cancelledAmount,
    pgTxId: row.pgTxId,
    paidAt: row.paidAt,
    receiptUrl: row.status === 'FAILED' ? null : sandboxReceiptUrl(config, row.paymentId),
    failure: row.failureCode ? { code: row.failureCode, reason: koreanFailure(row.failureCode, row.failureMessage) } : null,
  });
  const read = async (paymentId: string) => (await db.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, paymentId)))[0];
  const asResult = (row: typeof sandboxPayments.$inferSelect): ChargeResult =>
    row.status === 'FAILED'
      ? { status: 'FAILED', code: row.failureCode ?? 'CARD_REJECTED', reason: koreanFailure(row.failureCode ?? 'CARD_REJECTED', row.failureMessage) }
      : { status: 'PAID', pgTxId: row.pgTxId, paidAt: row.paidAt ?? row.createdAt, receiptUrl: sandboxReceiptUrl(config, row.paymentId) };

  const deleted = async (key: string) => (await db.select({ key: sandboxDeletedBillingKeys.billingKey }).from(sandboxDeletedBillingKeys).where(eq(sandboxDeletedBillingKeys.billingKey, key))).length > 0;

  return {
    name: 'sandbox',
    async verifyBillingKey(key) {
      const card = sandboxCardOf(config, key);
      if (!card || (await deleted(key))) throw invalidBillingKey();
      return sandboxCardInfo(card, key);
    },
    async charge(req) {
      const card = sandboxCardOf(config, req.billingKey);
      if (!card) return { status: 'FAILED', code: 'BILLING_KEY_NOT_FOUND', reason: koreanFailure('BILLING_KEY_NOT_FOUND', null) };
      const earlier = await read(req.paymentId);
      if (earlier) return asResult(earlier);
      // A key deleted (a card replaced) charges no more, as at PortOne.
      if (await deleted(req.billingKey)) return { status: 'FAILED', code: 'BILLING_KEY_ALREADY_DELETED', reason: koreanFailure('BILLING_KEY_ALREADY_DELETED', null) };
      await sleep(config.payments.sandboxLatencyMs + (card === 'slow' ? config.payments.sandboxSlowMs : 0));
      const code = DECLINES[card];
      const status: PaymentStatus = code ? 'FAILED' : 'PAID';
      const now = clock.now();
      const [made] = await db
        .insert(sandboxPayments)
        .values({
          paymentId: req.paymentId, billingKey: req.billingKey, orderName: req.orderName, amount: req.amount, status,
          failureCode: code ?? null, failureMessage: code ? koreanFailure(code, null) : null,
          pgTxId: `sandbox-tx-${randomBytes(8).toString('hex')}`, customerName: req.customer.name ?? null, paidAt: code ? null : now,
        })
        // Two calls with one id at once: the first row stands; both answer it.
        .onConflictDoNothing()
        .returning();
      return asResult(made ?? (await read(req.paymentId)));
    },
    async getPayment(paymentId) {
      const row = await read(paymentId);
      return row ? toProviderPayment(row) : null;
    },
    async cancel(req): Promise<CancelResult> {
      return inTransaction(db, async (tx) => {
        const [row] = await tx.select().from(sandboxPayments).where(eq(sandboxPayments.paymentId, req.paymentId)).for('update');
        if (!row || row.status === 'FAILED') return { status: 'FAILED', reason: '취소할 수 있는 결제가 없습니다.' };
        const cancellable = row.amount - row.cancelledAmount;
        if (req.currentCancellableAmount !== cancellable) return { status: 'FAILED', reason: '취소 가능 금액이 변경되었습니다. 다시 확인해주세요.' };
        const amount = req.amount ?? cancellable;
        if (amount <= 0 || amount > cancellable) return { status: 'FAILED', reason: '취소 가능 금액을 넘었습니다.' };
        const cancelled = row.cancelledAmount + amount;
        await tx
          .update(sandboxPayments)
          .set({
            cancelledAmount: cancelled,
            status: cancelled === row.amount ? 'CANCELLED' : 'PARTIAL_CANCELLED',
            cancellations: sql`${sandboxPayments.cancellations} || ${JSON.stringify([{ id: `sandbox-cancel-${randomBytes(6).toString('hex')}`, amount, reason: req.reason, at: clock.now().toISOString() }])}::jsonb`,
            updatedAt: rowTime(),
          })
          .where(eq(sandboxPayments.paymentId, req.paymentId));
        return { status: 'SUCCEEDED', cancelledAmount: amount };
      });
    },
    async deleteBillingKey(key, reason) {
      if (!sandboxCardOf(config, key)) return { status: 'FAILED', reason: '샌드박스가 발급한 빌링키가 아닙니다.' };
      await db.insert(sandboxDeletedBillingKeys).values({ billingKey: key, reason, deletedAt: clock.now() }).onConflictDoNothing();
      return { status: 'DELETED' };
    },
    async verifyWebhook(rawBody, headers) {
      return verifyStandardWebhook(sandboxWebhookSecret(config), rawBody, headers);
    },
  };
}

/**
 * The printable receipt page of a sandbox payment (served by the sandbox routes). Payment ids can be
 * guessed, so the address carries a key only the server can make: it reaches the payer (their
 * payments, their messages) and staff, like a PortOne receipt link.
 */
const sandboxReceiptUrl = (config: Config, paymentId: string) => `/api/sandbox/receipts/${encodeURIComponent(paymentId)}?key=${sandboxReceiptKey(config, paymentId)}`;

export function sandboxReceiptKey(config: Config, paymentId: string): string {
  return createHmac('sha256', `sandbox-receipt:${config.jwtSecret}`).update(paymentId).digest('base64url').slice(0, 32);
}

/**
 * A PortOne V2 webhook (Standard Webhooks signature) verified with the official SDK, read down
 * to what reconciliation needs. Both providers sign the same way.
 */
export async function verifyStandardWebhook(secret: string, rawBody: string, headers: Record<string, string | undefined>): Promise<{ id: string; type: string; paymentId: string | null }> {
  let webhook: { type?: string; data?: { paymentId?: string } };
  try {
    webhook = (await Webhook.verify(secret, rawBody, headers)) as typeof webhook;
  } catch (err) {
    throw new WebhookRejected(err instanceof Error ? err.message : 'invalid webhook', { cause: err });
  }
  return { id: headers['webhook-id'] ?? '', type: String(webhook.type ?? ''), paymentId: webhook.data?.paymentId ?? null };
}
