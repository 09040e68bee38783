import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { driverInvites, driverLocationConsents, locationAccessLog, tripPositions } from '../../src/api/db/schema';
import { LOCATION_CONSENT_VERSION } from '../../src/domain/location';
import { createTestContext, customer, type TestContext } from './helpers';
import { locationFixtures } from './location-helpers';

/**
 * 위치정보 consents of the driver (docs/decisions/legal.md §5): two optional consents at the
 * invite's acceptance, stored with version and time; without the terms the driver's page shares
 * nothing, without the third party the customer sees nothing; withdrawing deletes the stored
 * positions (and the withdrawn part's 확인자료) at once.
 */

let ctx: TestContext;
const f = locationFixtures(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
  await f.setup('maybach-location-consent');
});
afterAll(() => ctx.close());
afterEach(() => f.setClock(null));

const positionsOf = (driverId: number) => ctx.database.db.select().from(tripPositions).where(eq(tripPositions.driverId, driverId));

describe('consents at the invite', () => {
  it('are optional: without them the driver works but no position is taken, and the texts name the officer', async () => {
    const d = await f.invitedDriver();
    const info = await ctx.call('GET', `/driver/invites/${d.code}`);
    expect(info.body.data.location_texts.map((t: { kind: string }) => t.kind)).toEqual(['terms', 'third_party']);
    expect(info.body.data.location_texts[0].text).toContain('위치정보관리책임자');
    expect(info.body.data.location_texts[0].text).toContain(ctx.config.locationOfficer.email);

    const res = await d.accept({});
    expect(res.status).toBe(201);
    const token = res.body.data.access_token;
    const mine = await ctx.call('GET', '/driver/location', { token });
    expect(mine.body.data.consents).toEqual({ terms: null, third_party: null });

    const { id, owner } = await f.trip(3, d.driver.id);
    expect(await f.departWithPosition(token, id, 3)).toBe(409);
    // The stages still work; nothing is stored, nothing is shown, nothing is logged.
    expect((await ctx.call('POST', `/driver/trips/${id}/stages/arrived`, { token, json: {} })).status).toBe(201);
    expect(await positionsOf(d.driver.id)).toHaveLength(0);
    expect((await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token })).body.data.position).toBeNull();
    expect(await ctx.database.db.select().from(locationAccessLog).where(eq(locationAccessLog.driverId, d.driver.id))).toHaveLength(0);
  });

  it('the third party without the terms is refused and the invite stays unused', async () => {
    const d = await f.invitedDriver();
    const res = await d.accept({ location_third_party: true });
    expect(res.status).toBe(422);
    const [invite] = await ctx.database.db.select().from(driverInvites).where(eq(driverInvites.driverId, d.driver.id));
    expect(invite.usedAt).toBeNull();
    expect((await d.accept({ location_terms: true, location_third_party: true })).status).toBe(201);
  });

  it('are stored with their version and time; the terms alone share with staff but not with the customer', async () => {
    await f.setClock(f.at(0, '07:00'));
    const d = await f.driverAccount({ location_terms: true });
    const rows = await ctx.database.db.select().from(driverLocationConsents).where(eq(driverLocationConsents.driverId, d.driver.id));
    expect(rows).toEqual([expect.objectContaining({ kind: 'terms', version: LOCATION_CONSENT_VERSION.terms, withdrawnAt: null })]);
    expect(rows[0].agreedAt.toISOString().slice(0, 16)).toBe(new Date(f.at(0, '07:00')).toISOString().slice(0, 16));

    const { id, owner } = await f.trip(4, d.driver.id);
    expect(await f.departWithPosition(d.token, id, 4)).toBe(200);
    expect((await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token })).body.data.position).toBeNull();
    expect((await f.staff('GET', `/admin/butler-requests/${id}/position`)).body.data.position).toMatchObject({ lat: 37.5547, lng: 126.9707 });

    // Turned on later from /driver: now the customer sees it.
    const on = await ctx.call('PUT', '/driver/location/consents', { token: d.token, json: { third_party: true } });
    expect(on.status).toBe(200);
    expect(on.body.data.consents.third_party).toMatchObject({ version: LOCATION_CONSENT_VERSION.third_party });
    expect((await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token })).body.data.position).toMatchObject({ lat: 37.5547 });
  });
});

describe('withdrawal', () => {
  it('of the terms deletes the positions and every 확인자료 row at once and stops sharing', async () => {
    const d = await f.driverAccount();
    const { id, owner } = await f.trip(5, d.driver.id);
    expect(await f.departWithPosition(d.token, id, 5)).toBe(200);
    expect((await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token })).body.data.position).not.toBeNull();
    await f.staff('GET', `/admin/butler-requests/${id}/position`);
    expect(await ctx.database.db.select().from(locationAccessLog).where(eq(locationAccessLog.driverId, d.driver.id))).toHaveLength(2);

    const off = await ctx.call('PUT', '/driver/location/consents', { token: d.token, json: { terms: false } });
    expect(off.status).toBe(200);
    expect(off.body.data.consents).toEqual({ terms: null, third_party: null });
    expect(await positionsOf(d.driver.id)).toHaveLength(0);
    expect(await ctx.database.db.select().from(locationAccessLog).where(eq(locationAccessLog.driverId, d.driver.id))).toHaveLength(0);
    const kept = await ctx.database.db.select().from(driverLocationConsents).where(eq(driverLocationConsents.driverId, d.driver.id));
    expect(kept.every((r) => r.withdrawnAt)).toBe(true);
    expect((await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token })).body.data.position).toBeNull();
    expect((await ctx.call('POST', `/driver/trips/${id}/position`, { token: d.token, json: { lat: 37.5, lng: 127 } })).status).toBe(409);
  });

  it('of the third party alone deletes the positions and the customers’ rows, keeping staff’s', async () => {
    const d = await f.driverAccount();
    const { id, owner } = await f.trip(6, d.driver.id);
    expect(await f.departWithPosition(d.token, id, 6)).toBe(200);
    await ctx.call('GET', `/butlers/requests/${id}/position`, { token: owner.token });
    await f.staff('GET', `/admin/butler-requests/${id}/position`);
    expect((await ctx.call('PUT', '/driver/location/consents', { token: d.token, json: { third_party: false } })).status).toBe(200);
    expect(await positionsOf(d.driver.id)).toHaveLength(0);
    const left = await ctx.database.db.select().from(locationAccessLog).where(eq(locationAccessLog.driverId, d.driver.id));
    expect(left.map((r) => r.readerRole)).toEqual(['staff']);
  });

  it('is the driver’s own: customers and staff sessions are refused', async () => {
    const { token } = await customer(ctx);
    expect((await ctx.call('PUT', '/driver/location/consents', { token, json: { terms: false } })).status).toBe(403);
    expect((await ctx.call('GET', '/driver/location', { token })).status).toBe(403);
    expect((await ctx.call('GET', '/driver/location')).status).toBe(401);
  });
});
