import { Hono } from 'hono';
import type { PaymentDetailAnswer, PaymentListAnswer } from '../../domain/payments';
import { PaymentIdParamSchema } from '../../domain/schemas/payments';
import { ok, validParams, type AppEnv } from '../http';
import { requireUser } from '../auth/guards';
import { customerPayments, paymentPartsOf, ownPayment, refundsOf, toPaymentView, toRefundView } from './ledger';
import { handleWebhook } from './webhooks';
import { unauthorized } from '../errors';
import { WebhookRejected } from '../payment-provider';

/** The customer's payments (own only) and the provider's webhook. */
export const paymentRoutes = new Hono<AppEnv>()
  .get('/', requireUser, async (c) => ok(c, (await customerPayments(c.var.deps.db, c.var.userId)) satisfies PaymentListAnswer))
  .get('/:id', requireUser, validParams(PaymentIdParamSchema), async (c) => {
    const payment = await ownPayment(c.var.deps.db, c.var.userId, c.req.valid('param').id);
    return ok(c, { payment: toPaymentView(payment, (await paymentPartsOf(c.var.deps.db, [payment]))(payment)), refunds: (await refundsOf(c.var.deps.db, [payment.id])).map(toRefundView) } satisfies PaymentDetailAnswer);
  })
  // PortOne V2 webhooks (Standard Webhooks signature over the raw body): 401 and nothing changed when it does not hold.
  .post('/webhook', async (c) => {
    const raw = await c.req.text();
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, c.req.header(h)]));
    try {
      return ok(c, await handleWebhook(c.var.deps, raw, headers));
    } catch (err) {
      if (err instanceof WebhookRejected) throw unauthorized('웹훅 서명을 확인할 수 없습니다.');
      throw err;
    }
  });
