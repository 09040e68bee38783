import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { OverdueAnswer, StaffPaymentPage, StaffRefundAnswer, TripRecordAnswer } from '../../domain/console';
import type { PaymentAnswer } from '../../domain/payments';
import { IdParamSchema } from '../../domain/schemas/catalogue';
import { AdminPaymentsQuerySchema, PaymentIdParamSchema, RefundSchema, TestClockSchema, TripRecordSchema } from '../../domain/schemas/payments';
import { inTransaction } from '../db/client';
import { butlerRequests } from '../db/schema';
import { notFound } from '../errors';
import { ok, validJson, validParams, validQuery, type AppEnv } from '../http';
import { requireAdmin, requireFixtures, requireMachine } from '../auth/guards';
import { declinedOrFine } from './errors';
import { paymentById, staffPayments, toPaymentView, toRefundView } from './ledger';
import { refundPayment } from './refunds';
import { ADMIN_PAGE_SIZE } from '../pagination';
import { retryBookingCharge, settleTrip, tripCar } from './butler-billing';
import { overdueSubscriptions, payOwedMonth } from './subscription-billing';
import { auditedCall, recordAudit } from '../audit/audit';
import { pendingJobs } from '../jobs/queue';
import { StaffOdometerSchema } from '../../domain/schemas/mileage';
import { settleMileage, staffOdometer, staffRecordReading, type OdometerAnswer } from './mileage';
import { SettlementPreviewQuerySchema, SettlementSchema } from '../../domain/schemas/settlement';
import type { SettlementView } from '../../domain/settlement';
import { confirmSettlement, previewSettlement } from './settlement';
import { wallMs } from '../jobs/clock';
import { todayInKorea } from '../../domain/dates';

/**
 * The console's money: every payment (by status and day), refunds with a reason (audited), the
 * overdue list and 지금 재시도, the trip record that settles overtime; and, for scripts and tests
 * only (TEST_FIXTURES=on), the business clock and a billing run.
 */
