import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { jobs, payments, subscriptionRequests } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { notifyJobKey } from '../../src/api/notifications/events';
import cancelledTemplate, { CAR_TAKEN } from '../../src/api/notifications/templates/subscription-cancelled';
import { fillTemplate } from '../../src/api/notifications/template';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';

/** Issue 49: a paid request whose hold lapsed is still owed its days; the desk shows the clash and the loser is refunded once. */

let ctx: TestContext;
const ADMIN = TEST_ADMIN_TOKEN;
const { card, setClock } = apiTools(() => ctx);
const tomorrow = () => addDays(todayInKorea(new Date()), 1);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

let seq = 0;
async function newCar() {
  seq += 1;
  const { car } = await insertTestCar(ctx.database.db, { brand: 'Lamborghini', brandSlug: `lamborghini-c${seq}`, model: `Conflict ${seq}`, fees: { subscription_fee_1: 3_500_000, subscription_fee_12: 3_000_000 } });
  return car.id;
}
const order = (token: string, carId: number, body: Record<string, unknown>) => ctx.call('POST', `/subscriptions/cars/${carId}/request`, { token, json: body });
const confirm = (id: number, json: Record<string, unknown>, token = ADMIN) => ctx.call('POST', `/admin/subscription-requests/${id}/confirm`, { token, json });
const deskRow = async (id: number) => (await ctx.call('GET', '/admin/subscription-requests?status=PENDING', { token: ADMIN })).body.data.requests.find((r: { id: number }) => r.id === id);

/** A paid first order, then eight days on the business clock (its 7-day hold lapses), then a second paid order of the same days. */
async function lapsedPair() {
  const carId = await newCar();
  const start = addDays(tomorrow(), 20);
  const a = await customer(ctx);
  const first = await order(a.token, carId, { month: 1, start_date: start, billing_key: card() });
  expect(first.status).toBe(201);
  expect((await ctx.call('POST', '/admin/test-clock', { token: ADMIN, json: { now: new Date(Date.now() + 8 * 86_400_000).toISOString() } })).status).toBe(200);
  const b = await customer(ctx);
  const second = await order(b.token, carId, { month: 1, start_date: start, billing_key: card() });
  expect(second.status).toBe(201);
  return { carId, start, a, b, ra: first.body.data.subscription_request.id, rb: second.body.data.subscription_request.id };
}

describe('a lapsed paid hold and a later order of the same days', () => {
  it('the order desk warns on both requests', async () => {
    const { ra, rb, start } = await lapsedPair();
    try {
      const [da, db] = [await deskRow(ra), await deskRow(rb)];
      expect(da!.conflicts).toEqual([{ request_id: rb, status: 'PENDING', start, end: expect.any(String) }]);
      expect(db!.conflicts.map((c: { request_id: number }) => c.request_id)).toEqual([ra]);
      expect(da!.conflict_warning).toContain(`#${rb}`);
      expect(db!.conflict_warning).toContain(`#${ra}`);
      expect(db!.conflict_warning).toMatch(/한 건만 확정할 수 있으며/);
    } finally {
      await setClock(null);
    }
  });

  it('confirming one needs the explicit choice; then the other is refunded, cancelled and told once', async () => {
    const { ra, rb, start, a } = await lapsedPair();
    try {
      const refused = await confirm(rb, { start_date: start });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toContain(`#${ra}`);
      expect(refused.body.message).toMatch(/환불·취소를 선택해주세요/);
      expect((refused.body.data as unknown as { conflicting_request_ids: number[] }).conflicting_request_ids).toEqual([ra]);
      expect((await confirm(rb, { start_date: start, cancel_conflicting: 'yes' })).status).toBe(400);

      const done = await confirm(rb, { start_date: start, cancel_conflicting: true });
      expect(done.status).toBe(201);
      expect(done.body.data.cancelled_conflicting).toEqual([{ id: ra, cancelled: true }]);
      const [row] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, ra));
      expect(row.status).toBe('CANCELLED');
      const [charge] = await ctx.database.db.select().from(payments).where(eq(payments.refId, ra));
      expect(charge.cancelledAmount).toBe(charge.amount);
      // One message, with the reason.
      const sent = await ctx.database.db.select().from(jobs).where(eq(jobs.key, notifyJobKey(`subscription.cancelled:${ra}`)));
      expect(sent).toHaveLength(1);
      expect(sent[0].payload).toMatchObject({ type: 'subscription.cancelled', userId: a.user.id, requestId: ra, reason: 'car_taken' });
      // The message says why; an ordinary cancel has no reason row.
      const render = async (reason?: 'car_taken') => {
        const loaded = await cancelledTemplate.load(ctx.database.db, { type: 'subscription.cancelled', userId: a.user.id, requestId: ra, ...(reason ? { reason } : {}) }, new Date());
        if (!('vars' in loaded)) throw new Error('not loaded');
        return fillTemplate(cancelledTemplate, loaded.vars, 'https://luxe.example').details;
      };
      expect(await render('car_taken')).toContainEqual(['취소 사유', CAR_TAKEN]);
      expect((await render()).map(([l]) => l)).not.toContain('취소 사유');
      // A retry of the confirmation refunds nothing twice.
      expect((await confirm(rb, { start_date: start, cancel_conflicting: true })).status).toBe(409);
      const refunds = (await ctx.database.db.select().from(payments).where(eq(payments.refId, ra)));
      expect(refunds.filter((p) => p.cancelledAmount > 0)).toHaveLength(1);
      // The cancelled one is no longer pending: no warning left on the desk.
      expect(await deskRow(ra)).toBeUndefined();
    } finally {
      await setClock(null);
    }
  });

  it('a stranger cannot confirm or see the desk', async () => {
    const { carId, ra, rb, start, b } = await lapsedPair();
    try {
      // Even the customer of the later request: no confirmation, no cancel of the other, no desk.
      expect([401, 403]).toContain((await confirm(rb, { start_date: start, cancel_conflicting: true }, b.token)).status);
      expect([401, 403]).toContain((await ctx.call('GET', '/admin/subscription-requests?status=PENDING', { token: b.token })).status);
      expect([401, 403]).toContain((await ctx.call('GET', '/admin/subscription-requests?status=PENDING')).status);
      const rows = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.carId, carId));
      expect(rows.map((r) => r.status)).toEqual(['PENDING', 'PENDING']);
      expect((await ctx.database.db.select().from(payments).where(eq(payments.refId, ra))).every((p) => p.cancelledAmount === 0)).toBe(true);
    } finally {
      await setClock(null);
    }
  });

  it('requests that do not overlap carry no warning', async () => {
    const carId = await newCar();
    const a = await customer(ctx);
    const r = await order(a.token, carId, { month: 1, start_date: addDays(tomorrow(), 3), billing_key: card() });
    const row = await deskRow(r.body.data.subscription_request.id);
    expect(row).toMatchObject({ conflicts: [], conflict_warning: null });
  });
});
