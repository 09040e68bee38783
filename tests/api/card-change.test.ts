import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { auditLog, notificationMessages, payments, sandboxDeletedBillingKeys, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { sandboxCardInfo } from '../../src/api/billing/sandbox-provider';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';

let ctx: TestContext;
let carId: number;
const ADMIN = TEST_ADMIN_TOKEN;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
});
afterAll(() => ctx.close());

const { setClock, card, runJobs } = apiTools(() => ctx);
const subscriptionRow = async (id: number) => (await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];
const charges = (id: number) => ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, id)));
const change = (id: number, token: string, billing_key: string) => ctx.call('POST', `/subscriptions/${id}/card`, { token, json: { billing_key } });

/** A confirmed 3-month subscription from `start`, paid with its first card. */
async function subscription(start: string) {
  const { user, token } = await customer(ctx);
  const first = card();
  const req = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, carId)}/request`, { token, json: { month: 3, start_date: start, billing_key: first } });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const confirmed = await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: start } });
  expect(confirmed.status).toBe(201);
  return { user, token, first, id: confirmed.body.data.subscription.id };
}

describe('결제 카드 변경 on an active subscription', () => {
  it('the next month is charged to the new card; the old key is deleted at the provider, audited, and the customer told', async () => {
    await setClock('2027-01-05T12:00:00+09:00');
    const { token, first, id, user } = await subscription('2027-01-10');
    const before = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions.find((s: { id: number }) => s.id === id);
    // Issue 49: the card as the customer knows it (the order's, copied to the subscription), never the key.
    expect(before!.billing.card).toEqual(sandboxCardInfo('approve', first));
    expect(JSON.stringify(before)).not.toContain(first);
    const next = card();
    const res = await change(id, token, next);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ old_card_deleted: true, retry_date: null, subscription: { id, billing: { card: sandboxCardInfo('approve', next), status: 'ACTIVE' } } });
    expect(JSON.stringify(res.body)).not.toContain(next);
    expect(await subscriptionRow(id)).toMatchObject({ billingKey: next, cardIssuer: '샌드박스카드', cardLast4: sandboxCardInfo('approve', next).last4 });
    // Deleted at the (sandbox) provider: the old key charges no more and cannot be registered again.
    expect(await ctx.database.db.select().from(sandboxDeletedBillingKeys).where(eq(sandboxDeletedBillingKeys.billingKey, first))).toHaveLength(1);
    // Audited: who changed which subscription's card, with masked keys only.
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription_card'), eq(auditLog.entityId, String(id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorUserId: user.id, action: 'update' });
    expect(JSON.stringify(audit[0])).not.toContain(next);
    const deletion = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'billing_key'), eq(auditLog.entityId, String(id))));
    expect(deletion[0]).toMatchObject({ action: 'delete', after: { deleted: true } });
    // Month 2 goes to the new card.
    await setClock('2027-02-10T12:00:00+09:00');
    await runJobs();
    const m2 = (await charges(id)).find((p) => p.month === 2)!;
    expect(m2).toMatchObject({ status: 'PAID', billingKey: next });
    // The customer was told (email, and 알림톡 where configured) what the new card pays next.
    const told = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'subscription.card_changed'));
    const mine = told.filter((m) => m.key.startsWith(`subscription.card_changed:${id}:`));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0].subject).toBe('[LUXE] 구독 결제 카드 변경 안내');
    expect(mine[0].text).toContain('2개월 차 요금부터 새 카드로 결제됩니다.');
  });

  it('overdue (PAST_DUE): the queued retry charges the new card, and the answer says when', async () => {
    await setClock('2027-03-05T12:00:00+09:00');
    const { token, id } = await subscription('2027-03-10');
    // The card on file starts declining.
    await ctx.database.db.update(subscriptions).set({ billingKey: card('insufficient') }).where(eq(subscriptions.id, id));
    await setClock('2027-04-10T12:00:00+09:00');
    await runJobs();
    expect((await subscriptionRow(id)).billingStatus).toBe('PAST_DUE');
    const next = card();
    const res = await change(id, token, next);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ retry_date: '2027-04-11', subscription: { billing: { status: 'PAST_DUE', retry_date: '2027-04-11' } } });
    await setClock('2027-04-11T12:00:00+09:00');
    await runJobs();
    const m2 = (await charges(id)).filter((p) => p.month === 2);
    expect(m2.map((p) => [p.status, p.billingKey === next])).toEqual([['FAILED', false], ['PAID', true]]);
    expect((await subscriptionRow(id)).billingStatus).toBe('ACTIVE');
    const told = (await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'subscription.card_changed'))).filter((m) => m.key.startsWith(`subscription.card_changed:${id}:`));
    expect(told[0].text).toContain('2027.04.11에 새 카드로 다시 결제를 시도합니다.');
  });

  it('another customer cannot change it (404); anonymous 401; a bad, used or same key is refused with nothing changed', async () => {
    await setClock('2027-05-05T12:00:00+09:00');
    const { token, first, id } = await subscription('2027-05-10');
    const stranger = await customer(ctx);
    expect((await change(id, stranger.token, card())).status).toBe(404);
    expect((await ctx.call('POST', `/subscriptions/${id}/card`, { json: { billing_key: card() } })).status).toBe(401);
    expect((await change(id, token, 'not-a-key')).status).toBe(422);
    expect((await ctx.call('POST', `/subscriptions/${id}/card`, { token, json: {} })).status).toBe(400);
    expect((await change(id, token, first)).status).toBe(409);
    // A key that already backs another order.
    const other = await subscription('2027-05-12');
    expect((await change(id, token, other.first)).status).toBe(409);
    expect((await subscriptionRow(id)).billingKey).toBe(first);
    expect(await ctx.database.db.select().from(sandboxDeletedBillingKeys).where(eq(sandboxDeletedBillingKeys.billingKey, first))).toHaveLength(0);
    // 해지된 subscription: no card to change.
    expect((await ctx.call('PATCH', `/admin/subscriptions/${id}`, { token: ADMIN, json: { is_active: false } })).status).toBe(200);
    expect((await change(id, token, card())).status).toBe(409);
  });
});
