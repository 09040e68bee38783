import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { adHoldUntil } from '../../domain/advertising';
import { inTransaction, type Db } from '../db/client';
import { notificationMessages, users } from '../db/schema';
import type { Config } from '../env';
import type { Clock } from '../jobs/clock';
import { enqueue, type Job, type JobOutcome } from '../jobs/queue';
import type { JobHandler } from '../jobs/runner';
import { type ChannelName, type MessageMeta, type NotificationChannels } from './channels';
import { liveCustomer } from './data';
import { NOTIFY_JOB, type NotificationEvent } from './events';
import { fillTemplate, kakaoText, type Loaded, type Template, type TemplateVars } from './template';
import { guestThreadPath, guestThreadToken } from './guest-link';
import { templateFor } from './templates';
import { emailHtml, emailText } from './templates/layout';
import { siteOrigin, unsubscribeUrl } from './unsubscribe';
import { rowTime } from '../jobs/clock';

/** The job that sends one outbox row on its channel (key notify.send:{row id}). */
export const NOTIFY_SEND_JOB = 'notify.send';

/** Tries of one message before it is FAILED (backoff 30 s, 2 min, 8 min, 32 min, 2 h 8 min, 6 h, 6 h). */
const SEND_ATTEMPTS = 8;
/** A provider slower than this counts as failed (the job's claim is renewed while it waits, so no second worker sends meanwhile). */
const SEND_TIMEOUT_MS = 30_000;

/** What the notification jobs need. */
export interface NotifyContext {
  db: Db;
  clock: Clock;
  config: Config;
  channels: NotificationChannels;
  log: (level: 'info' | 'error', message: string, extra?: unknown) => void;
}

/** A recipient, with the values their copy differs by (a company trip's guest: their own link). */
type Recipient = { channel: ChannelName; to: string; vars?: TemplateVars };

/** Digits of a Korean mobile number, or null when it is not one. */
const mobileDigits = (value: string | null | undefined) => {
  const digits = (value ?? '').replace(/\D/g, '');
  return /^01\d{8,9}$/.test(digits) ? digits : null;
};

/** Staff emails: STAFF_NOTIFY_EMAILS, else every live staff account's. */
async function staffEmails(ctx: NotifyContext): Promise<string[]> {
  if (ctx.config.notifications.staffEmails.length) return ctx.config.notifications.staffEmails;
  const rows = await ctx.db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.role, 'staff'), isNull(users.deletedAt), isNotNull(users.email)));
  return rows.map((r) => r.email!);
}

/** The values a company trip's guest's copy differs by: the link to their own page of the trip's thread. */
function guestLink(ctx: NotifyContext, trip: { id: number; guestPhone: string }): TemplateVars {
  const token = guestThreadToken(ctx.config.jwtSecret, trip);
  return token ? { 상세경로: guestThreadPath(token) } : {};
}

/** Who gets a message, per channel that is on: the customer's email and mobile, or the staff's. Marketing goes by email only. */
async function recipients(ctx: NotifyContext, t: Template, loaded: Loaded): Promise<Recipient[]> {
  const out: Recipient[] = [];
  if (t.audience === 'direct') {
    for (const r of loaded.to ?? []) {
      const address: Recipient = r.channel === 'kakao' ? { channel: 'kakao', to: mobileDigits(r.to) ?? r.to } : { channel: 'email', to: r.to.toLowerCase() };
      out.push(r.guestTrip ? { ...address, vars: guestLink(ctx, r.guestTrip) } : address);
    }
  } else if (t.audience === 'staff') {
    for (const to of await staffEmails(ctx)) out.push({ channel: 'email', to: to.toLowerCase() });
    for (const to of ctx.config.notifications.staffPhones) out.push({ channel: 'kakao', to });
  } else {
    const user = loaded.userId ? await liveCustomer(ctx.db, loaded.userId) : undefined;
    if (!user) return [];
    if (user.email) out.push({ channel: 'email', to: user.email.toLowerCase() });
    const mobile = mobileDigits(user.mobile);
    if (mobile && !t.marketing) out.push({ channel: 'kakao', to: mobile });
    for (const r of t.marketing ? [] : (loaded.copyTo ?? [])) {
      const to = mobileDigits(r.to);
      if (to) out.push({ channel: 'kakao', to, ...(r.guestTrip ? { vars: guestLink(ctx, r.guestTrip) } : {}) });
    }
  }
  const seen = new Set<string>();
  return out.filter((r) => ctx.channels[r.channel] && !seen.has(`${r.channel}:${r.to}`) && seen.add(`${r.channel}:${r.to}`));
}

/** Whether a marketing message may go to the user now (consent given, account live). */
async function consents(db: Db, userId: number | null): Promise<boolean> {
  if (!userId) return false;
  return Boolean((await liveCustomer(db, userId))?.marketingConsent);
}

/**
 * Until when a (광고) message to the user waits: 21:00–08:00 KST without the separate night-time
 * consent (정보통신망법 제50조③) it goes at 08:00; null to send now.
 */
async function adHold(db: Db, userId: number | null, now: Date): Promise<Date | null> {
  const user = userId ? await liveCustomer(db, userId) : undefined;
  return adHoldUntil(now, Boolean(user?.marketingNightConsent));
}

/**
 * The notify job: renders the event's template from current data, resolves its recipients and
 * writes one outbox row per channel and recipient, each with its send job, in one transaction.
 * The unique (key, channel, to) makes a second run of the same event write nothing new.
 */
