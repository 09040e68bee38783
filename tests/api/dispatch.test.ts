import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, insertUser, upsertBrand } from '../../src/api/seed/factories';
import { auditLog, butlerRequests, butlerSubscriptions } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { fillTemplate } from '../../src/api/notifications/template';
import butlerReminder from '../../src/api/notifications/templates/butler-reminder';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { openSession } from '../../src/api/accounts/sessions';
import { apiTools, createTestContext, type TestContext } from './helpers';

/**
 * Butler dispatch: drivers (audited CRUD), the board, proposals, assignment without
 * double-booking (one driver, overlapping busy windows: exactly one assignment wins, on PGlite
 * and PostgreSQL), and what the customer sees of it before the trip.
 */
let ctx: TestContext;
let modelId: number;
let owner: { id: number; token: string };
const ADMIN = TEST_ADMIN_TOKEN;

beforeAll(async () => {
  ctx = await createTestContext();
  const brand = await upsertBrand(ctx.database.db, { name: '롤스로이스', slug: 'rolls-dispatch' });
  modelId = (await insertModel(ctx.database.db, { brandId: brand.id, name: '고스트' })).id;
  owner = await newCustomer();
});
afterAll(() => ctx.close());

async function newCustomer() {
  const user = await insertUser(ctx.database.db);
  return { id: user.id, token: (await openSession(ctx.database.db, ctx.config, user.id)).access_token };
}

const { admin: staff } = apiTools(() => ctx);
/** An ISO instant `days` Korean days from today at a Korean wall-clock time. */
const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;
const dayOf = (days: number) => addDays(todayInKorea(new Date()), days);

let plateSeq = 0;
const newCar = () => insertButlerCar(ctx.database.db, modelId, { subModel: 'EWB', licensePlate: `12가 ${3400 + ++plateSeq}` });

/** A trip written straight to the database (confirmed unless told), on a car of its own. */
async function trip(start: string, end: string | null, o: { status?: 'PENDING' | 'CONFIRMED' | 'CANCELLED'; preference?: 'male' | 'female' | 'any' | null } = {}) {
  const car = await newCar();
  const [row] = await ctx.database.db
    .insert(butlerRequests)
    .values({
      userId: owner.id, butlerCarId: car.id, startAt: new Date(start), endAt: end ? new Date(end) : null, startLocation: '서울 강남구 테헤란로 152', endLocation: '인천공항',
      driverPreference: o.preference ?? null, billingKey: `test-${randomBytes(8).toString('hex')}`, billingProvider: 'sandbox', baseFee: 700_000, finalPrice: 700_000,
      status: o.status ?? 'CONFIRMED',
    })
    .returning();
  return row.id;
}

let phoneSeq = 0;
async function newDriver(o: Record<string, unknown> = {}) {
  const res = await staff('POST', '/admin/drivers', { name: `기사${++phoneSeq}`, phone: `010-5555-${String(1000 + phoneSeq)}`, gender: 'male', ...o });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.driver as { id: number; name: string; phone: string };
}

const assign = (requestId: number, driverId: number) => staff('POST', `/admin/butler-requests/${requestId}/assign`, { driver_id: driverId });
const proposals = async (requestId: number) => {
  const res = await staff('GET', `/admin/butler-requests/${requestId}/driver-proposals`);
  expect(res.status).toBe(200);
  return (res.body.data.drivers as { id: number }[]).map((d) => d.id);
};
const auditOf = (entity: string, id: number) =>
  ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, String(id)))).orderBy(auditLog.id);
const korean = /[가-힣]/;

