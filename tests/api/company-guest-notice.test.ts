import { and, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { guestThreadToken } from '../../src/api/notifications/guest-link';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { butlerRequests, jobs, notificationMessages } from '../../src/api/db/schema';
import { apiTools, createTestContext, type TestContext } from './helpers';
import { companyWithAdmin } from './company-helpers';
import { driverAccount } from './driver-helpers';

/**
 * A company trip's guest is told of an answer in the trip's thread (issue 52 follow-up): the
 * driver's, the booker's or staff's message sends one 알림톡 to the guest's phone on the trip, with
 * the guest's own link; a second answer within 10 minutes sends nothing more, nor does the guest's
 * own message, nor an answer the guest has already replied after. Nothing goes to anyone else, and
 * no one's email, phone or the guest's token is in the log.
 */

const lines: string[] = [];
let ctx: TestContext;
let modelId: number;
beforeAll(async () => {
  ctx = await createTestContext({ logLevel: 'info' }, { logSink: { write: (line) => void lines.push(line) } });
  const brand = await upsertBrand(ctx.database.db, { name: 'Genesis', slug: 'genesis-guest-notice' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: 'G90' })).id;
});
afterAll(() => ctx.close());
afterEach(() => ctx.clock.reset());

const { admin: staff, runJobs } = apiTools(() => ctx);
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const minutesLater = (minutes: number) => ctx.clock.set(new Date(Date.now() + minutes * 60_000));
const GUEST_PHONE = '01022223333';
let keySeq = 0;

async function companyTrip(guest: { guest_name: string; guest_phone: string } | Record<string, never> = { guest_name: '이손님', guest_phone: '010-2222-3333' }) {
  const { admin, company } = await companyWithAdmin(ctx);
  const car = await insertButlerCar(ctx.database.db, modelId, { subModel: 'G90 롱휠베이스', butlerFee: 600_000, butlerOvertimeFee: null });
  const res = await ctx.call('POST', `/butlers/cars/${car.id}/company-request`, {
    token: admin.token,
    json: {
      start_at: at(1, '09:00'), end_at: at(1, '17:00'), start_location: '서울 중구 세종대로 110', end_location: '인천 중구 공항로 272', passenger_count: 1,
      company: { company_id: company.id, request_key: `guest-notice-${++keySeq}-${Date.now()}`, ...guest },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id: number = res.body.data.butler_request.id;
  const driver = await driverAccount(ctx);
  await ctx.database.db.update(butlerRequests).set({ status: 'CONFIRMED', driverId: driver.driver.id }).where(eq(butlerRequests.id, id));
  const [row] = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, id));
  return { id, row, admin, driver };
}

const notices = async (id: number) => (await ctx.database.db.select().from(jobs).where(like(jobs.key, `notify:butler.guest\\_trip\\_message:${id}:%`))).length;
const sentToGuest = (id: number) =>
  ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'butler.guest_trip_message'), like(notificationMessages.key, `butler.guest\\_trip\\_message:${id}:%`)));
async function guestReply(token: string, body: string) {
  const res = await ctx.app.request(`/butlers/guest-thread/${encodeURIComponent(token)}/messages`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.40' }, body: JSON.stringify({ body }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

describe("a company trip's guest hears of answers", () => {
  it('once per 10 minutes by 알림톡 to their phone, with their link; not for their own message; no address in the log', async () => {
    const before = lines.length;
    const { id, row, admin, driver } = await companyTrip();
    const token = guestThreadToken(ctx.config.jwtSecret, row)!;

    // The driver answers: one notice, to the guest's phone only, naming the driver, with the guest's link.
    expect((await ctx.call('POST', `/driver/trips/${id}/messages`, { token: driver.token, json: { body: '로비 앞에 도착해 있겠습니다.' } })).status).toBe(201);
    expect(await notices(id)).toBe(1);
    await runJobs();
    const first = await sentToGuest(id);
    expect(first.map((m) => [m.channel, m.to])).toEqual([['kakao', GUEST_PHONE]]);
    expect(first[0].text).toContain('이손님님, ');
    expect(first[0].text).toContain(`${driver.driver.name} 기사님이 메시지를 남겼습니다.`);
    expect(first[0].text).toContain('아래 링크에서 확인하고 바로 답장하실 수 있습니다.');
    const link = /\/butler\/guest\?t=([\w.%-]+)/.exec(first[0].text)?.[1];
    expect(link && decodeURIComponent(link)).toBe(token);
    expect((await ctx.call('GET', `/butlers/guest-thread/${encodeURIComponent(token)}`)).status).toBe(200);

    // The booker and staff answer within 10 minutes: nothing more to the guest.
    minutesLater(4);
    expect((await ctx.call('POST', `/butlers/requests/${id}/messages`, { token: admin.token, json: { body: '짐이 두 개 있습니다.' } })).status).toBe(201);
    minutesLater(9);
    expect((await staff('POST', `/admin/butler-requests/${id}/messages`, { body: '고객센터입니다. 도움이 필요하시면 말씀해주세요.' })).status).toBe(201);
    expect(await notices(id)).toBe(1);

    // The guest's own message, past the 10 minutes: nothing to the guest.
    minutesLater(11);
    await guestReply(token, '감사합니다. 곧 내려가겠습니다.');
    expect(await notices(id)).toBe(1);

    // An answer after that window: told again, naming who wrote.
    minutesLater(12);
    expect((await staff('POST', `/admin/butler-requests/${id}/messages`, { body: '기사님이 3번 출구에 계십니다.' })).status).toBe(201);
    expect(await notices(id)).toBe(2);
    await runJobs();
    const second = await sentToGuest(id);
    expect(second).toHaveLength(2);
    expect(second.every((m) => m.to === GUEST_PHONE && m.channel === 'kakao')).toBe(true);
    expect(second.map((m) => m.text).join('\n')).toContain('LUXE 고객센터가 메시지를 남겼습니다.');

    // Nobody but the guest gets this message.
    const all = await ctx.database.db.select().from(notificationMessages).where(eq(notificationMessages.event, 'butler.guest_trip_message'));
    expect(all.every((m) => m.to === GUEST_PHONE)).toBe(true);

    // The log names no one's email or phone, nor the guest's link.
    const written = lines.slice(before).join('\n');
    expect(written).toContain('butler.guest_trip_message');
    for (const secret of [GUEST_PHONE, '010-2222-3333', admin.user.email!, admin.user.mobile!, driver.phone, driver.driver.phone, token, token.split('.')[1]]) expect(written, secret).not.toContain(secret);
  });

  it('not when the guest replied before the notice went, and never for a trip without a guest', async () => {
    const { id, row, driver } = await companyTrip();
    const token = guestThreadToken(ctx.config.jwtSecret, row)!;
    expect((await ctx.call('POST', `/driver/trips/${id}/messages`, { token: driver.token, json: { body: '10분 뒤 도착합니다.' } })).status).toBe(201);
    expect(await notices(id)).toBe(1);
    // The guest, on their page already, answers before the notice is rendered: it is dropped.
    await guestReply(token, '네, 기다리겠습니다.');
    await runJobs();
    expect(await sentToGuest(id)).toEqual([]);

    const booker = await companyTrip({});
    expect(booker.row.guestPhone).toBeNull();
    expect((await ctx.call('POST', `/driver/trips/${booker.id}/messages`, { token: booker.driver.token, json: { body: '도착했습니다.' } })).status).toBe(201);
    expect(await notices(booker.id)).toBe(0);
  });
});
