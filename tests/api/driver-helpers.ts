import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { notificationMessages } from '../../src/api/db/schema';
import { apiTools, newPerson, type TestContext } from './helpers';

let seq = 0;

/**
 * A roster driver with an account: added by staff, invited by email, the invite accepted (with
 * both 위치정보 consents when `consents`, so the live position is shared). Names and numbers are
 * new on every call.
 */
export async function driverAccount(ctx: TestContext, opts: { consents?: boolean } = {}) {
  seq += 1;
  const { admin: staff, runJobs } = apiTools(() => ctx);
  const made = await staff('POST', '/admin/drivers', { name: `박기사${seq}`, phone: `010-6666-${String(3000 + seq)}`, gender: 'male' });
  expect(made.status).toBe(201);
  const driver = made.body.data.driver as { id: number; name: string; phone: string };
  const email = newPerson('driver').email;
  expect((await staff('POST', `/admin/drivers/${driver.id}/invite`, { channel: 'email', email })).status).toBe(201);
  await runJobs();
  const rows = await ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.event, 'driver.invited'), eq(notificationMessages.to, email)));
  const code = /\/driver\?invite=([\w-]+)/.exec(rows.sort((a, b) => b.id - a.id)[0].text)![1];
  const consents = opts.consents ? { location_terms: true, location_third_party: true } : {};
  const res = await ctx.call('POST', '/driver/invites/accept', { json: { code, password: 'driver123', ...consents } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { driver, phone: driver.phone.replace(/\D/g, ''), token: res.body.data.access_token };
}
