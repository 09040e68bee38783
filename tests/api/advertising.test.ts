import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { insertUser } from '../../src/api/seed/factories';
import { jobs, notificationMessages, users } from '../../src/api/db/schema';
import { TEST_ADMIN_TOKEN, type Config } from '../../src/api/env';
import { createClock } from '../../src/api/jobs/clock';
import type { Channel, NotificationChannels, OutgoingMessage } from '../../src/api/notifications/channels';
import { openSession } from '../../src/api/accounts/sessions';
import { apiTools, callOf, createTestContext, type TestContext } from './helpers';

/**
 * 정보통신망법 제50조 (docs/decisions/legal.md §6): no (광고) message between 21:00 and 08:00
 * KST without the separate night-time consent (held until 08:00), and a reminder of the marketing
 * consent every 2 years from its day, once, while it stands. Both on the test clock.
 */

function fakeChannel(provider: string) {
  const sent: OutgoingMessage[] = [];
  const channel: Channel & { sent: OutgoingMessage[] } = { provider, sent, send: (m) => (sent.push(m), Promise.resolve({ id: `${provider}-${m.id}` })) };
  return channel;
}

const kst = (s: string) => new Date(`${s}+09:00`);
let ctx: TestContext;
let config: Config;
let app: ReturnType<typeof createApp>;
const clock = createClock();
const email = fakeChannel('fake-mail');
const kakao = fakeChannel('fake-kakao');
const channels: NotificationChannels = { email, kakao };

beforeAll(async () => {
  ctx = await createTestContext({ notifications: { staffEmails: ['ops@luxe.test'], staffPhones: [], contactPhone: '02-6952-0808' } });
  config = ctx.config;
  app = createApp({ db: ctx.database.db, config, clock, notificationChannels: channels });
});
afterAll(() => ctx.close());

/** Calls this file's app (its own notification channels), as from the site's host. */
const call = callOf(() => app, { host: 'localhost' });
const { runJobs } = apiTools(() => ({ call, config }));
async function customer(overrides: Partial<typeof users.$inferInsert> = {}) {
  const user = await insertUser(ctx.database.db, overrides);
  return { user, token: (await openSession(ctx.database.db, config, user.id)).access_token };
}
const messagesOf = (userId: number, event: string) =>
  ctx.database.db.select().from(notificationMessages).where(and(eq(notificationMessages.userId, userId), eq(notificationMessages.event, event)));

describe('(광고) messages wait for 08:00 KST without the night-time consent', () => {
  it('a campaign sent at 22:30 reaches the night-time consenter at once and the others at 08:00, once', async () => {
    clock.set(kst('2033-05-10T22:30:00'));
    const day = await customer({ marketingConsent: true, marketingConsentAt: kst('2033-01-01T12:00:00') });
    const night = await customer({ marketingConsent: true, marketingConsentAt: kst('2033-01-01T12:00:00'), marketingNightConsent: true });
    expect((await call('POST', '/admin/notifications/marketing', { token: TEST_ADMIN_TOKEN, json: { campaign: 'night-2033', title: '야간 혜택', body: '혜택 안내입니다.' } })).status).toBe(202);
    await runJobs();
    const [held] = await messagesOf(day.user.id, 'marketing.announcement');
    expect(held.status).toBe('PENDING');
    expect(email.sent.some((m) => m.id === held.id)).toBe(false);
    const [job] = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `notify.send:${held.id}`));
    expect(job.runAt).toEqual(kst('2033-05-11T08:00:00'));
    expect((await messagesOf(night.user.id, 'marketing.announcement'))[0].status).toBe('SENT');

    // Still night at 07:59: nothing; from 08:00 it goes, and another run sends nothing more.
    clock.set(kst('2033-05-11T07:59:00'));
    await runJobs();
    expect((await messagesOf(day.user.id, 'marketing.announcement'))[0].status).toBe('PENDING');
    clock.set(kst('2033-05-11T08:00:30'));
    await runJobs();
    await runJobs();
    expect((await messagesOf(day.user.id, 'marketing.announcement'))[0].status).toBe('SENT');
    expect(email.sent.filter((m) => m.id === held.id)).toHaveLength(1);
  });

  it('the night-time consent is given on the account only with the marketing consent, and ends with it', async () => {
    clock.set(kst('2033-05-12T12:00:00'));
    const c = await customer({ marketingConsent: false });
    const refused = await call('PUT', '/accounts', { token: c.token, json: { marketing_night_consent: true } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('야간 광고 수신');
    const both = await call('PUT', '/accounts', { token: c.token, json: { marketing_consent: true, marketing_night_consent: true } });
    expect(both.body.data).toMatchObject({ marketing_consent: true, marketing_night_consent: true });
    const off = await call('PUT', '/accounts', { token: c.token, json: { marketing_consent: false } });
    expect(off.body.data).toMatchObject({ marketing_consent: false, marketing_night_consent: false });
    expect((await call('PUT', '/accounts', { token: c.token, json: { marketing_night_consent: 'yes' } })).status).toBe(400);
  });

  it('a message that is not advertising is not held at night', async () => {
    clock.set(kst('2033-05-13T23:00:00'));
    const c = await customer({ marketingConsent: true, marketingConsentAt: kst('2031-05-13T11:00:00') });
    await ctx.database.db.insert(jobs).values({ kind: 'marketing.consent-reminder', key: `marketing.consent-reminder:${c.user.id}:test`, payload: { userId: c.user.id, consentAt: kst('2031-05-13T11:00:00').toISOString(), n: 1 }, runAt: clock.now() });
    await runJobs();
    await runJobs();
    const rows = await messagesOf(c.user.id, 'marketing.consent_reminder');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.status === 'SENT')).toBe(true);
  });
});

