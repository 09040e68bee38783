import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { guestThreadToken } from '../../src/api/notifications/guest-link';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, drivers, jobs, notificationMessages, tripMessages } from '../../src/api/db/schema';
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
  return { row, admin, driver };
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

/** The guest's reply through their link, from an address of its own (the route's per-address limit counts by it). */
async function reply(token: string, json: unknown, ip = '198.51.100.7') {
  const res = await ctx.app.request(`/butlers/guest-thread/${encodeURIComponent(token)}/messages`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}
const messagesOf = (tripId: number) => ctx.database.db.select().from(tripMessages).where(eq(tripMessages.butlerRequestId, tripId));

describe("a company trip's guest replies through their link", () => {
  it('posts one message to the booking’s thread that the booker, the driver and staff read, and tells them once', async () => {
    const { row, admin, driver } = await guestTrip();
    const token = guestThreadToken(ctx.config.jwtSecret, row)!;
    // Both sides have read what came before, so the guest's message starts a batch for each.
    await ctx.database.db.update(tripMessages).set({ readByCustomerAt: new Date(), readByDriverAt: new Date() }).where(eq(tripMessages.butlerRequestId, row.id));
    const clientId = randomUUID();
    const sent = await reply(token, { body: '  10분 늦습니다. 로비에서 기다려주세요.  ', client_id: clientId }, '198.51.100.10');
    expect(sent.status, sent.text).toBe(201);
    // The answer is the guest's own message, nothing else of the trip.
    expect(Object.keys(sent.body.data).sort()).toEqual(['created', 'message']);
    expect(sent.body.data.message).toMatchObject({ sender: 'guest', mine: true, body: '10분 늦습니다. 로비에서 기다려주세요.' });
    // A retried send (the same client id) is the same message.
    const again = await reply(token, { body: '10분 늦습니다. 로비에서 기다려주세요.', client_id: clientId }, '198.51.100.10');
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ created: false, message: { id: sent.body.data.message.id } });
    const rows = (await messagesOf(row.id)).filter((m) => m.sender === 'guest');
    expect(rows.map((m) => [m.senderUserId, m.readByCustomerAt, m.readByDriverAt])).toEqual([[null, null, null]]);

    // The guest's page shows it as theirs; the booker and staff read it as the 탑승객's.
    const page = await read(token);
    expect(page.body.data.thread.messages.at(-1)).toMatchObject({ sender: 'guest', mine: true });
    const booker = await ctx.call('GET', `/butlers/requests/${row.id}/messages`, { token: admin.token });
    expect(booker.body.data.thread.messages.at(-1)).toMatchObject({ sender: 'guest', mine: false, body: '10분 늦습니다. 로비에서 기다려주세요.' });
    const staff = await ctx.call('GET', `/admin/butler-requests/${row.id}/messages`, { token: TEST_ADMIN_TOKEN });
    expect(staff.body.data.thread.messages.at(-1)).toMatchObject({ sender: 'guest' });
    // The booker and the driver are each told once.
    const messageId = sent.body.data.message.id;
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:butler.trip_message:${row.id}:${messageId}`))).toHaveLength(1);
    expect(await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify:driver.trip_message:${row.id}:${driver.id}:${messageId}`))).toHaveLength(1);
    await ctx.call('POST', '/admin/billing/run', { token: TEST_ADMIN_TOKEN });
    const told = await ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'butler.trip_message'), eq(notificationMessages.key, `butler.trip_message:${row.id}:${messageId}`)));
    expect(told.length).toBeGreaterThan(0);
    expect(told.every((m) => m.subject.includes('탑승객 메시지가 도착했습니다') && m.to !== '01022223333')).toBe(true);
  });

  it('a stranger without the token, with a forged one or with another trip’s writes nothing; bad input is 400, a closed thread 409', async () => {
    const { row } = await guestTrip();
    const other = await guestTrip({ guest_name: '박손님', guest_phone: '010-6666-7777' });
    const token = guestThreadToken(ctx.config.jwtSecret, row)!;
    const otherToken = guestThreadToken(ctx.config.jwtSecret, other.row)!;
    const [, sig] = token.split('.');
    const ip = '198.51.100.20';
    const body = { body: '안녕하세요' };
    for (const bad of ['nope', `${row.id}.${'A'.repeat(43)}`, `${other.row.id}.${sig}`, `${row.id}.${otherToken.split('.')[1]}`, guestThreadToken('another-secret', row)!]) {
      const res = await reply(bad, body, ip);
      expect(res.status, bad).toBe(404);
      expect(res.body.message).toBe('링크가 올바르지 않거나 만료되었습니다.');
    }
    const none = await ctx.app.request('/butlers/guest-thread//messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });
    expect(none.status).toBe(404);
    expect((await messagesOf(row.id)).filter((m) => m.sender === 'guest')).toEqual([]);
    // Another trip's guest writes to their own trip only.
    expect((await reply(otherToken, { body: '저는 다른 일정입니다.' }, ip)).status).toBe(201);
    expect((await messagesOf(row.id)).filter((m) => m.sender === 'guest')).toEqual([]);
    expect((await messagesOf(other.row.id)).filter((m) => m.sender === 'guest')).toHaveLength(1);
    // The token is no session: it opens no other route.
    expect((await ctx.call('GET', `/butlers/requests/${row.id}/messages`, { token })).status).toBe(401);
    // Malformed input: Korean 400s, never a 500.
    for (const [json, message] of [[{}, '메시지를 입력해주세요.'], [{ body: '   ' }, '메시지를 입력해주세요.'], [{ body: '가'.repeat(501) }, '메시지는 500자 이내로 입력해주세요.'], [{ body: '네', client_id: 'x' }, '메시지 식별자가 올바르지 않습니다.']] as const) {
      const res = await reply(token, json, ip);
      expect(res.status).toBe(400);
      expect(res.body.errors ? Object.values(res.body.errors).flat() : [res.body.message]).toContain(message);
    }
    const raw = await ctx.app.request(`/butlers/guest-thread/${encodeURIComponent(token)}/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: '{"body":' });
    expect(raw.status).toBe(400);
    // A link from before the guest's phone changed is void.
    await ctx.database.db.update(butlerRequests).set({ guestPhone: '01099991111' }).where(eq(butlerRequests.id, other.row.id));
    expect((await reply(otherToken, body, ip)).status).toBe(404);
    // A cancelled trip's thread is closed.
    await ctx.database.db.update(butlerRequests).set({ status: 'CANCELLED' }).where(eq(butlerRequests.id, row.id));
    const closed = await reply(token, body, ip);
    expect(closed.status).toBe(409);
    expect(closed.body.message).toBe('취소된 예약에는 메시지를 보낼 수 없습니다.');
  });

  it('is rate-limited per trip (a forwarded link) and per address (a stranger guessing tokens)', async () => {
    const { row } = await guestTrip();
    const token = guestThreadToken(ctx.config.jwtSecret, row)!;
    for (let i = 0; i < 10; i++) expect((await reply(token, { body: `메시지 ${i}` }, `198.51.100.${100 + i}`)).status).toBe(201);
    const limited = await reply(token, { body: '한 번 더' }, '198.51.100.120');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('메시지를 너무 자주 보내셨습니다. 잠시 후 다시 보내주세요.');
    // The window passes on the business clock.
    ctx.clock.set(new Date(ctx.clock.now().getTime() + 11 * 60_000));
    expect((await reply(token, { body: '이제 보냅니다' }, '198.51.100.121')).status).toBe(201);
    ctx.clock.reset();

    // One address: 20 tries in 10 minutes, valid or not; the 21st is refused before the token is looked at.
    const ip = '198.51.100.200';
    for (let i = 0; i < 20; i++) expect((await reply(`${row.id}.${String(i).padStart(43, 'A')}`, { body: '안녕' }, ip)).status).toBe(404);
    expect((await reply(token, { body: '안녕' }, ip)).status).toBe(429);
  });
});
