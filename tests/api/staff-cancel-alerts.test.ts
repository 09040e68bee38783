import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, insertTestCar, upsertBrand } from '../../src/api/seed/factories';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { anotherPlate, apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';

/**
 * Staff are told of every cancellation, not only the customer: a butler booking or a subscription
 * request cancelled by the customer or by staff sends staff a message (email and 알림톡, seen in
 * the sandbox outbox) that names who cancelled and the refund, once per order.
 */
let ctx: TestContext;
let modelId: number;
let subCarId: number;
const ADMIN = TEST_ADMIN_TOKEN;
const STAFF_EMAIL = 'dispatch@luxe.test';
const STAFF_PHONE = '01090005555';
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;

beforeAll(async () => {
  ctx = await createTestContext({ notifications: { staffEmails: [STAFF_EMAIL], staffPhones: [STAFF_PHONE], contactPhone: '02-6952-0808' } });
  const brand = await upsertBrand(ctx.database.db, { name: '마이바흐', slug: 'maybach-cancel' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S 680' })).id;
  ({ car: { id: subCarId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_3: 900_000, subscription_fee_12: 700_000 } }));
});
afterAll(() => ctx.close());

const { runJobs } = apiTools(() => ctx);
type Message = { event: string; channel: string; subject: string; text: string };
const staffOutbox = async (to = STAFF_EMAIL): Promise<Message[]> => {
  const res = await ctx.call('GET', `/sandbox/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return res.body.data.messages;
};
const about = (messages: Message[], event: string, id: number) => messages.filter((m) => m.event === event && m.subject.includes(`#${id}`));

async function book(startAt: string, endAt: string) {
  const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, licensePlate: null });
  const who = await customer(ctx);
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: who.token,
    json: { start_at: startAt, end_at: endAt, start_location: '서울 중구 세종대로 110', end_location: '김포공항', passenger_count: 1, billing_key: billingKey(ctx) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.butler_request.id, token: who.token };
}

describe('staff hear of butler cancellations', () => {
  it('a customer cancel days ahead: staff get 환불 800,000원 (100%) by email and 알림톡, once', async () => {
    const { id, token } = await book(at(9, '10:00'), at(9, '18:00'));
    const res = await ctx.call('DELETE', `/butlers/requests/${id}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await runJobs();
    await runJobs();
    const mails = about(await staffOutbox(), 'staff.butler_cancelled', id);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('취소');
    expect(mails[0].text).toContain('고객 요청으로 취소');
    expect(mails[0].text).toContain('800,000원');
    expect(mails[0].text).toContain('100%');
    expect(about(await staffOutbox(STAFF_PHONE), 'staff.butler_cancelled', id)).toHaveLength(1);
  });

  it('a late customer cancel says the 50% refund', async () => {
    const soon = new Date(Date.now() + 20 * 3_600_000);
    const { id, token } = await book(soon.toISOString(), new Date(soon.getTime() + 8 * 3_600_000).toISOString());
    const res = await ctx.call('DELETE', `/butlers/requests/${id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ refund_percent: 50, refunded_amount: 400_000 });
    await runJobs();
    const [mail] = about(await staffOutbox(), 'staff.butler_cancelled', id);
    expect(mail.text).toContain('400,000원');
    expect(mail.text).toContain('50%');
  });

  it('a staff cancel names staff as the canceller', async () => {
    const { id } = await book(at(11, '09:00'), at(11, '17:00'));
    const res = await ctx.call('POST', `/admin/butler-requests/${id}/cancel`, { token: ADMIN });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await runJobs();
    const [mail] = about(await staffOutbox(), 'staff.butler_cancelled', id);
    expect(mail.text).toContain('운영팀');
    expect(mail.text).toContain('800,000원');
  });

  it('a refused cancel (another customer) tells nobody', async () => {
    const { id } = await book(at(13, '09:00'), at(13, '17:00'));
    const stranger = await customer(ctx);
    expect((await ctx.call('DELETE', `/butlers/requests/${id}`, { token: stranger.token })).status).toBe(404);
    await runJobs();
    expect(about(await staffOutbox(), 'staff.butler_cancelled', id)).toHaveLength(0);
  });
});

describe('staff hear of subscription cancellations', () => {
  it('a customer cancel of a paid request: staff are told with the refund of the first month', async () => {
    const who = await customer(ctx);
    const order = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, subCarId)}/request`, { token: who.token, json: { month: 12, billing_key: billingKey(ctx) } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const id = order.body.data.subscription_request.id;
    const res = await ctx.call('DELETE', `/subscriptions/requests/${id}`, { token: who.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await runJobs();
    const mails = (await staffOutbox()).filter((m) => m.event === 'staff.subscription_cancelled' && m.subject.includes(`#${id}`));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('고객 요청으로 취소');
    expect(mails[0].text).toContain('700,000원');
  });

  it('a staff cancel names staff', async () => {
    const who = await customer(ctx);
    const order = await ctx.call('POST', `/subscriptions/cars/${await anotherPlate(ctx, subCarId)}/request`, { token: who.token, json: { month: 3, billing_key: billingKey(ctx) } });
    const id = order.body.data.subscription_request.id;
    expect((await ctx.call('POST', `/admin/subscription-requests/${id}/cancel`, { token: ADMIN })).status).toBe(200);
    await runJobs();
    const [mail] = (await staffOutbox()).filter((m) => m.event === 'staff.subscription_cancelled' && m.subject.includes(`#${id}`));
    expect(mail.text).toContain('운영팀');
    expect(mail.text).toContain('900,000원');
  });
});
