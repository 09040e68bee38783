import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { insertButlerCar, insertModel, upsertBrand } from '../../src/api/seed/factories';
import { notificationMessages } from '../../src/api/db/schema';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { apiTools, customer, newPerson, type TestContext } from './helpers';

/** A trip with a driver who accepted an invite (with the 위치정보 consents asked for), on a test clock (location-*.test.ts). */
export function locationFixtures(ctx: () => TestContext) {
  let modelId = 0;
  let seq = 0;
  const { admin: staff, setClock, runJobs } = apiTools(ctx);
  const at = (days: number, time: string) => `${addDays(todayInKorea(new Date()), days)}T${time}:00+09:00`;

  async function setup(slug: string) {
    const brand = await upsertBrand(ctx().database.db, { name: '마이바흐', slug });
    modelId = (await insertModel(ctx().database.db, { brandId: brand.id, name: 'S680' })).id;
  }

  async function inviteCode(to: string): Promise<string> {
    await runJobs();
    const rows = await ctx().database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'driver.invited'), eq(notificationMessages.to, to)));
    return /\/driver\?invite=([\w-]+)/.exec(rows.sort((a, b) => b.id - a.id)[0].text)![1];
  }

  /** A roster driver invited by email; `accept` sends the sign-up with the given consents. */
  async function invitedDriver() {
    seq += 1;
    const res = await staff('POST', '/admin/drivers', { name: `위기사${seq}`, phone: `010-6666-${String(3000 + seq)}`, gender: 'male' });
    expect(res.status).toBe(201);
    const driver = res.body.data.driver as { id: number; name: string };
    const email = newPerson('locdriver').email;
    expect((await staff('POST', `/admin/drivers/${driver.id}/invite`, { channel: 'email', email })).status).toBe(201);
    const code = await inviteCode(email);
    const accept = (consents: { location_terms?: boolean; location_third_party?: boolean }) => ctx().call('POST', '/driver/invites/accept', { json: { code, password: 'driver123', ...consents } });
    return { driver, email, code, accept };
  }

  /** A driver account with the consents given (both by default): its token. */
  async function driverAccount(consents: { location_terms?: boolean; location_third_party?: boolean } = { location_terms: true, location_third_party: true }) {
    const d = await invitedDriver();
    const res = await d.accept(consents);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { ...d, token: res.body.data.access_token };
  }

  /** A paid 09:00–17:00 booking on day `d`, assigned to the driver. */
  async function trip(d: number, driverId: number) {
    seq += 1;
    const car = await insertButlerCar(ctx().database.db, modelId, { butlerFee: 800_000, butlerOvertimeFee: 100_000, licensePlate: `12가 ${7000 + seq}` });
    const owner = await customer(ctx());
    const res = await ctx().call('POST', `/butlers/cars/${car.id}/request`, {
      token: owner.token,
      json: { start_at: at(d, '09:00'), end_at: at(d, '17:00'), start_location: '서울 강남구 테헤란로 152', end_location: '서울 중구 세종대로 110', passenger_count: 1, billing_key: issueSandboxBillingKey(ctx().config) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.butler_request.id;
    expect((await staff('POST', `/admin/butler-requests/${id}/assign`, { driver_id: driverId })).status).toBe(200);
    return { id, owner };
  }

  /** The trip under way (출발 tapped at 08:00 on its day) with a position posted; answers the post's status. */
  async function departWithPosition(token: string, id: number, d: number) {
    await setClock(at(d, '08:00'));
    expect((await ctx().call('POST', `/driver/trips/${id}/stages/departed`, { token, json: {} })).status).toBe(201);
    return (await ctx().call('POST', `/driver/trips/${id}/position`, { token, json: { lat: 37.5547, lng: 126.9707 } })).status;
  }

  return { staff, at, setClock, runJobs, setup, invitedDriver, driverAccount, trip, departWithPosition };
}
