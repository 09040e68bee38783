import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestCar } from '../../src/api/seed/factories';
import { jobs, subscriptionHandovers, subscriptionRequests, subscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { anotherPlate, apiTools, billingKey, createTestContext, customer, type TestContext } from './helpers';

let ctx: TestContext;
let carId: number;
const ADMIN = TEST_ADMIN_TOKEN;
const seoul = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'DELIVERY', delivery_address: '서울 중구 세종대로 110', delivery_window: 'MORNING', prepayment: 0 };

beforeAll(async () => {
  ctx = await createTestContext();
  ({ car: { id: carId } } = await insertTestCar(ctx.database.db, { fees: { subscription_fee_12: 1_000_000 } }));
});
afterAll(() => ctx.close());

const { setClock } = apiTools(() => ctx);
const staffNotes = (requestId: number) => ctx.database.db.select().from(jobs).where(like(jobs.key, `notify:staff.delivery_changed:${requestId}:%`));

async function order(orderedOn: string, start: string, options: Record<string, unknown> = seoul, plate?: number) {
  await setClock(`${orderedOn}T09:00:00+09:00`);
  const { user, token } = await customer(ctx);
  const car = plate ?? (await anotherPlate(ctx, carId));
  const req = await ctx.call('POST', `/subscriptions/cars/${car}/request`, { token, json: { month: 12, billing_key: billingKey(ctx), options, start_date: start } });
  expect(req.status, JSON.stringify(req.body)).toBe(201);
  return { user, token, car, requestId: req.body.data.subscription_request.id };
}

