import { eq } from 'drizzle-orm';
import { webhookReceipts } from '../db/schema';
import { syncPayment } from './charges';
import type { PaymentContext } from '../payment-context';
import { paymentById } from './ledger';

/**
 * A provider webhook: verified on its raw body (the provider throws WebhookRejected), handled once
 * per webhook id, and reconciled by reading the payment from the provider (the webhook's own
 * fields are never trusted for amounts or states): a payment cancelled in the provider's console
 * shows as cancelled here. The receipt is written after the work, so a webhook whose handling
 * failed is handled when the provider sends it again.
 */
export async function handleWebhook(ctx: PaymentContext, rawBody: string, headers: Record<string, string | undefined>): Promise<{ duplicate: boolean }> {
  const event = await ctx.payments.verifyWebhook(rawBody, headers);
  const [seen] = await ctx.db.select().from(webhookReceipts).where(eq(webhookReceipts.id, event.id));
  if (seen) return { duplicate: true };
  if (event.paymentId && (await paymentById(ctx.db, event.paymentId))) await syncPayment(ctx, event.paymentId);
  await ctx.db.insert(webhookReceipts).values({ id: event.id, type: event.type.slice(0, 80) }).onConflictDoNothing();
  return { duplicate: false };
}