describe('drivers', () => {
  it('are created, listed active first then by name, and patched field by field; every write is audited', async () => {
    const res = await staff('POST', '/admin/drivers', { name: ' 나운전 ', phone: '010-1234-5678', gender: 'female', licence_classes: ['1종 보통', '1종 보통'], days_off: ['2031-01-02', '2031-01-01'] });
    expect(res.status).toBe(201);
    const driver = res.body.data.driver;
    expect(driver).toMatchObject({ name: '나운전', phone: '01012345678', gender: 'female', licence_classes: ['1종 보통'], active: true, days_off: ['2031-01-01', '2031-01-02'], memo: null });
    const resting = (await staff('POST', '/admin/drivers', { name: '가휴직', phone: '01098765432', gender: 'male', active: false })).body.data.driver;

    const list = (await staff('GET', '/admin/drivers')).body.data.drivers as { id: number; active: boolean; name: string }[];
    expect(list.findIndex((d) => d.id === driver.id)).toBeLessThan(list.findIndex((d) => d.id === resting.id));
    const actives = list.filter((d) => d.active).map((d) => d.name);
    expect(actives).toEqual([...actives].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(list.slice(0, actives.length).every((d) => d.active)).toBe(true);

    const patched = await staff('PATCH', `/admin/drivers/${driver.id}`, { memo: '야간 가능', active: false });
    expect(patched.status).toBe(200);
    expect(patched.body.data.driver).toMatchObject({ name: '나운전', phone: '01012345678', gender: 'female', memo: '야간 가능', active: false, days_off: ['2031-01-01', '2031-01-02'] });

    const audit = await auditOf('driver', driver.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
    expect(audit[0].before).toBeNull();
    expect(audit[1].before).toMatchObject({ memo: null, active: true });
    expect(audit[1].after).toMatchObject({ memo: '야간 가능', active: false });
    expect(audit[1].actor).toBeTruthy();
  });

  it('refuses bad fields with Korean messages per field, malformed JSON without a 500, and needs staff', async () => {
    type Refused = { status: number; body: { message: string; errors: Record<string, string[]> } };
    const bad = async (json: unknown, field: string, send: (body: unknown) => Promise<Refused> = (body) => staff('POST', '/admin/drivers', body)) => {
      const res = await send(json);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(korean);
      expect(Object.keys(res.body.errors)).toContain(field);
      expect(res.body.errors[field].every((m: string) => korean.test(m))).toBe(true);
    };
    const good = { name: '김기사', phone: '010-2222-3333', gender: 'male' };
    await bad({ ...good, name: '' }, 'name');
    await bad({ ...good, name: '가'.repeat(41) }, 'name');
    await bad({ ...good, phone: '02-123-4567' }, 'phone');
    await bad({ ...good, gender: 'other' }, 'gender');
    await bad({ ...good, licence_classes: ['3종'] }, 'licence_classes.0');
    await bad({ ...good, days_off: ['2031-02-30'] }, 'days_off.0');
    await bad({ ...good, active: 'yes' }, 'active');
    await bad({ phone: '01022223333', gender: 'male' }, 'name');
    const driver = await newDriver();
    await bad({ gender: 'x' }, 'gender', (body) => staff('PATCH', `/admin/drivers/${driver.id}`, body));

    const broken = await ctx.call('POST', '/admin/drivers', { token: ADMIN, body: '{"name": "김', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.message).toMatch(korean);
    expect((await staff('PATCH', '/admin/drivers/999999', { memo: 'x' })).status).toBe(404);
    expect((await ctx.call('GET', '/admin/drivers')).status).toBe(403);
    expect((await ctx.call('POST', '/admin/drivers', { json: good, token: owner.token })).status).toBe(403);
  });
});

describe('assigning a driver', () => {
  it('one driver, 20 concurrent assignments to 20 overlapping trips: exactly one wins', async () => {
    const driver = await newDriver();
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push(await trip(at(20, `${String(8 + (i % 4)).padStart(2, '0')}:00`), at(20, '17:00')));
    // Every pooled connection open first, so the assignments really run side by side on PostgreSQL.
    await Promise.all(ids.map(() => proposals(ids[0])));
    const results = await Promise.all(ids.map((id) => assign(id, driver.id)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(results.find((r) => r.status === 409)!.body.message).toBe('해당 기사는 같은 시간대에 다른 운행이 배정되어 있습니다.');
    const taken = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.driverId, driver.id));
    expect(taken).toHaveLength(1);
    expect(taken[0].id).toBe(results.find((r) => r.status === 200)!.body.data.trip.id);
  });

  it('a trip exactly the buffer after another is allowed; one minute closer is refused', async () => {
    expect(ctx.config.dispatch.bufferMinutes).toBe(60);
    const driver = await newDriver();
    const morning = await trip(at(21, '09:00'), at(21, '12:00'));
    const afternoon = await trip(at(21, '13:00'), at(21, '16:00')); // 60 minutes after the morning trip
    const tooClose = await trip(at(21, '06:00'), at(21, '08:01')); // 59 minutes before it
    expect((await assign(morning, driver.id)).status).toBe(200);
    const touching = await assign(afternoon, driver.id);
    expect(touching.status).toBe(200);
    expect(touching.body.data.trip).toMatchObject({ id: afternoon, stage: 'DISPATCHED', driver: { id: driver.id, name: driver.name, phone: driver.phone } });
    const refused = await assign(tooClose, driver.id);
    expect(refused.status).toBe(409);
    // Not the same time: the refusal names the gap it needs.
    expect(refused.body.message).toBe('해당 기사의 앞뒤 운행과 간격이 60분보다 짧습니다. 운행 사이에는 이동과 준비를 위해 60분 이상이 필요합니다.');
    // An open end counts as start + 8 h: 09:00–17:00 plus the buffer reaches 18:00.
    const open = await trip(at(22, '01:00'), null);
    expect((await assign(open, driver.id)).status).toBe(200);
  });

  it('proposals respect the preference, days off, inactivity and other trips; assignment refuses the same', async () => {
    const start = at(24, '10:00');
    const end = at(24, '18:00');
    const female = await newDriver({ gender: 'female' });
    const male = await newDriver({ gender: 'male' });
    const inactive = await newDriver({ gender: 'female', active: false });
    const resting = await newDriver({ gender: 'female', days_off: [dayOf(24)] });
    const busy = await newDriver({ gender: 'female' });
    expect((await assign(await trip(at(24, '07:00'), at(24, '11:00')), busy.id)).status).toBe(200);

    const wantsFemale = await trip(start, end, { preference: 'female' });
    const forFemale = await proposals(wantsFemale);
    expect(forFemale).toContain(female.id);
    for (const d of [male, inactive, resting, busy]) expect(forFemale).not.toContain(d.id);

    const forMale = await proposals(await trip(start, end, { preference: 'male' }));
    expect(forMale).toContain(male.id);
    expect(forMale).not.toContain(female.id);
    for (const pref of ['any', null] as const) {
      const anyone = await proposals(await trip(start, end, { preference: pref }));
      expect(anyone).toEqual(expect.arrayContaining([female.id, male.id]));
      for (const d of [inactive, resting, busy]) expect(anyone).not.toContain(d.id);
    }

    const off = await assign(wantsFemale, resting.id);
    expect(off.status).toBe(422);
    expect(off.body.message).toContain('휴무일');
    const out = await assign(wantsFemale, inactive.id);
    expect(out.status).toBe(422);
    expect(out.body.message).toMatch(korean);
    expect((await assign(wantsFemale, 999_999)).status).toBe(404);
    expect((await assign(wantsFemale, busy.id)).status).toBe(409);
    const cancelled = await trip(start, end, { status: 'CANCELLED' });
    const refused = await assign(cancelled, female.id);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('취소된 의전 요청입니다.');
    expect((await staff('POST', `/admin/butler-requests/${wantsFemale}/assign`, { driver_id: 'x' })).status).toBe(400);
    expect((await staff('GET', '/admin/butler-requests/999999/driver-proposals')).status).toBe(404);
  });

  it('reassignment frees the old driver; unassigning goes back to 접수; both audited', async () => {
    const first = await newDriver();
    const second = await newDriver();
    const x = await trip(at(25, '09:00'), at(25, '17:00'));
    const y = await trip(at(25, '10:00'), at(25, '18:00'));
    expect((await assign(x, first.id)).status).toBe(200);
    expect(await proposals(y)).not.toContain(first.id);
    expect(await proposals(x)).toContain(first.id); // the assigned driver, still suitable

    const moved = await assign(x, second.id);
    expect(moved.status).toBe(200);
    expect(moved.body.data.trip.driver!.id).toBe(second.id);
    expect(await proposals(y)).toContain(first.id);
    expect((await assign(y, first.id)).status).toBe(200);

    const freed = await staff('DELETE', `/admin/butler-requests/${x}/driver`);
    expect(freed.status).toBe(200);
    expect(freed.body.data.trip).toMatchObject({ id: x, driver: null, stage: 'RECEIVED' });
    const [row] = await ctx.database.db.select().from(butlerRequests).where(eq(butlerRequests.id, x));
    expect([row.driverId, row.dispatchedAt]).toEqual([null, null]);
    const audit = await auditOf('butler_request', x);
    expect(audit.map((a) => a.action)).toEqual(['assign', 'assign', 'unassign']);
    expect(audit[1].before).toMatchObject({ driverId: first.id });
    expect(audit[1].after).toMatchObject({ driver: { id: second.id } });
    expect(JSON.stringify(audit)).not.toContain(row.billingKey);
  });
});

describe('what the customer sees', () => {
  const book = async (token: string, start: string) => {
    const car = await newCar();
    const res = await ctx.call('POST', `/butlers/cars/${car.id}/request`, {
      token,
      json: { start_at: start, end_at: null, start_location: '서울 강남구 도산대로 442', end_location: '인천공항', way_point_requests: [], passenger_count: 2, driver_preference: 'any', billing_key: issueSandboxBillingKey(ctx.config) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.data.butler_request.id, car };
  };

  it('a pending booking assigned is confirmed; 배차 완료 with the driver shown from the day before; only to its owner', async () => {
    const me = await newCustomer();
    const start = at(5, '10:00');
    const { id, car } = await book(me.token, start);
    const before = (await ctx.call('GET', `/butlers/requests/${id}`, { token: me.token })).body.data.butler_request;
    expect(before).toMatchObject({ status: 'PENDING', stage: 'RECEIVED', dispatch: null });

    const driver = await newDriver({ name: '박기사', phone: '010-7777-8888' });
    const assigned = await assign(id, driver.id);
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.trip).toMatchObject({ status: 'CONFIRMED', stage: 'DISPATCHED', car: { id: car.id, name: '고스트 EWB', license_plate: car.licensePlate } });
    expect(await ctx.database.db.select().from(butlerSubscriptions).where(eq(butlerSubscriptions.requestId, id))).toHaveLength(1);
    expect((await staff('POST', `/admin/butler-requests/${id}/confirm`)).status).toBe(409);

    const fiveDaysAway = (await ctx.call('GET', `/butlers/requests/${id}`, { token: me.token })).body.data.butler_request;
    expect(fiveDaysAway).toMatchObject({ status: 'CONFIRMED', stage: 'DISPATCHED', dispatch: null });
    const subs = (await ctx.call('GET', '/butlers', { token: me.token })).body.data.butlers;
    expect(subs.map((s: { request: { id: number } }) => s.request.id)).toContain(id);

    // No number: the customer reaches the driver in the trip's message thread (issue 50).
    const shown = { driver_name: '박기사', license_plate: car.licensePlate };
    try {
      expect((await staff('POST', '/admin/test-clock', { now: `${dayOf(4)}T00:01:00+09:00` })).status).toBe(200);
      const dayBefore = (await ctx.call('GET', `/butlers/requests/${id}`, { token: me.token })).body.data.butler_request;
      expect(dayBefore).toMatchObject({ stage: 'DISPATCHED', dispatch: shown });
      const listed = (await ctx.call('GET', '/butlers/requests', { token: me.token })).body.data.butler_requests.find((r: { id: number }) => r.id === id);
      expect(listed!.dispatch).toEqual(shown);
      const sub = (await ctx.call('GET', '/butlers', { token: me.token })).body.data.butlers.find((s: { request: { id: number } }) => s.request.id === id);
      expect(sub!.request.dispatch).toEqual(shown);

      await staff('POST', '/admin/test-clock', { now: `${dayOf(3)}T23:59:00+09:00` });
      expect((await ctx.call('GET', `/butlers/requests/${id}`, { token: me.token })).body.data.butler_request.dispatch).toBeNull();
      await staff('POST', '/admin/test-clock', { now: at(5, '10:05') });
      expect((await ctx.call('GET', `/butlers/requests/${id}`, { token: me.token })).body.data.butler_request).toMatchObject({ stage: 'IN_PROGRESS', dispatch: shown });
    } finally {
      await staff('POST', '/admin/test-clock', {});
    }

    const other = await newCustomer();
    expect((await ctx.call('GET', `/butlers/requests/${id}`, { token: other.token })).status).toBe(404);
    expect((await ctx.call('GET', '/butlers/requests', { token: other.token })).body.data.butler_requests).toEqual([]);
  });

  it("nobody learns a car's plate before the day before the trip: not the fleet's visitors, not the booking's car", async () => {
    const { car } = await book((await newCustomer()).token, at(7, '10:00'));
    expect(car.licensePlate).toBeTruthy();
    const fleet = (await ctx.call('GET', '/butlers/cars')).body.data.cars as { id: number; license_plate: string | null }[];
    expect(fleet.length).toBeGreaterThan(0);
    expect(fleet.every((c) => c.license_plate === null)).toBe(true);
    expect((await ctx.call('GET', `/butlers/cars/${car.id}`)).body.data.car.license_plate).toBeNull();
    expect(JSON.stringify((await ctx.call('GET', '/catalogue')).body)).not.toContain(car.licensePlate);
    const me = await newCustomer();
    const { id } = await book(me.token, at(8, '10:00'));
    const mine = (await ctx.call('GET', `/butlers/requests/${id}`, { token: me.token })).body.data.butler_request;
    expect(mine.car.license_plate).toBeNull();
    expect(mine.dispatch).toBeNull();
  });

  it('the reminder is held without a driver, then names the driver, their phone and the plate once assigned', async () => {
    const me = await newCustomer();
    const start = at(6, '10:00');
    const { id, car } = await book(me.token, start);
    const event = { type: 'butler.reminder' as const, userId: me.id, butlerRequestId: id };
    const due = new Date(new Date(start).getTime() - 86_400_000 + 60_000);
    const rows = async () => {
      const loaded = await butlerReminder.load(ctx.database.db, event, due);
      if (!('vars' in loaded)) throw new Error('the reminder should load');
      return Object.fromEntries(fillTemplate(butlerReminder, loaded.vars, 'http://localhost').details);
    };
    // No driver yet: asked again in 30 minutes, never sent naming nobody (issue 50).
    expect(await butlerReminder.load(ctx.database.db, event, due)).toEqual({ deferUntil: new Date(due.getTime() + 30 * 60_000) });
    const driver = await newDriver({ name: '최기사', phone: '010-3333-4444' });
    expect((await assign(id, driver.id)).status).toBe(200);
    expect(await rows()).toMatchObject({ 기사: '최기사', '기사 연락처': '010-3333-4444', '차량 번호': car.licensePlate });
  });
});

describe('the board and the run sheet', () => {
  it('lists live trips of the days asked, unassigned first then by start, with the drivers', async () => {
    const driver = await newDriver();
    const early = await trip(at(30, '06:00'), at(30, '08:00'));
    expect((await assign(early, driver.id)).status).toBe(200);
    const ten = await trip(at(30, '10:00'), at(30, '12:00'));
    const noon = await trip(at(30, '12:00'), at(30, '14:00'));
    await trip(at(30, '09:00'), at(30, '11:00'), { status: 'CANCELLED' });
    const nextDay = await trip(at(31, '00:30'), at(31, '03:00'));
    const lateBefore = await trip(at(29, '23:59'), at(30, '03:00'));

    const one = await staff('GET', `/admin/dispatch?from=${dayOf(30)}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ from: dayOf(30), to: dayOf(31), buffer_minutes: 60 });
    expect(one.body.data.trips.map((t: { id: number }) => t.id)).toEqual([ten, noon, early]);
    expect(one.body.data.trips[2]).toMatchObject({ stage: 'DISPATCHED', driver: { id: driver.id }, customer: { name: '홍길동' }, start_location: '서울 강남구 테헤란로 152', way_points: [] });
    expect(one.body.data.drivers.map((d: { id: number }) => d.id)).toContain(driver.id);
    const two = await staff('GET', `/admin/dispatch?from=${dayOf(30)}&days=2`);
    expect(two.body.data.trips.map((t: { id: number }) => t.id)).toEqual([ten, noon, nextDay, early]);
    expect(two.body.data.trips.map((t: { id: number }) => t.id)).not.toContain(lateBefore);

    const today = await staff('GET', '/admin/dispatch');
    expect(today.body.data).toMatchObject({ from: todayInKorea(new Date()), to: dayOf(1) });
    for (const q of ['days=15', 'days=0', 'from=2031-02-30', 'days=abc']) {
      const res = await staff('GET', `/admin/dispatch?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.message).toMatch(korean);
    }
    expect((await ctx.call('GET', '/admin/dispatch')).status).toBe(403);
  });

  it("a driver's run sheet: their trips starting that Korean day, by start", async () => {
    const driver = await newDriver();
    const afternoon = await trip(at(32, '14:00'), at(32, '18:00'));
    const morning = await trip(at(32, '07:00'), at(32, '11:00'));
    const tomorrow = await trip(at(33, '09:00'), at(33, '11:00'));
    for (const id of [afternoon, morning, tomorrow]) expect((await assign(id, driver.id)).status).toBe(200);
    await trip(at(32, '12:00'), at(32, '13:00'));

    const sheet = await staff('GET', `/admin/dispatch/run-sheet?driver_id=${driver.id}&date=${dayOf(32)}`);
    expect(sheet.status).toBe(200);
    expect(sheet.body.data.driver).toMatchObject({ id: driver.id, name: driver.name });
    expect(sheet.body.data.date).toBe(dayOf(32));
    expect(sheet.body.data.trips.map((t: { id: number }) => t.id)).toEqual([morning, afternoon]);
    // Printed and handed to the driver: the customer's number masked as on /driver (the board keeps it in full for staff).
    for (const t of sheet.body.data.trips as { id: number; customer: { mobile: string | null } }[]) expect(t.customer.mobile).toMatch(/^010-\*{4}-\d{4}$/);
    const board = (await staff('GET', `/admin/dispatch?from=${dayOf(32)}&days=1`)).body.data;
    expect(JSON.stringify(board)).toMatch(/"mobile":"010\d{8}"/);
    expect((await staff('GET', `/admin/dispatch/run-sheet?driver_id=999999&date=${dayOf(32)}`)).status).toBe(404);
    expect((await staff('GET', `/admin/dispatch/run-sheet?driver_id=${driver.id}`)).status).toBe(400);
  });
});
