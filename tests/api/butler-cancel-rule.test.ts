import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, jobs, notificationMessages } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';
import { driverAccount } from './driver-helpers';

/**
 * Issue 50, cancellation by the rule the customer was shown: a confirmed (driver assigned)
 * booking is cancelled from /my until the driver sets out, refunded in full until 24 h before and
 * 50% after; staff cancel by the same rule unless they decide on a full refund with a reason
 * (audited, told to the customer); the assigned driver hears of every cancellation once.
 */
let ctx: TestContext;
let modelId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '벤틀리', slug: 'bentley-cancel-rule' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '플라잉스퍼' })).id;
});
afterAll(() => ctx.close());
afterEach(() => setClock(null));

const { admin: staff, setClock, runJobs } = apiTools(() => ctx);
const day = (d: number) => addDays(todayInKorea(new Date()), d);


/** A paid booking of 09:00–17:00 on `date` (800,000원), assigned to `driverId` (which confirms it). */
/** Numbers each test car's plate. */
let seq = 0;
async function assignedTrip(date: string, driverId: number) {
  const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, licensePlate: `56다 ${7000 + ++seq}` });
  const owner = await customer(ctx);
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: owner.token,
    json: { start_at: `${date}T09:00:00+09:00`, end_at: `${date}T17:00:00+09:00`, start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', passenger_count: 1, way_point_requests: [], billing_key: issueSandboxBillingKey(ctx.config) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data.butler_request.id;
  expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driverId })).status).toBe(200);
  return { id, owner };
}
const driverTold = (id: number) => ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:driver.trip_cancelled:${id}`));
const customerMessage = async (id: number) => {
  await runJobs();
  const rows = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'butler.cancelled'));
  return rows.find((m) => m.text.includes(`#${id}`))?.text ?? '';
};

describe('a confirmed butler booking is cancelled by the rule', () => {
  it('8 days ahead the customer cancels an assigned trip from /my: previewed, refunded in full; the driver is told once and sees it on /driver', async () => {
    const { driver, token: driverToken } = await driverAccount(ctx);
    const { id, owner } = await assignedTrip(day(8), driver.id);
    expect((await ctx.call('GET', `/butlers/requests/${id}`, { token: owner.token })).body.data.butler_request.status).toBe('CONFIRMED');
    const preview = await ctx.call('GET', `/butlers/requests/${id}/cancel-preview`, { token: owner.token });
    expect(preview.body.data).toMatchObject({ paid_amount: 800_000, refund_amount: 800_000, refund_percent: 100 });
    const res = await ctx.call('DELETE', `/butlers/requests/${id}`, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ refunded_amount: 800_000, refund_percent: 100 });
    expect((await ctx.call('DELETE', `/butlers/requests/${id}`, { token: owner.token })).status).toBe(404);
    expect(await driverTold(id)).toHaveLength(1);
    await runJobs();
    const told = (await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'driver.trip_cancelled'))).filter((m) => m.text.includes(`#${id}`));
    expect(told).toHaveLength(1);
    expect(told[0].text).toContain('배정된 운행이 취소되었습니다');
    const trips = (await ctx.call('GET', '/driver/trips', { token: driverToken })).body.data;
    expect(trips.cancelled).toEqual([expect.objectContaining({ id, start_location: '서울 강남구 테헤란로 152' })]);
    const message = await customerMessage(id);
    expect(message).toContain('결제 금액의 100%');
    // No coupon and no points were used, so none are said to be returned.
    expect(message).not.toMatch(/쿠폰|포인트/);
  });

  it('12 h before, staff cancel refunds the rule’s 50%; a full refund needs a reason, is audited and told to the customer', async () => {
    const { driver } = await driverAccount(ctx);
    const a = await assignedTrip(day(20), driver.id);
    const b = await assignedTrip(day(21), driver.id);
    await setClock(`${day(19)}T21:00:00+09:00`);
    const rule = await staff('GET', `/admin/butler-requests/${a.id}/cancel-preview`);
    expect(rule.body.data).toMatchObject({ refund_percent: 50, refund_amount: 400_000 });
    const byRule = await staff('POST', `/admin/butler-requests/${a.id}/cancel`, {});
    expect(byRule.status, JSON.stringify(byRule.body)).toBe(200);
    expect(byRule.body.data).toMatchObject({ refund_percent: 50, refunded_amount: 400_000 });
    expect(await customerMessage(a.id)).toContain('운영팀에 의해 취소되었습니다');
    expect(await driverTold(a.id)).toHaveLength(1);

    await setClock(`${day(20)}T21:00:00+09:00`);
    for (const bad of [{ full_refund_reason: '' }, { full_refund_reason: 7 }, { full_refund_reason: 'x'.repeat(201) }]) {
      const res = await staff('POST', `/admin/butler-requests/${b.id}/cancel`, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    const full = await staff('POST', `/admin/butler-requests/${b.id}/cancel`, { full_refund_reason: '차량 고장으로 운행 불가' });
    expect(full.body.data).toMatchObject({ refund_percent: 100, refunded_amount: 800_000 });
    const [audit] = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'butler_request'), eq(auditLog.entityId, String(b.id)), eq(auditLog.action, 'cancel')));
    expect(JSON.stringify(audit.after)).toContain('차량 고장으로 운행 불가');
    expect(await customerMessage(b.id)).toContain('운영팀 결정으로 전액 환불합니다. (사유: 차량 고장으로 운행 불가)');
  });

  it('once the driver has set out the customer cannot cancel (409), nor can a stranger (404)', async () => {
    const { driver, token: driverToken } = await driverAccount(ctx);
    const { id, owner } = await assignedTrip(day(30), driver.id);
    const stranger = await customer(ctx);
    expect((await ctx.call('DELETE', `/butlers/requests/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await ctx.call('GET', `/butlers/requests/${id}/cancel-preview`, { token: stranger.token })).status).toBe(404);
    await setClock(`${day(30)}T08:00:00+09:00`);
    expect((await ctx.call('POST', `/driver/trips/${id}/stages/departed`, { token: driverToken, json: {} })).status).toBe(201);
    const late = await ctx.call('DELETE', `/butlers/requests/${id}`, { token: owner.token });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('기사님이 이미 출발한 의전 예약은 취소할 수 없습니다. 고객센터로 문의해주세요.');
    expect(await driverTold(id)).toHaveLength(0);
  });
});
