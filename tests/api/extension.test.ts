import { createHash } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { auditLog, jobs, payments, sandboxPayments, subscriptionExtensionAnnexes, subscriptionExtensions, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { annexInput } from '../../src/api/orders/extension';
import chargeUpcoming from '../../src/api/notifications/templates/subscription-charge-upcoming';
import extended from '../../src/api/notifications/templates/subscription-extended';
import { handoverWords } from '../../src/api/notifications/data';
import { anotherPlate, apiTools, createTestContext, customer, type TestContext } from './helpers';
import { insertConfirmedSwap } from './swap-fixtures';

let ctx: TestContext;
let carId: number;
const ADMIN = TEST_ADMIN_TOKEN;

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_1: 900_000, subscription_fee_3: 800_000, subscription_fee_12: 555_000 } }));
});
afterAll(() => ctx.close());

const { setClock, card, runJobs } = apiTools(() => ctx);
const monthCharges = async (subscriptionId: number) =>
  (await ctx.database.db.select().from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, subscriptionId), eq(payments.purpose, 'SUBSCRIPTION_MONTH'))))
    .sort((a, b) => a.month! - b.month!)
    .map((p) => [p.month, p.amount, p.status]);
const extensionsOf = (subscriptionId: number) => ctx.database.db.select().from(subscriptionExtensions).where(eq(subscriptionExtensions.subscriptionId, subscriptionId));