describe('탁송 정보 변경 (delivery change)', () => {
  it('a request: address and window change once (a retry tells staff nothing more); another zone and a pickup are refused', async () => {
    const { token, requestId } = await order('2030-03-01', '2030-03-10');
    const got = await ctx.call('GET', `/subscriptions/requests/${requestId}/delivery`, { token });
    expect(got.status).toBe(200);
    expect(got.body.data.delivery).toMatchObject({ request_id: requestId, subscription_id: null, handover: 'DELIVERY', delivery_address: '서울 중구 세종대로 110', delivery_window: 'MORNING', start_date: '2030-03-10', deadline: '2030-03-08', changeable: true });
    const body = { delivery_address: '서울 강남구 테헤란로 152', delivery_window: 'EVENING' };
    const changed = await ctx.call('PATCH', `/subscriptions/requests/${requestId}/delivery`, { token, json: body });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.delivery).toMatchObject({ delivery_address: '서울 강남구 테헤란로 152', delivery_window: 'EVENING' });
    const [row] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
    expect(row.options?.options).toMatchObject({ delivery_address: '서울 강남구 테헤란로 152', delivery_window: 'EVENING' });
    expect(await staffNotes(requestId)).toHaveLength(1);
    expect((await ctx.call('PATCH', `/subscriptions/requests/${requestId}/delivery`, { token, json: body })).status).toBe(200);
    expect(await staffNotes(requestId)).toHaveLength(1);

    const zone = await ctx.call('PATCH', `/subscriptions/requests/${requestId}/delivery`, { token, json: { delivery_address: '부산 해운대구 우동 1408' } });
    expect(zone.status).toBe(422);
    expect(zone.body.message).toContain('탁송비가 달라져');
    for (const bad of [{}, { delivery_window: 'NIGHT' }, { start_date: '2030-02-30' }, { delivery_address: 7 }]) {
      const res = await ctx.call('PATCH', `/subscriptions/requests/${requestId}/delivery`, { token, json: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    const pickup = await order('2030-03-01', '2030-03-10', { ...seoul, handover: 'PICKUP', delivery_address: null, delivery_window: null });
    expect((await ctx.call('PATCH', `/subscriptions/requests/${pickup.requestId}/delivery`, { token: pickup.token, json: { delivery_window: 'EVENING' } })).status).toBe(422);
  });

  it('closes SUBSCRIPTION_CHANGE_CUTOFF_DAYS before the start, naming the deadline', async () => {
    const { token, requestId } = await order('2030-04-01', '2030-04-10');
    await setClock('2030-04-08T23:00:00+09:00');
    expect((await ctx.call('PATCH', `/subscriptions/requests/${requestId}/delivery`, { token, json: { delivery_window: 'AFTERNOON' } })).status).toBe(200);
    await setClock('2030-04-09T00:30:00+09:00');
    const late = await ctx.call('PATCH', `/subscriptions/requests/${requestId}/delivery`, { token, json: { delivery_window: 'EVENING' } });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('탁송 정보는 구독 시작 2일 전인 2030-04-08까지만 변경할 수 있습니다. 변경이 필요하면 고객센터로 문의해주세요.');
    expect((await ctx.call('GET', `/subscriptions/requests/${requestId}/delivery`, { token })).body.data.delivery).toMatchObject({ changeable: false, deadline: '2030-04-08' });
  });

  it("a new start is checked against the car's timeline; a free one moves the hold", async () => {
    const a = await order('2030-05-01', '2030-05-10');
    // The same plate held by another customer from 2031-06-01.
    const b = await order('2030-05-01', '2031-06-01', seoul, a.car);
    const clash = await ctx.call('PATCH', `/subscriptions/requests/${a.requestId}/delivery`, { token: a.token, json: { start_date: '2030-07-01' } });
    expect(clash.status).toBe(409);
    const moved = await ctx.call('PATCH', `/subscriptions/requests/${a.requestId}/delivery`, { token: a.token, json: { start_date: '2030-05-20' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data.delivery.start_date).toBe('2030-05-20');
    expect(b.requestId).toBeGreaterThan(a.requestId);
    const tooSoon = await ctx.call('PATCH', `/subscriptions/requests/${a.requestId}/delivery`, { token: a.token, json: { start_date: '2030-05-02' } });
    expect(tooSoon.status).toBe(422);
  });

  it("a confirmed subscription: the start moves its dates and the board's delivery; the driver's other handover blocks a window", async () => {
    const { token, requestId } = await order('2030-08-01', '2030-08-20');
    const sub = (await ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: '2030-08-20' } })).body.data.subscription;
    const driver = (await ctx.call('POST', '/admin/drivers', { token: ADMIN, json: { name: '탁송기사', phone: '010-7777-1234', gender: 'male' } })).body.data.driver;
    const scheduled = await ctx.call('POST', `/admin/subscriptions/${sub.id}/handovers`, { token: ADMIN, json: { kind: 'DELIVERY', driver_id: driver.id, date: '2030-08-20', window_start: '09:00', window_end: '12:00', address: seoul.delivery_address } });
    expect(scheduled.status).toBe(201);
    // Another subscription's delivery for the same driver on 8/22 afternoon.
    const other = await order('2030-08-01', '2030-08-22');
    const otherSub = (await ctx.call('POST', `/admin/subscription-requests/${other.requestId}/confirm`, { token: ADMIN, json: { start_date: '2030-08-22' } })).body.data.subscription;
    expect((await ctx.call('POST', `/admin/subscriptions/${otherSub.id}/handovers`, { token: ADMIN, json: { kind: 'DELIVERY', driver_id: driver.id, date: '2030-08-22', window_start: '13:00', window_end: '16:00' } })).status).toBe(201);

    const busy = await ctx.call('PATCH', `/subscriptions/${sub.id}/delivery`, { token, json: { start_date: '2030-08-22', delivery_window: 'AFTERNOON' } });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toContain('배정된 탁송 기사의 다른 일정과 겹쳐');
    const [still] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(still.startDate).toBe('2030-08-20');

    const ok = await ctx.call('PATCH', `/subscriptions/${sub.id}/delivery`, { token, json: { start_date: '2030-08-25', delivery_window: 'EVENING', delivery_address: '서울 강남구 테헤란로 152' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(row).toMatchObject({ startDate: '2030-08-25', endDate: '2031-08-24' });
    const [h] = await ctx.database.db.select().from(subscriptionHandovers).where(and(eq(subscriptionHandovers.subscriptionId, sub.id), eq(subscriptionHandovers.kind, 'DELIVERY')));
    expect(h).toMatchObject({ scheduledDate: '2030-08-25', windowStart: '16:00', windowEnd: '19:00', address: '서울 강남구 테헤란로 152' });
    expect(await staffNotes(requestId)).toHaveLength(1);
    // Month 2 follows the new start.
    expect(await ctx.database.db.select().from(jobs).where(and(eq(jobs.key, `charge:sub:${sub.id}:m2`), eq(jobs.status, 'queued')))).toEqual([expect.objectContaining({ runAt: expect.any(Date) })]);
  });

  it("a stranger gets 404 and changes nothing", async () => {
    const { requestId } = await order('2030-10-01', '2030-10-10');
    const stranger = await customer(ctx);
    expect((await ctx.call('GET', `/subscriptions/requests/${requestId}/delivery`, { token: stranger.token })).status).toBe(404);
    const res = await ctx.call('PATCH', `/subscriptions/requests/${requestId}/delivery`, { token: stranger.token, json: { delivery_window: 'EVENING' } });
    expect(res.status).toBe(404);
    const [row] = await ctx.database.db.select().from(subscriptionRequests).where(eq(subscriptionRequests.id, requestId));
    expect(row.options?.options.delivery_window).toBe('MORNING');
    expect(await staffNotes(requestId)).toHaveLength(0);
  });

  it('the board waits with what the customer chose, as changed on /my: the window, the address and the phone (issue 49)', async () => {
    const { token, requestId } = await order('2030-09-01', '2030-09-20');
    const confirmed = await ctx.call('POST', `/admin/subscription-requests/${requestId}/confirm`, { token: ADMIN, json: { start_date: '2030-09-20' } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    const subscriptionId = confirmed.body.data.subscription.id;
    const waiting = async () => (await ctx.call('GET', '/admin/handovers?from=2030-09-01&days=30', { token: ADMIN })).body.data.open.find((o: { subscription_id: number }) => o.subscription_id === subscriptionId);
    expect(await waiting()).toMatchObject({ missing: ['DELIVERY'], choice: { handover: 'DELIVERY', address: '서울 중구 세종대로 110', window: 'MORNING' }, customer: { mobile: expect.stringMatching(/^01/) } });
    expect((await ctx.call('PATCH', `/subscriptions/${subscriptionId}/delivery`, { token, json: { delivery_address: '서울 강남구 테헤란로 152', delivery_window: 'AFTERNOON' } })).status).toBe(200);
    expect((await waiting())!.choice).toEqual({ handover: 'DELIVERY', address: '서울 강남구 테헤란로 152', window: 'AFTERNOON' });
  });
});
