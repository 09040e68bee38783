import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { jobs, notificationMessages, tripMessages } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';
import { driverAccount } from './driver-helpers';

/**
 * 기사님과 메시지 (issue 50): the customer and the assigned driver write to each other in the
 * booking's thread; strangers get 404; the thread is open from the assignment until 2 hours after
 * the trip's end (409 otherwise); a retried post is one message; the other side is told once per
 * unread batch, and reading the thread starts the next batch.
 */

let ctx: TestContext;
let modelId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '마이바흐', slug: 'maybach-trip-thread' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'S680' })).id;
});
afterAll(() => ctx.close());
afterEach(() => setClock(null));

const { admin: staff, setClock, runJobs } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;


/** A paid booking of 09:00–17:00 on day `d`, assigned to `driverId` when given. */
/** Numbers each test car's plate. */
let seq = 0;
async function trip(d: number, driverId?: number) {
  const car = await insertButlerCar(ctx.database.db, modelId, { butlerFee: 800_000, butlerOvertimeFee: 100_000, licensePlate: `12가 ${7000 + ++seq}` });
  const owner = await customer(ctx);
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
    token: owner.token,
    json: { start_at: at(d, '09:00'), end_at: at(d, '17:00'), start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', passenger_count: 1, billing_key: issueSandboxBillingKey(ctx.config) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data.butler_request.id;
  if (driverId) expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driverId })).status).toBe(200);
  return { id, owner };
}

const customerPath = (id: number) => `/butlers/requests/${id}/messages` as const;
const driverPath = (id: number) => `/driver/trips/${id}/messages` as const;
const notifies = async (type: string, id: number) =>
  (await ctx.database.db.select().from(jobs).where(like(jobs.key, `notify:${type}:${id}:%`))).length;