describe('the marketing consent is recalled every 2 years from its day', () => {
  it('consent given on /my at 2033-06-01: one reminder on 2035-06-01 10:00 KST, the next queued for 2037', async () => {
    clock.set(kst('2033-06-01T15:00:00'));
    const c = await customer({ marketingConsent: false });
    expect((await call('PUT', '/accounts', { token: c.token, json: { marketing_consent: true } })).status).toBe(200);
    const [u] = await ctx.database.db.select().from(users).where(eq(users.id, c.user.id));
    expect(Math.abs(u.marketingConsentAt!.getTime() - kst('2033-06-01T15:00:00').getTime())).toBeLessThan(60_000);
    // Giving it again while given changes nothing (no second chain).
    expect((await call('PUT', '/accounts', { token: c.token, json: { marketing_consent: true } })).status).toBe(200);

    clock.set(kst('2035-06-01T09:59:00'));
    await runJobs();
    expect(await messagesOf(c.user.id, 'marketing.consent_reminder')).toEqual([]);

    clock.set(kst('2035-06-01T10:00:30'));
    await runJobs();
    await runJobs();
    const rows = await messagesOf(c.user.id, 'marketing.consent_reminder');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.status).toBe('SENT');
      expect(r.text).toContain('2033.06.01');
      expect(r.text).toContain('수신 동의');
    }
    const emails = rows.filter((r) => r.channel === 'email');
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).not.toContain('(광고)');
    const next = await ctx.database.db.select().from(jobs).where(eq(jobs.key, `marketing.consent-reminder:${c.user.id}:2037-06-01`));
    expect(next).toHaveLength(1);
    expect(next[0].runAt).toEqual(kst('2037-06-01T10:00:00'));

    // A later run of the same day sends nothing more.
    clock.set(kst('2035-06-02T12:00:00'));
    await runJobs();
    expect(await messagesOf(c.user.id, 'marketing.consent_reminder')).toHaveLength(rows.length);
  });

  it('withdrawn before its day: no reminder; given again: reminders count from the new day', async () => {
    clock.set(kst('2033-07-01T12:00:00'));
    const c = await customer({ marketingConsent: false });
    await call('PUT', '/accounts', { token: c.token, json: { marketing_consent: true } });
    clock.set(kst('2034-01-10T12:00:00'));
    await call('PUT', '/accounts', { token: c.token, json: { marketing_consent: false } });
    clock.set(kst('2034-03-05T12:00:00'));
    await call('PUT', '/accounts', { token: c.token, json: { marketing_consent: true } });
    clock.set(kst('2035-07-01T10:30:00'));
    await runJobs();
    expect(await messagesOf(c.user.id, 'marketing.consent_reminder')).toEqual([]);
    clock.set(kst('2036-03-05T10:30:00'));
    await runJobs();
    const rows = await messagesOf(c.user.id, 'marketing.consent_reminder');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0].text).toContain('2034.03.05');
  });
});