export const adminPaymentRoutes = new Hono<AppEnv>()
  .get('/payments', requireAdmin, validQuery(AdminPaymentsQuerySchema), async (c) => ok(c, (await staffPayments(c.var.deps.db, c.req.valid('query'), ADMIN_PAGE_SIZE)) satisfies StaffPaymentPage))
  .post('/payments/:id/refund', requireAdmin, validParams(PaymentIdParamSchema), validJson(RefundSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { amount, reason } = c.req.valid('json');
    const actor = c.get('actor');
    const refund = await auditedCall(c.var.deps.db, actor, { action: 'refund', entity: 'payment', entityId: id }, async (audit) => {
      if (!(await paymentById(c.var.deps.db, id))) throw notFound('결제 내역을 찾을 수 없습니다.');
      // One refund per staff action: the key is new each time, the amount guarded by the provider's cancellable amount.
      const done = await refundPayment(c.var.deps, { paymentId: id, amount, reason, actor: `staff:${actor.name}`, key: `refund:staff:${id}:${wallMs()}` });
      if (!done) throw notFound('환불할 수 있는 결제가 아닙니다.');
      await inTransaction(c.var.deps.db, (tx) => audit(tx, { refund: toRefundView(done), reason }));
      return done;
    });
    return ok(c, { refund: toRefundView(refund), payment: toPaymentView((await paymentById(c.var.deps.db, id))!) } satisfies StaffRefundAnswer);
  })
  .post('/payments/:id/retry', requireAdmin, validParams(PaymentIdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const failed = await paymentById(c.var.deps.db, id);
    if (!failed) throw notFound('결제 내역을 찾을 수 없습니다.');
    const payment =
      failed.refType === 'subscription'
        ? await payOwedMonth(c.var.deps, { subscriptionId: failed.refId })
        : await retryBookingCharge(c.var.deps, failed);
    await recordAudit(c.var.deps.db, c.get('actor'), { action: 'retry', entity: 'payment', entityId: id, before: toPaymentView(failed), after: toPaymentView(payment) });
    declinedOrFine(payment);
    return ok(c, { payment: toPaymentView(payment) } satisfies PaymentAnswer);
  })
  .get('/subscriptions/overdue', requireAdmin, async (c) => ok(c, { subscriptions: await overdueSubscriptions(c.var.deps.db) } satisfies OverdueAnswer))
  .post('/subscriptions/:id/retry', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const payment = await payOwedMonth(c.var.deps, { subscriptionId: id });
    await recordAudit(c.var.deps.db, c.get('actor'), { action: 'retry', entity: 'subscription', entityId: id, before: null, after: toPaymentView(payment) });
    declinedOrFine(payment);
    return ok(c, { payment: toPaymentView(payment) } satisfies PaymentAnswer);
  })
  // 주행거리 in the console: the readings, a reading by staff (RETURN settles the overage once), and 정산 다시 시도.
  .get('/subscriptions/:id/odometer', requireAdmin, validParams(IdParamSchema), async (c) => ok(c, (await staffOdometer(c.var.deps, c.req.valid('param').id)) satisfies OdometerAnswer))
  .post('/subscriptions/:id/odometer', requireAdmin, validParams(IdParamSchema), validJson(StaffOdometerSchema), async (c) => {
    const { id } = c.req.valid('param');
    const done = await staffRecordReading(c.var.deps, c.get('actor'), id, c.req.valid('json'));
    return ok(c, { ...done, odometer: await staffOdometer(c.var.deps, id) });
  })
  .post('/subscriptions/:id/mileage/settle', requireAdmin, validParams(IdParamSchema), async (c) => {
    const { id } = c.req.valid('param');
    const settlement = await settleMileage(c.var.deps, id);
    await recordAudit(c.var.deps.db, c.get('actor'), { action: 'retry', entity: 'subscription', entityId: id, before: null, after: { mileage: settlement } });
    return ok(c, { settlement, odometer: await staffOdometer(c.var.deps, id) });
  })
  // 반납 정산: a preview on what staff entered (or the stored settlement), and the settlement confirmed once.
  .get('/subscriptions/:id/settlement', requireAdmin, validParams(IdParamSchema), validQuery(SettlementPreviewQuerySchema), async (c) => {
    const { damages } = c.req.valid('query');
    return ok(c, { settlement: await previewSettlement(c.var.deps, c.req.valid('param').id, { damages }) } satisfies { settlement: SettlementView });
  })
  .post('/subscriptions/:id/settlement', requireAdmin, validParams(IdParamSchema), validJson(SettlementSchema), async (c) => {
    const settlement = await confirmSettlement(c.var.deps, c.get('actor'), c.req.valid('param').id, c.req.valid('json'));
    return ok(c, { settlement } satisfies { settlement: SettlementView });
  })
  .post('/butler-requests/:id/trip', requireAdmin, validParams(IdParamSchema), validJson(TripRecordSchema), async (c) => {
    const { id } = c.req.valid('param');
    const { actual_start_at, actual_end_at, preview = false } = c.req.valid('json');
    const [row] = await c.var.deps.db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
    if (!row) throw notFound('요청을 찾을 수 없습니다.');
    const car = await tripCar(c.var.deps.db, row, todayInKorea(c.var.deps.clock.now()));
    const actual = { start: new Date(actual_start_at), end: actual_end_at ? new Date(actual_end_at) : undefined };
    const result = await settleTrip(c.var.deps, car, id, actual, { preview, waiting: c.var.deps.config.payments.butlerWaiting });
    const answer = { overtime_amount: result.amount, payment: result.payment ? toPaymentView(result.payment) : null, preview, finished: Boolean(actual_end_at) } satisfies TripRecordAnswer;
    if (!preview) await recordAudit(c.var.deps.db, c.get('actor'), { action: 'trip', entity: 'butler_request', entityId: id, before: null, after: { actual_start_at, actual_end_at: actual_end_at ?? null, ...answer } });
    return ok(c, answer);
  })
  .post('/test-clock', requireFixtures, requireAdmin, validJson(TestClockSchema), (c) => {
    const { now } = c.req.valid('json');
    if (now) c.var.deps.clock.set(new Date(now));
    else c.var.deps.clock.reset();
    return ok(c, { now: c.var.deps.clock.now().toISOString() });
  })
  // Every due job (charges, retries, reconciliation and the messages they cause), as the job loop runs them;
  // `pending` says what is left (held by a worker, due and not run, waiting for a retry). A database fault answers 503.
  .post('/billing/run', requireFixtures, requireMachine, async (c) => {
    const report = await c.var.deps.runJobs();
    return ok(c, { report, pending: await pendingJobs(c.var.deps.db, c.var.deps.clock.now()) });
  });
