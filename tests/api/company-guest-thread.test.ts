import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { guestThreadToken } from '../../src/api/notifications/guest-link';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, drivers, notificationMessages, tripMessages } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { createTestContext, type TestContext } from './helpers';
import { companyWithAdmin } from './company-helpers';

/**
 * A company trip's guest reads its thread without an account (issue 52): the link's token is the
 * trip id and an HMAC of it and the guest's phone, so a forged or altered token, a trip without a
 * guest and a link from before the guest's phone changed are all 404. The answer names the driver
 * and carries no one's phone number.
 */

let ctx: TestContext;
let modelId: number;
beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: 'Audi', slug: 'audi-guest-thread' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'A8' })).id;
});
afterAll(() => ctx.close());

const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const read = (token: string) => ctx.call('GET', `/butlers/guest-thread/${encodeURIComponent(token)}`);

async function guestTrip(guest: { guest_name: string | null; guest_phone: string | null } = { guest_name: '이손님', guest_phone: '010-2222-3333' }) {
  const { admin, company } = await companyWithAdmin(ctx);
  const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'A8 L', butlerFee: 600_000, butlerOvertimeFee: null });
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, {
    token: admin.token,
    json: {
      start_at: at(1, '09:00'), end_at: at(1, '17:00'), start_location: '서울 중구 세종대로 110', end_location: '인천 중구 공항로 272', passenger_count: 1,
      company: { company_id: company.id, request_key: `form-guest-${Date.now()}`, ...guest },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.data.butler_request.id;
  const [driver] = await ctx.database.db.insert(drivers).values({ name: '박기사', phone: '01077778888', gender: 'male' }).returning();
  await ctx.database.db.update(butlerRequests).set({ status: 'CONFIRMED', driverId: driver.id }).where(eq(butlerRequests.id, id));
  await ctx.database.db.insert(tripMessages).values([
    { butlerRequestId: id, sender: 'customer', senderUserId: admin.user.id, body: '손님 짐이 많습니다.', createdAt: new Date() },
    { butlerRequestId: id, sender: 'driver', body: '트렁크 비워두겠습니다.', createdAt: new Date() },
  ]);
  const [row] = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  return { row, admin };
}

describe("a company trip's guest link", () => {
  it('shows the trip and its thread without a login, naming the driver and no one’s number', async () => {
    const { row, admin } = await guestTrip();
    const token = guestThreadToken(ctx.config.jwtSecret, row)!;
    const res = await read(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.trip).toMatchObject({ id: row.id, guest_name: '이손님', driver_name: '박기사', start_location: '서울 중구 세종대로 110' });
    expect(res.body.data.thread.open).toBe(true);
    expect(res.body.data.thread.messages.map((m: { sender: string; body: string; mine: boolean }) => [m.sender, m.body, m.mine])).toEqual([
      ['customer', '손님 짐이 많습니다.', false],
      ['driver', '트렁크 비워두겠습니다.', false],
    ]);
    const text = JSON.stringify(res.body);
    for (const number of ['01077778888', admin.user.mobile!, '01022223333']) expect(text).not.toContain(number);
    // Reading as the guest marks nothing read for the booker's side.
    const rows = await ctx.database.db.select().from(tripMessages).where(eq(tripMessages.butlerRequestId, row.id));
    expect(rows.every((m) => m.readByCustomerAt === null)).toBe(true);
  });

  it("is in the guest's own copy of the trip messages, not in the booker's", async () => {
    const { admin, company } = await companyWithAdmin(ctx);
    const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'A8 L', butlerFee: 600_000, butlerOvertimeFee: null });
    const booked = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, {
      token: admin.token,
      json: {
        start_at: at(20, '09:00'), end_at: at(20, '17:00'), start_location: '서울 중구 세종대로 110', end_location: '인천 중구 공항로 272', passenger_count: 1,
        company: { company_id: company.id, request_key: `form-guest-copy-${Date.now()}`, guest_name: '최손님', guest_phone: '010-4444-5555' },
      },
    });
    const id = booked.body.data.butler_request.id;
    expect((await ctx.call('POST', `/admin/butler-requests/${id}/confirm`, { token: TEST_ADMIN_TOKEN })).status).toBe(201);
    await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN });
    const sent = (await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'butler.confirmed'))).filter((m) => m.key.includes(String(id)));
    const toGuest = sent.filter((m) => m.to === '01044445555');
    expect(toGuest).toHaveLength(1);
    const link = /\/butler\/guest\?t=([\w.%-]+)/.exec(toGuest[0].text)?.[1];
    expect(link, toGuest[0].text).toBeTruthy();
    expect((await read(decodeURIComponent(link!))).status).toBe(200);
    const toBooker = sent.filter((m) => m.to !== '01044445555');
    expect(toBooker.length).toBeGreaterThan(0);
    for (const m of toBooker) {
      expect(m.text).not.toContain('/butler/guest');
      expect(m.text).toMatch(/\/butler\/(request|subscribe)\/\d+/);
    }
  });

  it('refuses a forged, altered or malformed token, a trip without a guest, and a link from before the guest phone changed', async () => {
    const { row } = await guestTrip();
    const token = guestThreadToken(ctx.config.jwtSecret, row)!;
    const [, sig] = token.split('.');
    expect((await read(`${row.id}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`)).status).toBe(404);
    expect((await read(`${row.id + 1}.${sig}`)).status).toBe(404);
    expect((await read(guestThreadToken('another-secret', row)!)).status).toBe(404);
    expect((await read('nope')).status).toBe(404);
    expect((await read('x'.repeat(200))).status).toBe(400);

    const noGuest = await guestTrip({ guest_name: null, guest_phone: null });
    expect(guestThreadToken(ctx.config.jwtSecret, noGuest.row)).toBeNull();
    expect((await read(`${noGuest.row.id}.${sig}`)).status).toBe(404);

    await ctx.database.db.update(butlerRequests).set({ guestPhone: '01099990000' }).where(eq(butlerRequests.id, row.id));
    expect((await read(token)).status).toBe(404);
    expect((await read(guestThreadToken(ctx.config.jwtSecret, { id: row.id, guestPhone: '01099990000' })!)).status).toBe(200);
  });
});