describe('trip thread', () => {
  it('carries messages both ways, keeps no number on the page, and is closed to strangers (404)', async () => {
    const { driver, token: driverToken } = await driverAccount(ctx);
    const { id, owner } = await trip(2, driver.id);

    const sent = await ctx.call('POST', customerPath(id), { token: owner.token, json: { body: '  공항 3번 출구에서 기다릴게요. 010-1234-5678  ' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    // Trimmed, and the number the customer typed is kept as written (their choice).
    expect(sent.body.data.message).toMatchObject({ sender: 'customer', mine: true, body: '공항 3번 출구에서 기다릴게요. 010-1234-5678' });

    const read = await ctx.call('GET', driverPath(id), { token: driverToken });
    expect(read.status).toBe(200);
    expect(read.body.data.thread).toMatchObject({ open: true, closed_message: null, messages: [{ sender: 'customer', mine: false }] });
    expect(await ctx.call('POST', driverPath(id), { token: driverToken, json: { body: '네, 10분 전에 도착하겠습니다.' } })).toMatchObject({ status: 201 });

    const back = await ctx.call('GET', customerPath(id), { token: owner.token });
    expect(back.body.data.thread.messages.map((m: { sender: string; mine: boolean }) => [m.sender, m.mine])).toEqual([['customer', true], ['driver', false]]);
    // Neither party's roster or account number is in the thread's answer.
    expect(JSON.stringify(back.body)).not.toContain(driver.phone.replace(/\D/g, '').slice(-4));
    expect(JSON.stringify(back.body)).not.toContain('sender_user_id');

    // Staff read the thread and may write as LUXE.
    const staffRead = await staff('GET', `/admin/butler-requests/${id}/messages`);
    expect(staffRead.body.data.thread.messages).toHaveLength(2);
    expect((await staff('POST', `/admin/butler-requests/${id}/messages`, { body: '고객센터입니다. 필요하면 말씀해주세요.' })).status).toBe(201);

    // A stranger customer and another driver: 404 on read and post.
    const stranger = await customer(ctx);
    const otherDriver = await driverAccount(ctx);
    for (const [path, token] of [[customerPath(id), stranger.token], [driverPath(id), otherDriver.token]] as const) {
      expect((await ctx.call('GET', path, { token })).status).toBe(404);
      expect((await ctx.call('POST', path, { token, json: { body: '안녕하세요' } })).status).toBe(404);
    }
    expect(await ctx.database.db.select().from(tripMessages).where(eq(tripMessages.butlerRequestId, id))).toHaveLength(3);
  });

  it('refuses bad bodies in Korean', async () => {
    const { driver } = await driverAccount(ctx);
    const { id, owner } = await trip(2, driver.id);
    const empty = await ctx.call('POST', customerPath(id), { token: owner.token, json: { body: '   ' } });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('메시지를 입력해주세요.');
    const long = await ctx.call('POST', customerPath(id), { token: owner.token, json: { body: '가'.repeat(501) } });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('500자 이내');
    expect((await ctx.call('POST', customerPath(id), { token: owner.token, json: { body: '안녕', client_id: 'not-a-uuid' } })).status).toBe(400);
  });

  it('is open from the assignment until 2 hours after the end; closed when cancelled (409)', async () => {
    const unassigned = await trip(3);
    const before = await ctx.call('POST', customerPath(unassigned.id), { token: unassigned.owner.token, json: { body: '안녕하세요' } });
    expect(before.status).toBe(409);
    expect(before.body.message).toBe('기사님이 배정된 뒤부터 메시지를 주고받을 수 있습니다.');
    expect((await ctx.call('GET', customerPath(unassigned.id), { token: unassigned.owner.token })).body.data.thread).toMatchObject({ open: false, messages: [] });

    const { driver, token: driverToken } = await driverAccount(ctx);
    const { id, owner } = await trip(4, driver.id);
    await setClock(at(4, '18:59'));
    expect((await ctx.call('POST', driverPath(id), { token: driverToken, json: { body: '잘 도착하셨나요?' } })).status).toBe(201);
    await setClock(at(4, '19:01'));
    const after = await ctx.call('POST', customerPath(id), { token: owner.token, json: { body: '네 감사합니다' } });
    expect(after.status).toBe(409);
    expect(after.body.message).toBe('운행이 끝나고 2시간이 지나 메시지를 보낼 수 없습니다.');
    // What was written stays readable with the booking.
    expect((await ctx.call('GET', customerPath(id), { token: owner.token })).body.data.thread).toMatchObject({ open: false, messages: [{ body: '잘 도착하셨나요?' }] });
    await setClock(null);

    const other = await trip(5, driver.id);
    expect((await staff('POST', `/admin/butler-requests/${other.id}/cancel`, {})).status).toBe(200);
    const cancelled = await ctx.call('POST', customerPath(other.id), { token: other.owner.token, json: { body: '안녕하세요' } });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.message).toBe('취소된 예약에는 메시지를 보낼 수 없습니다.');
  });

  it('keeps a retried post with the same client_id as one message, told once', async () => {
    const { driver } = await driverAccount(ctx);
    const { id, owner } = await trip(2, driver.id);
    const json = { body: '짐이 많아요', client_id: '0b4c9a8e-3f1d-4c2a-9e7b-5a6d8c1f2e3a' };
    const first = await ctx.call('POST', customerPath(id), { token: owner.token, json });
    const again = await ctx.call('POST', customerPath(id), { token: owner.token, json });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body.data).toMatchObject({ created: false, message: { id: first.body.data.message.id } });
    expect(await ctx.database.db.select().from(tripMessages).where(eq(tripMessages.butlerRequestId, id))).toHaveLength(1);
    expect(await notifies('driver.trip_message', id)).toBe(1);
  });

  it('tells the other side once per unread batch; reading starts the next batch', async () => {
    const { driver, token: driverToken } = await driverAccount(ctx);
    const { id, owner } = await trip(2, driver.id);
    for (const body of ['첫 번째', '두 번째', '세 번째']) expect((await ctx.call('POST', customerPath(id), { token: owner.token, json: { body } })).status).toBe(201);
    expect(await notifies('driver.trip_message', id)).toBe(1);
    expect(await notifies('butler.trip_message', id)).toBe(0);

    await ctx.call('GET', driverPath(id), { token: driverToken });
    expect((await ctx.call('POST', customerPath(id), { token: owner.token, json: { body: '네 번째' } })).status).toBe(201);
    expect(await notifies('driver.trip_message', id)).toBe(2);

    // The driver's answers: the customer is told once for two.
    await ctx.call('POST', driverPath(id), { token: driverToken, json: { body: '확인했습니다' } });
    await ctx.call('POST', driverPath(id), { token: driverToken, json: { body: '곧 뵙겠습니다' } });
    expect(await notifies('butler.trip_message', id)).toBe(1);

    // Sent: the driver by 알림톡 to the roster phone, the customer on their channels, leading to the pages.
    await runJobs();
    const toDriver = await ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'driver.trip_message'), eq(notificationMessages.to, driver.phone.replace(/\D/g, ''))));
    expect(toDriver.length).toBe(2);
    expect(toDriver[0].text).toContain('고객 메시지가 도착했습니다');
    const toCustomer = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'butler.trip_message'));
    expect(toCustomer.length).toBeGreaterThan(0);
    expect(toCustomer.every((m) => m.text.includes('새 메시지가 도착했습니다') && /\/butler\/(request|subscribe)\/\d+/.test(m.text))).toBe(true);
  });
});