async function renderEvent(ctx: NotifyContext, job: Job): Promise<JobOutcome> {
  const event = job.payload as unknown as NotificationEvent;
  const key = job.key.startsWith(`${NOTIFY_JOB}:`) ? job.key.slice(NOTIFY_JOB.length + 1) : job.key;
  const t = templateFor(event.type);
  if (!t) {
    ctx.log('error', `[notify] no template for ${event.type}: ${key} dropped`);
    return;
  }
  const now = ctx.clock.now();
  const result = await t.load(ctx.db, event, now);
  if ('deferUntil' in result) return { runAgainAt: result.deferUntil };
  if ('skip' in result) return;
  if (t.marketing && !(await consents(ctx.db, result.userId))) return;

  const filled = fillTemplate(t, result.vars, siteOrigin(ctx.config));
  const unsubscribe = t.marketing && result.userId ? unsubscribeUrl(ctx.config, result.userId) : undefined;
  const layout = { contactPhone: ctx.config.notifications.contactPhone, unsubscribeUrl: unsubscribe };
  const email = { text: emailText(filled, layout), html: await emailHtml(filled, layout) };
  const kakao = kakaoText(filled);
  const to = await recipients(ctx, t, result);
  if (!to.length) return;

  await inTransaction(ctx.db, async (tx) => {
    for (const r of to) {
      // A copy with its own values (the guest's link) is filled again for that recipient alone.
      const own = r.vars ? fillTemplate(t, { ...result.vars, ...r.vars }, siteOrigin(ctx.config)) : filled;
      const meta: MessageMeta = r.channel === 'email' ? { event, unsubscribeUrl: unsubscribe } : { event, kakao: { template: event.type, variables: own.vars } };
      const [row] = await tx
        .insert(notificationMessages)
        .values({
          key, event: event.type, channel: r.channel, to: r.to, userId: t.audience === 'customer' ? result.userId : null,
          subject: filled.subject, text: r.channel === 'email' ? email.text : r.vars ? kakaoText(own) : kakao, html: r.channel === 'email' ? email.html : null,
          meta: meta as Record<string, unknown>, createdAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: notificationMessages.id });
      if (row) await enqueue(tx, { kind: NOTIFY_SEND_JOB, key: `${NOTIFY_SEND_JOB}:${row.id}`, payload: { messageId: row.id }, runAt: now, maxAttempts: SEND_ATTEMPTS });
    }
  });
}

type MessageRow = typeof notificationMessages.$inferSelect;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Why a row should not go out any more (a recheck of its template), or null to send it. */
async function noLongerWanted(ctx: NotifyContext, row: MessageRow, now: Date): Promise<{ skip: string } | { deferUntil: Date } | null> {
  const event = (row.meta as MessageMeta).event;
  const t = event ? templateFor(event.type) : undefined;
  if (!event || !t) return null;
  if (t.marketing && !(await consents(ctx.db, row.userId))) return { skip: '마케팅 수신 동의가 철회되었습니다.' };
  const hold = t.marketing ? await adHold(ctx.db, row.userId, now) : null;
  if (hold) return { deferUntil: hold };
  if (!t.recheckAtSend) return null;
  const result = await t.load(ctx.db, event, now);
  return 'skip' in result || 'deferUntil' in result ? result : null;
}

const mine = (id: number) => and(eq(notificationMessages.id, id), eq(notificationMessages.status, 'PENDING'));

/**
 * The notify.send job: sends one PENDING row on its channel and marks it SENT. A row already SENT
 * (a second run, another worker) is left alone; a throw is retried with the queue's backoff and,
 * on the last try, leaves the row FAILED with its error. The job's lease keeps other workers off
 * the row while it sends.
 */
async function sendMessage(ctx: NotifyContext, job: Job): Promise<JobOutcome> {
  const id = Number(job.payload.messageId);
  const [row] = await ctx.db.select().from(notificationMessages).where(eq(notificationMessages.id, id));
  if (!row || row.status !== 'PENDING') return;
  const now = ctx.clock.now();
  const unwanted = await noLongerWanted(ctx, row, now);
  if (unwanted && 'deferUntil' in unwanted) return { runAgainAt: unwanted.deferUntil };
  if (unwanted) {
    await ctx.db.update(notificationMessages).set({ status: 'SKIPPED', lastError: unwanted.skip, updatedAt: rowTime() }).where(mine(id));
    return;
  }
  const channel = ctx.channels[row.channel as ChannelName];
  if (!channel) {
    await ctx.db.update(notificationMessages).set({ status: 'FAILED', lastError: `${row.channel} 채널이 설정되지 않았습니다.`, updatedAt: rowTime() }).where(mine(id));
    return;
  }
  await ctx.db.update(notificationMessages).set({ attempts: sql`${notificationMessages.attempts} + 1`, updatedAt: rowTime() }).where(mine(id));
  try {
    const sent = await withTimeout(channel.send({ id: row.id, channel: row.channel as ChannelName, to: row.to, subject: row.subject, text: row.text, html: row.html, meta: row.meta }), SEND_TIMEOUT_MS);
    await ctx.db
      .update(notificationMessages)
      .set({ status: 'SENT', provider: channel.provider, providerMessageId: sent.id?.slice(0, 200) ?? null, sentAt: ctx.clock.now(), lastError: null, updatedAt: rowTime() })
      .where(mine(id));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const last = job.attempts >= job.maxAttempts;
    await ctx.db
      .update(notificationMessages)
      .set({ lastError: message.slice(0, 2000), provider: channel.provider, ...(last ? { status: 'FAILED' as const } : {}), updatedAt: rowTime() })
      .where(mine(id));
    throw err;
  }
}

/** The notification jobs: render an event into outbox rows, and send a row. */
export function notificationJobHandlers(ctx: NotifyContext): Record<string, JobHandler> {
  return {
    [NOTIFY_JOB]: (job) => renderEvent(ctx, job),
    [NOTIFY_SEND_JOB]: (job) => sendMessage(ctx, job),
  };
}
