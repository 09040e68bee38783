import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { auditLog, jobs, paymentRefunds, payments, subscriptionHandovers, subscriptionSwaps, subscriptions } from '../../src/api/db/schema';
import { carsTakenOn } from '../../src/api/catalogue/inventory';
import { fillTemplate, kakaoText } from '../../src/api/notifications/template';
import swapCancelled from '../../src/api/notifications/templates/subscription-swap-cancelled';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';

/**
 * 교체 취소 (docs/decisions/swap.md): a CONFIRMED swap called off by its customer until two days
 * before its day. The money goes back once (a charged difference refunded, a refunded one charged
 * again), the fees and the cars are as before the swap, the pair is called off, both sides told.
 */
let ctx: TestContext;
let baseCar: number;
let dearCar: number;
let cheapCar: number;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: baseCar } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 1_200_000 } }));
  ({ car: { id: dearCar } } = await insertTestCar(ctx.database.db, { brand: 'Porsche', model: 'Taycan', fees: { subscription_fee_12: 1_500_000 } }));
  ({ car: { id: cheapCar } } = await insertTestCar(ctx.database.db, { brand: 'BMW', model: 'i5', fees: { subscription_fee_12: 900_000 } }));
});
afterAll(() => ctx.close());

const { admin: staff, setClock, card, runJobs } = apiTools(() => ctx);
const swapRow = async (id: number) => (await ctx.database.db.select().from(subscriptionSwaps).where(eq(subscriptionSwaps.id, id)))[0];
const monthCharges = async (subscriptionId: number) =>
  (await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_MONTH'))))
    .sort((a, b) => a.month! - b.month!)
    .map((p) => [p.month, p.amount, p.status]);
const cancelUrl = (subscriptionId: number, swapId: number) => `/subscriptions/${subscriptionId}/swaps/${swapId}/cancel` as const;

/** A 12-month subscription from `start` on a plate of its own, with a swap to a copy of `to` on `swapDate` confirmed on `today`. */
async function swapped(start: string, today: string, swapDate: string, to: number) {
  await setClock(`${start}T08:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const plate = await anotherPlate(ctx, baseCar);
  const req = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token, json: { month: 12, billing_key: card() } });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  const requestId = req.body.data.subscription_request.id;
  const subscriptionId = (await staff('POST', `/admin/subscription-requests/${requestId}/confirm`, { start_date: start })).body.data.subscription.id;
  const newCar = await anotherPlate(ctx, to);
  await setClock(`${today}T10:00:00+09:00`);
  const q = (await ctx.call('GET', `/subscriptions/${subscriptionId}/swap?date=${swapDate}&car_id=${newCar}`, { token })).body.data.quote;
  const res = await ctx.call('POST', `/subscriptions/${subscriptionId}/swap`, { token, json: { date: swapDate, car_id: newCar, quoted_adjustment: q!.adjustment, quoted_fee: q!.new_fee, price_consent: q!.new_fee } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { user, token, subscriptionId, requestId, orderCar: plate, newCar, swapId: res.body.data.swap.id, adjustment: q!.adjustment };
}

describe('교체 취소', () => {
  it('a dearer car: the charged difference is refunded once under two clicks and a repeat; the fees, cars and messages are as before the swap', async () => {
    const s = await swapped('2036-01-10', '2036-01-20', '2036-01-28', dearCar);
    expect(s.adjustment).toBeGreaterThan(0);
    // My page offers it with what it moves.
    const listed = (await ctx.call('GET', '/subscriptions', { token: s.token })).body.data.subscriptions[0].swaps[0];
    expect(listed.cancel).toEqual({ until: '2036-01-26', money: { kind: 'refund', amount: s.adjustment }, line: `결제하신 교체 차액 ${s.adjustment.toLocaleString('ko-KR')}원을 환불해드립니다.` });

    const [a, b] = await Promise.all([1, 2].map(() => ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId), { token: s.token })));
    for (const r of [a, b]) expect([200, 409]).toContain(r.status);
    const ok = [a, b].find((r) => r.status === 200)!;
    expect(ok.body.data).toMatchObject({ swap: { id: s.swapId, status: 'CANCELLED' }, payment: null, refund: { amount: s.adjustment, status: 'SUCCEEDED' } });
    const again = await ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId), { token: s.token });
    expect([again.status, again.body.data]).toEqual([200, ok.body.data]);
    const refunds = await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.key, `swap:cancel:${s.swapId}`));
    expect(refunds.map((r) => [r.paymentId, r.amount, r.status])).toEqual([[`sub-${s.subscriptionId}-swap-${s.swapId}`, s.adjustment, 'SUCCEEDED']]);
    const [charge] = await ctx.database.db.select().from(payments).where(eq(payments.id, `sub-${s.subscriptionId}-swap-${s.swapId}`));
    expect([charge.status, charge.cancelledAmount]).toEqual(['CANCELLED', s.adjustment]);
    expect((await swapRow(s.swapId)).cancelledAt).not.toBeNull();

    // The swap shows as cancelled, with no annex download and nothing more to cancel.
    const after = (await ctx.call('GET', '/subscriptions', { token: s.token })).body.data.subscriptions[0].swaps[0];
    expect(after).toMatchObject({ id: s.swapId, status: 'CANCELLED', cancel: null, cancelled_at: expect.any(String) });
    // The new car is free again, the old one held to the end.
    const takenOn = (day: string) => carsTakenOn(ctx.database.db, day, new Date('2036-01-21T01:00:00Z'));
    const taken = await takenOn('2036-02-15');
    expect([taken.has(s.orderCar), taken.has(s.newCar)]).toEqual([true, false]);
    // Audited once; both sides told once.
    expect(await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription'), eq(auditLog.entityId, String(s.subscriptionId)), eq(auditLog.action, 'cancel')))).toHaveLength(1);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.swap_cancelled:${s.swapId}`))).toHaveLength(1);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:staff.subscription_swap_cancelled:${s.swapId}`))).toHaveLength(1);
    const told = await swapCancelled.load(ctx.database.db, { type: 'subscription.swap_cancelled', userId: s.user.id, subscriptionId: s.subscriptionId, swapId: s.swapId, swapDate: '2036-01-28', fromCar: '기존차', toCar: '새차', moneyLine: '결제하신 교체 차액은 환불되었습니다.' }, new Date());
    if (!('vars' in told)) throw new Error('skipped');
    expect(kakaoText(fillTemplate(swapCancelled, told.vars, 'https://luxe.example'))).toContain('차량 교체가 취소되었습니다');
    // Month 2 at the order's fee.
    await setClock('2036-02-10T10:00:00+09:00');
    await runJobs();
    expect(await monthCharges(s.subscriptionId)).toEqual([[2, 1_200_000, 'PAID']]);
  });

  it('a cheaper car: the refunded difference is charged again once (two replicas); a declined card leaves the swap and a new card pays under -r1', async () => {
    const s = await swapped('2036-03-10', '2036-03-20', '2036-03-28', cheapCar);
    expect(s.adjustment).toBeLessThan(0);
    // The subscription's card now declines: 422 with the reason, the swap stays confirmed.
    const [sub] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, s.subscriptionId));
    await ctx.database.db.update(subscriptions).set({ billingKey: card('decline-rejected') }).where(eq(subscriptions.id, s.subscriptionId));
    const declined = await ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId), { token: s.token });
    expect(declined.status).toBe(422);
    expect(declined.body.message).toMatch(/[가-힣]/);
    expect((await swapRow(s.swapId)).status).toBe('CONFIRMED');
    await ctx.database.db.update(subscriptions).set({ billingKey: sub.billingKey ?? card() }).where(eq(subscriptions.id, s.subscriptionId));

    const replica = await ctx.openReplicaApp();
    const other = replica.app;
    const viaOther = () => other.request(cancelUrl(s.subscriptionId, s.swapId), { method: 'POST', headers: { authorization: `Bearer ${s.token}` } });
    const [a, b] = await Promise.all([ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId), { token: s.token }), viaOther()]);
    expect([200, 409]).toContain(a.status);
    expect([200, 409]).toContain(b.status);
    const charges = await ctx.database.db.select().from(payments).where(like(payments.id, `sub-${s.subscriptionId}-swap-${s.swapId}-cancel%`));
    expect(charges.map((p) => [p.id, p.amount, p.status, p.purpose]).sort()).toEqual([
      [`sub-${s.subscriptionId}-swap-${s.swapId}-cancel`, -s.adjustment, 'FAILED', 'SUBSCRIPTION_SWAP_CANCEL'],
      [`sub-${s.subscriptionId}-swap-${s.swapId}-cancel-r1`, -s.adjustment, 'PAID', 'SUBSCRIPTION_SWAP_CANCEL'],
    ]);
    const row = await swapRow(s.swapId);
    expect([row.status, row.cancelPaymentId]).toEqual(['CANCELLED', `sub-${s.subscriptionId}-swap-${s.swapId}-cancel-r1`]);
    await setClock('2036-04-10T10:00:00+09:00');
    await runJobs();
    expect(await monthCharges(s.subscriptionId)).toEqual([[2, 1_200_000, 'PAID']]);
  });

  it('the pair staff booked is called off by the job; refused: two days before, after an exit request, an old car taken since, another customer, no login, bad ids', async () => {
    const s = await swapped('2036-05-10', '2036-05-20', '2036-05-28', dearCar);
    const driver = (await staff('POST', '/admin/drivers', { name: '취소기사', phone: '010-7777-1234', gender: 'male' })).body.data.driver as { id: number };
    const booked = await staff('POST', `/admin/subscriptions/${s.subscriptionId}/swaps/${s.swapId}/handovers`, { driver_id: driver.id, window_start: '10:00', window_end: '12:00' });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);

    const other = await customer(ctx);
    expect((await ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId), { token: other.token })).status).toBe(404);
    expect((await ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId))).status).toBe(401);
    expect((await ctx.call('POST', cancelUrl(s.subscriptionId, 99_999_999), { token: s.token })).status).toBe(404);
    for (const path of [`/subscriptions/abc/swaps/${s.swapId}/cancel`, `/subscriptions/${s.subscriptionId}/swaps/0/cancel`, `/subscriptions/${s.subscriptionId}/swaps/x/cancel`] as const) {
      const r = await ctx.call('POST', path, { token: s.token });
      expect(r.status, path).toBe(400);
      expect(r.body.message).toMatch(/[가-힣]/);
    }
    // 중도 해지 asked for: refused.
    await ctx.database.db.update(subscriptions).set({ exitDate: '2036-06-05' }).where(eq(subscriptions.id, s.subscriptionId));
    const exiting = await ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId), { token: s.token });
    expect([exiting.status, exiting.body.message]).toEqual([409, '중도 해지를 신청한 구독은 차량 교체를 취소할 수 없습니다. 고객센터로 문의해주세요.']);
    await ctx.database.db.update(subscriptions).set({ exitDate: null }).where(eq(subscriptions.id, s.subscriptionId));

    // Another customer ordered the old car from after the swap day: the swap stays.
    const taker = await customer(ctx);
    const order = await ctx.call('POST', `/subscriptions/cars/${s.orderCar}/request`, { token: taker.token, json: { month: 12, billing_key: card(), start_date: '2036-06-01' } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const taken = await ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId), { token: s.token });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toContain('2036.06.01부터 다른 고객의 일정이 있어');
    expect((await swapRow(s.swapId)).status).toBe('CONFIRMED');
    expect((await ctx.call('DELETE', `/subscriptions/requests/${order.body.data.subscription_request.id}`, { token: taker.token })).status).toBe(200);

    // Cancelled: the pair is called off by its job (audited as the customer).
    const done = await ctx.call('POST', cancelUrl(s.subscriptionId, s.swapId), { token: s.token });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    await runJobs();
    const pair = await ctx.database.db.select().from(subscriptionHandovers).where(eq(subscriptionHandovers.swapId, s.swapId));
    expect(pair.map((h) => h.status)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription_handover'), eq(auditLog.action, 'cancel'), like(auditLog.actor, 'customer:%')))).toHaveLength(2);

    // Past the last day (two days before the swap day): refused.
    const late = await swapped('2036-07-10', '2036-07-20', '2036-07-28', cheapCar);
    await setClock('2036-07-27T10:00:00+09:00');
    const refused = await ctx.call('POST', cancelUrl(late.subscriptionId, late.swapId), { token: late.token });
    expect([refused.status, refused.body.message]).toEqual([409, '차량 교체는 교체일 2일 전(2036-07-26)까지 취소할 수 있습니다. 고객센터로 문의해주세요.']);
    expect((await ctx.call('GET', '/subscriptions', { token: late.token })).body.data.subscriptions[0].swaps[0].cancel).toBeNull();
  });
});