/** A confirmed 3-month subscription starting on `start` on a car of its own (the clock set to that morning). */
async function subscription(start: string, car?: number) {
  await setClock(`${start}T08:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const plate = car ?? (await anotherPlate(ctx, carId));
  const req = await ctx.call('POST', `/subscriptions/cars/${plate}/request`, { token, json: { month: 3, billing_key: card() } });
  expect(req.status).toBe(201);
  const sub = (await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: start } })).body.data.subscription;
  return { user, token, subscriptionId: sub.id, carId: plate };
}

describe('구독 연장 (extension)', () => {
  it('quotes the terms, confirms once under two concurrent clicks and a repeat, and bills the added month at its fee once', async () => {
    const { token, subscriptionId } = await subscription('2029-03-10');
    // Month 2 paid on its day; the term (3/10–6/09) opens for extension on 4/10 and closes on 6/02.
    await setClock('2029-04-10T10:00:00+09:00');
    await runJobs();
    await setClock('2029-04-09T10:00:00+09:00');
    const early = await ctx.call('GET', `/subscriptions/${subscriptionId}/extension`, { token });
    expect([early.status, early.body.message]).toEqual([409, '연장은 계약 종료일 60일 전인 2029-04-10부터 신청할 수 있습니다.']);
    await setClock('2029-05-01T10:00:00+09:00');
    const all = await ctx.call('GET', `/subscriptions/${subscriptionId}/extension`, { token });
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ quote: null, opens: '2029-04-10', closes: '2029-06-02' });
    expect(all.body.data.choices.map((c) => [c.months, c.monthly_fee, c.new_end_date, c.taken_from])).toEqual([
      [1, 900_000, '2029-07-09', null], [3, 800_000, '2029-09-09', null], [12, 555_000, '2030-06-09', null],
    ]);
    const quote = await ctx.call('GET', `/subscriptions/${subscriptionId}/extension?months=1`, { token });
    expect(quote.body.data.quote).toEqual({
      months: 1, current_end_date: '2029-06-09', from_date: '2029-06-10', new_end_date: '2029-07-09', base_fee: 900_000, option_extras: 0, monthly_fee: 900_000,
      first_month: 4, last_month: 4, term_months: 4, taken_from: null,
    });
    // A fee other than today's: 409 in Korean, nothing changed.
    const stale = await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 850_000, price_consent: 850_000 } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('900,000원으로 바뀌었습니다');
    expect(await extensionsOf(subscriptionId)).toEqual([]);
    // 가격 변경 동의: a new fee without the customer's consent to exactly it is 422, nothing changed.
    const unconsented = await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 900_000, end_date: '2029-06-09' } });
    expect(unconsented.status).toBe(422);
    expect(unconsented.body.message).toContain('900,000원으로 바뀝니다. 변경된 월 구독료에 동의해주세요.');
    const wrong = await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 900_000, price_consent: 800_000, end_date: '2029-06-09' } });
    expect(wrong.status).toBe(422);
    expect(await extensionsOf(subscriptionId)).toEqual([]);

    const [a, b] = await Promise.all([
      ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 900_000, price_consent: 900_000, end_date: '2029-06-09' } }),
      ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 900_000, price_consent: 900_000, end_date: '2029-06-09' } }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.data).toEqual(a.body.data);
    expect(a.body.data).toMatchObject({ end_date: '2029-07-09', extension: { months: 1, new_end_date: '2029-07-09', monthly_fee: 900_000, first_month: 4 } });
    // A repeat later (without the end date: same months and fee the same day) answers the same.
    const again = await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 900_000, price_consent: 900_000 } });
    expect(again.body.data).toEqual(a.body.data);
    expect(await extensionsOf(subscriptionId)).toHaveLength(1);
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row).toMatchObject({ endDate: '2029-07-09', extendedMonths: 1 });
    const mine = (await ctx.call('GET', '/subscriptions', { token })).body.data.subscriptions[0];
    expect(mine).toMatchObject({ end_date: '2029-07-09', extended_months: 1, billing: { term_months: 4 }, extensions: [{ months: 1, monthly_fee: 900_000, to_date: '2029-07-09' }] });

    // Audited; the customer and staff are told (one message each).
    expect(await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'subscription'), eq(auditLog.entityId, String(subscriptionId))))).toHaveLength(1);
    const extId = a.body.data.extension.id;
    const told = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:staff.subscription_extended:${extId}`));
    const toldCustomer = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.extended:${extId}`));
    expect(toldCustomer).toHaveLength(1);
    expect(toldCustomer[0].payload).toMatchObject({ newEndDate: '2029-07-09', monthlyFee: 900_000, firstMonth: 4 });
    expect(told).toHaveLength(1);

    // Month 3 at the order's fee; its follow-up schedules month 4 at the extension's; nothing after the term.
    await setClock('2029-05-10T10:00:00+09:00');
    await runJobs();
    await setClock('2029-06-10T10:00:00+09:00');
    await runJobs();
    await runJobs();
    await setClock('2029-07-10T10:00:00+09:00');
    await runJobs();
    expect(await monthCharges(subscriptionId)).toEqual([[2, 800_000, 'PAID'], [3, 800_000, 'PAID'], [4, 900_000, 'PAID']]);
    expect(await ctx.database.db.select().from(sandboxPayments).where(like(sandboxPayments.paymentId, `sub-${subscriptionId}-m4%`))).toHaveLength(1);

    // The annex: issued once by its job, the owner downloads it (hash as stored), a stranger gets 404.
    const annexes = await ctx.database.db.select().from(subscriptionExtensionAnnexes).where(eq(subscriptionExtensionAnnexes.extensionId, extId));
    expect(annexes).toHaveLength(1);
    const pdf = await ctx.app.request(`/subscriptions/${subscriptionId}/extensions/${extId}/annex`, { headers: { authorization: `Bearer ${token}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(annexes[0].sha256);
    expect(pdf.headers.get('x-content-sha256')).toBe(annexes[0].sha256);
    expect(pdf.headers.get('content-disposition')).toMatch(/LUXE-S-\d{6}-E01\.pdf/);
    const other = await customer(ctx);
    expect((await ctx.app.request(`/subscriptions/${subscriptionId}/extensions/${extId}/annex`, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(404);
    await runJobs();
    expect(await ctx.database.db.select().from(subscriptionExtensionAnnexes).where(eq(subscriptionExtensionAnnexes.extensionId, extId))).toHaveLength(1);
    // Unchangeable: the database refuses to update or delete it.
    await expect(ctx.database.db.update(subscriptionExtensionAnnexes).set({ byteSize: 1 }).where(eq(subscriptionExtensionAnnexes.extensionId, extId))).rejects.toThrow();
    await expect(ctx.database.db.delete(subscriptionExtensionAnnexes).where(eq(subscriptionExtensionAnnexes.extensionId, extId))).rejects.toThrow();
    // The messages render (email + 알림톡 through the outbox): the customer's names the new end date and fee.
    const sent = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.extended:${extId}`));
    expect(sent[0].status).toBe('done');
  });

  it('with the original term all paid, the first added month is scheduled at once and charged once', async () => {
    const { token, subscriptionId, carId: plate } = await subscription('2029-08-10');
    const freeFrom = async () => (await ctx.call('GET', `/subscriptions/availability?ids=${plate}`)).body.data.availability[0].available_from;
    await setClock('2029-09-10T10:00:00+09:00');
    await runJobs();
    await setClock('2029-10-10T10:00:00+09:00');
    await runJobs();
    expect(await monthCharges(subscriptionId)).toEqual([[2, 800_000, 'PAID'], [3, 800_000, 'PAID']]);
    await setClock('2029-10-20T10:00:00+09:00');
    expect(await freeFrom()).toBe('2029-11-10');
    // Two clicks at once without the end date (an API client): one extension, the same answer.
    const [res, twin] = await Promise.all([1, 2].map(() => ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 900_000, price_consent: 900_000 } })));
    expect([res.status, twin.status]).toEqual([200, 200]);
    expect(twin.body.data).toEqual(res.body.data);
    expect(await extensionsOf(subscriptionId)).toHaveLength(1);
    // The car is taken for the added month: the pages show it free from the day after the new end.
    expect(await freeFrom()).toBe('2029-12-10');
    const queued = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `charge:sub:${subscriptionId}:m4`));
    expect(queued.map((j) => [j.status, j.runAt.toISOString()])).toEqual([['queued', '2029-11-10T00:00:00.000Z']]);
    await setClock('2029-11-10T10:00:00+09:00');
    await runJobs();
    await runJobs();
    await setClock('2029-12-10T10:00:00+09:00');
    await runJobs();
    expect(await monthCharges(subscriptionId)).toEqual([[2, 800_000, 'PAID'], [3, 800_000, 'PAID'], [4, 900_000, 'PAID']]);
  });

  it('a car taken inside the added span: the choice shows the day, the confirmation is 409 with it, nothing changed', async () => {
    const mine = await subscription('2030-01-10');
    await setClock('2030-03-01T10:00:00+09:00');
    // Another customer's subscription on the same car from 2030-05-01.
    const { token: otherToken } = await customer(ctx);
    const req = await ctx.call('POST', `/subscriptions/cars/${mine.carId}/request`, { token: otherToken, json: { month: 1, billing_key: card(), start_date: '2030-05-01' } });
    expect(req.status).toBe(201);
    expect((await ctx.call('POST', `/admin/subscription-requests/${req.body.data.subscription_request.id}/confirm`, { token: ADMIN, json: { start_date: '2030-05-01' } })).status).toBe(201);
    const quote = await ctx.call('GET', `/subscriptions/${mine.subscriptionId}/extension`, { token: mine.token });
    expect(quote.body.data.choices.map((c: { months: number; taken_from: string | null }) => [c.months, c.taken_from])).toEqual([[1, '2030-05-01'], [3, '2030-05-01'], [12, '2030-05-01']]);
    const res = await ctx.call('POST', `/subscriptions/${mine.subscriptionId}/extension`, { token: mine.token, json: { months: 1, quoted_fee: 900_000, price_consent: 900_000 } });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('2030.05.01부터 다른 구독 일정이 있어');
    expect(await extensionsOf(mine.subscriptionId)).toEqual([]);
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, mine.subscriptionId));
    expect(row).toMatchObject({ endDate: '2030-04-09', extendedMonths: 0 });
  });

  it('early exit after an extension: 20% of the remaining months fees summed, the arithmetic shows both fees', async () => {
    const { token, subscriptionId } = await subscription('2030-06-10');
    await setClock('2030-07-10T10:00:00+09:00');
    await runJobs();
    await setClock('2030-07-20T10:00:00+09:00');
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 900_000, price_consent: 900_000 } })).status).toBe(200);
    // Month 2 runs 7/10–8/09: a return on 8/05 leaves month 3 (800,000) and month 4 (900,000): 1,700,000 × 20% = 340,000.
    const quote = await ctx.call('GET', `/subscriptions/${subscriptionId}/early-exit?date=2030-08-05`, { token });
    expect(quote.body.data.quote).toEqual({
      exit_date: '2030-08-05', exit_month: 2, term_months: 4, remaining_months: 2, monthly_fee: 800_000, percent: 20, fee: 340_000,
      fee_parts: [{ months: 1, monthly_fee: 800_000 }, { months: 1, monthly_fee: 900_000 }],
    });
    const exit = await ctx.call('POST', `/subscriptions/${subscriptionId}/early-exit`, { token, json: { date: '2030-08-05' } });
    expect(exit.status).toBe(200);
    expect(exit.body.data.early_exit).toMatchObject({ end_date: '2030-08-05', quote: { remaining_months: 2, fee: 340_000 }, payment: { amount: 340_000, status: 'PAID' } });
    const notify = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:subscription.early_exit:${subscriptionId}`));
    expect(notify[0].payload).toMatchObject({ fee: 340_000, feeParts: [{ months: 1, monthly_fee: 800_000 }, { months: 1, monthly_fee: 900_000 }] });
    // Months 3 and 4 are never charged.
    await setClock('2030-09-15T10:00:00+09:00');
    await runJobs();
    expect(await monthCharges(subscriptionId)).toEqual([[2, 800_000, 'PAID']]);
  });

  it('after a 차량 교체 the extension, its annex and the messages name the car held on their day, not the order\'s', async () => {
    const { user, token, subscriptionId, carId: orderCar } = await subscription('2031-03-10');
    const { car: newCar } = await insertTestCar(ctx.database.db, { model: '푸로산게', fees: { subscription_fee_1: 950_000, subscription_fee_3: 850_000 } });
    await insertConfirmedSwap(ctx.database.db, { subscriptionId, toCarId: newCar.id, swapDate: '2031-04-20' });
    const now = new Date('2031-05-01T01:00:00Z');
    const named = async (month: number, chargeDate: string) => {
      const loaded = await chargeUpcoming.load(ctx.database.db, { type: 'subscription.charge_upcoming', userId: user.id, subscriptionId, month, chargeDate, amount: 0 }, now);
      if (!('vars' in loaded)) throw new Error(JSON.stringify(loaded));
      return loaded.vars.차량;
    };
    // Month 2 is charged before the swap day (the order's Roma), month 3 after it (the new car).
    expect(await named(2, '2031-04-10')).toContain('Roma');
    expect(await named(3, '2031-05-10')).toContain('푸로산게');
    // The return at the term's end gives back the new car.
    const words = await handoverWords(ctx.database.db, { subscriptionId, swapId: null, kind: 'RETURN', scheduledDate: '2031-06-09' } as Parameters<typeof handoverWords>[1], orderCar);
    expect(words).toEqual({ kind: '반납', car: expect.stringContaining('푸로산게') });

    // The extension is of the new car, at its fee; the annex and the message say so.
    await setClock('2031-05-01T10:00:00+09:00');
    const ext = await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 950_000, price_consent: 950_000, end_date: '2031-06-09' } });
    expect(ext.status, JSON.stringify(ext.body)).toBe(200);
    const extensionId = ext.body.data.extension.id;
    const annex = await annexInput(ctx.database.db, ctx.config.company, extensionId);
    expect(annex.car.model).toBe('푸로산게');
    const told = await extended.load(ctx.database.db, { type: 'subscription.extended', userId: user.id, subscriptionId, extensionId, months: 1, fromDate: '2031-06-10', newEndDate: '2031-07-09', monthlyFee: 950_000, firstMonth: 4 }, now);
    if (!('vars' in told)) throw new Error(JSON.stringify(told));
    expect(told.vars.차량).toContain('푸로산게');
  });

  it('a stranger gets 404, no login 401; bad input is a Korean 400 and an unoffered term 422, never 500; overdue or exiting is 409', async () => {
    const { token, subscriptionId } = await subscription('2031-01-10');
    await setClock('2031-03-01T10:00:00+09:00');
    const other = await customer(ctx);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/extension`, { token: other.token })).status).toBe(404);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/extension?months=1`, { token: other.token })).status).toBe(404);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token: other.token, json: { months: 1, quoted_fee: 900_000, price_consent: 900_000 } })).status).toBe(404);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { json: { months: 1, quoted_fee: 900_000, price_consent: 900_000 } })).status).toBe(401);
    expect((await ctx.app.request(`/subscriptions/${subscriptionId}/extensions/1/annex`, { headers: { authorization: `Bearer ${other.token}` } })).status).toBe(404);
    for (const q of ['months=abc', 'months=0', 'months=1.5', 'months=-1', 'months=99999999999999']) {
      const r = await ctx.call('GET', `/subscriptions/${subscriptionId}/extension?${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body.message).toMatch(/[가-힣]/);
    }
    for (const json of [{}, { months: '1', quoted_fee: 900_000, price_consent: 900_000 }, { months: 1 }, { months: 1, quoted_fee: -5 }, { months: 1, quoted_fee: 900_000, price_consent: 900_000, end_date: 'soon' }, { months: 1.5, quoted_fee: 1, price_consent: 1 }]) {
      const r = await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.message).toMatch(/[가-힣]/);
    }
    expect((await ctx.call('GET', '/subscriptions/abc/extension', { token })).status).toBe(400);
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/extension?months=6`, { token })).status).toBe(422);
    expect((await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 6, quoted_fee: 1, price_consent: 1 } })).status).toBe(422);
    await ctx.database.db.update(subscriptions).set({ billingStatus: 'OVERDUE' }).where(eq(subscriptions.id, subscriptionId));
    const overdue = await ctx.call('POST', `/subscriptions/${subscriptionId}/extension`, { token, json: { months: 1, quoted_fee: 900_000, price_consent: 900_000 } });
    expect([overdue.status, overdue.body.message]).toEqual([409, '연체된 요금을 먼저 결제해주세요.']);
    await ctx.database.db.update(subscriptions).set({ billingStatus: 'ACTIVE', exitDate: '2031-03-20' }).where(eq(subscriptions.id, subscriptionId));
    expect((await ctx.call('GET', `/subscriptions/${subscriptionId}/extension`, { token })).status).toBe(409);
    expect(await extensionsOf(subscriptionId)).toEqual([]);
  });
});
