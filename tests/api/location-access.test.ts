import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { locationAccessLog, notificationMessages } from '../../src/api/db/schema';
import { LOCATION_PURPOSE, LOCATION_READ_SESSION_MINUTES } from '../../src/domain/location';
import { createTestContext, customer, type TestContext } from './helpers';
import { locationFixtures } from './location-helpers';

/**
 * 위치정보 이용·제공사실 확인자료 (docs/decisions/legal.md §5): every read of a driver's position
 * by the trip's customer or by staff writes who, whose, which trip, for what and when (one row per
 * read session); strangers get 404 and leave nothing; the driver sees their rows; rows go 6
 * months after their last read; and the driver hears of the reads in one message every 30 days.
 */

let ctx: TestContext;
const f = locationFixtures(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  await f.setup('maybach-location-access');
});
afterAll(() => ctx.close());
afterEach(() => f.setClock(null));

const rowsOf = (driverId: number) => ctx.database.db.select().from(locationAccessLog).where(eq(locationAccessLog.driverId, driverId)).orderBy(locationAccessLog.id);
const plus = (iso: string, minutes: number) => new Date(new Date(iso).getTime() + minutes * 60_000).toISOString();

describe('a read of the position', () => {
  it('by the customer writes one row per read session; a stranger is 404 and writes nothing', async () => {
    const d = await f.driverAccount();
    const { id, owner } = await f.trip(2, d.driver.id);
    const stranger = await customer(ctx);
    const read = (token: string) => ctx.call('GET', `/butlers/requests/${id}/position`, { token });
    // Nothing is logged before there is a position to read.
    await f.setClock(f.at(2, '07:30'));
    expect((await read(owner.token)).body.data.position).toBeNull();
    expect(await f.departWithPosition(d.token, id, 2)).toBe(200);
    expect(await rowsOf(d.driver.id)).toHaveLength(0);

    await f.setClock(f.at(2, '08:01'));
    expect((await read(owner.token)).body.data.position).toMatchObject({ lat: 37.5547, lng: 126.9707 });
    await f.setClock(f.at(2, '08:02'));
    await read(owner.token);
    await read(owner.token);
    expect((await read(stranger.token)).status).toBe(404);
    let rows = await rowsOf(d.driver.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ butlerRequestId: id, readerUserId: owner.user.id, readerRole: 'customer', readerLabel: '예약 고객', purpose: LOCATION_PURPOSE.customer, reads: 3, noticedAt: null });
    expect(rows[0].firstReadAt.toISOString().slice(0, 16)).toBe(new Date(f.at(2, '08:01')).toISOString().slice(0, 16));
    expect(rows[0].lastReadAt.toISOString().slice(0, 16)).toBe(new Date(f.at(2, '08:02')).toISOString().slice(0, 16));

    // A read after the session's gap is a new row.
    await f.setClock(plus(f.at(2, '08:02'), LOCATION_READ_SESSION_MINUTES + 1));
    await read(owner.token);
    rows = await rowsOf(d.driver.id);
    expect(rows.map((r) => r.reads)).toEqual([3, 1]);

    // The driver sees them; another driver does not.
    const mine = await ctx.call('GET', '/driver/location', { token: d.token });
    expect(mine.body.data.reads).toHaveLength(2);
    expect(mine.body.data.reads[0]).toMatchObject({ reader: '예약 고객', reader_role: 'customer', butler_request_id: id, purpose: LOCATION_PURPOSE.customer, reads: 1 });
    const other = await f.driverAccount();
    expect((await ctx.call('GET', '/driver/location', { token: other.token })).body.data.reads).toEqual([]);
  });

  it('by staff writes a row with the staff account, 404 for an unknown trip, nothing outside the trip', async () => {
    const d = await f.driverAccount();
    const { id } = await f.trip(3, d.driver.id);
    expect((await f.staff('GET', `/admin/butler-requests/${id}/position`)).body.data.position).toBeNull();
    expect(await f.departWithPosition(d.token, id, 3)).toBe(200);
    const seen = await f.staff('GET', `/admin/butler-requests/${id}/position`);
    expect(seen.body.data.position).toMatchObject({ lat: 37.5547 });
    expect((await f.staff('GET', '/admin/butler-requests/999999/position')).status).toBe(404);
    const { token } = await customer(ctx);
    expect((await ctx.call('GET', `/admin/butler-requests/${id}/position`, { token })).status).toBe(403);
    const rows = await rowsOf(d.driver.id);
    expect(rows).toEqual([expect.objectContaining({ readerRole: 'staff', readerUserId: null, readerLabel: 'LUXE 직원 (machine-token)', purpose: LOCATION_PURPOSE.staff, butlerRequestId: id })]);
  });
});

describe('the daily job', () => {
  it('purges rows 6 months after their last read, keeping younger ones', async () => {
    const d = await f.driverAccount();
    const { id, owner } = await f.trip(1, d.driver.id);
    expect(await f.departWithPosition(d.token, id, 1)).toBe(200);
    await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token });
    const [old] = await rowsOf(d.driver.id);
    // A younger row: read four months after the first.
    const fourMonths = new Date(old.lastReadAt.getTime() + 122 * 86_400_000);
    await ctx.database.db.insert(locationAccessLog).values({ driverId: d.driver.id, butlerRequestId: id, readerUserId: owner.user.id, readerRole: 'customer', readerLabel: '예약 고객', purpose: LOCATION_PURPOSE.customer, firstReadAt: fourMonths, lastReadAt: fourMonths });

    // Still there a little under 6 months on (the notice marks it, the purge leaves it).
    await f.setClock(new Date(old.lastReadAt.getTime() + 178 * 86_400_000).toISOString());
    await f.runJobs();
    expect(await rowsOf(d.driver.id)).toHaveLength(2);
    await f.setClock(new Date(old.lastReadAt.getTime() + 186 * 86_400_000).toISOString());
    await f.runJobs();
    const left = await rowsOf(d.driver.id);
    expect(left).toHaveLength(1);
    expect(left[0].lastReadAt.getTime()).toBe(fourMonths.getTime());
  });

  it('tells the driver of the untold reads once, 30 days after the first', async () => {
    const d = await f.driverAccount();
    const { id, owner } = await f.trip(4, d.driver.id);
    expect(await f.departWithPosition(d.token, id, 4)).toBe(200);
    await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token });
    await f.staff('GET', `/admin/butler-requests/${id}/position`);
    const notices = () => ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'driver.location_reads'), eq(notificationMessages.to, d.email.toLowerCase())));

    await f.setClock(f.at(4 + 29, '05:00'));
    await f.runJobs();
    expect(await notices()).toHaveLength(0);
    await f.setClock(f.at(4 + 31, '05:00'));
    await f.runJobs();
    const sent = await notices();
    expect(sent).toHaveLength(1);
    expect(sent[0].text).toContain('모두 2건');
    expect(sent[0].text).toContain('예약 고객');
    expect(sent[0].text).toContain('LUXE 직원 (machine-token)');
    expect((await rowsOf(d.driver.id)).every((r) => r.noticedAt)).toBe(true);
    // Once: the next days tell nothing more.
    await f.setClock(f.at(4 + 33, '05:00'));
    await f.runJobs();
    expect(await notices()).toHaveLength(1);
  });
});
