import { and, eq, isNull } from 'drizzle-orm';
import { marketingReminderAt, marketingReminderDay } from '../../domain/advertising';
import { inTransaction, type Db } from '../db/client';
import { users } from '../db/schema';
import { enqueue, type Job, type JobOutcome } from '../jobs/queue';
import { emit } from './events';

/**
 * The marketing consent's 2-yearly reminder (정보통신망법 제50조⑧, docs/decisions/legal.md §6):
 * giving the consent queues a job at 10:00 KST on the day 2 years on; the job tells the customer
 * (event marketing.consent_reminder, keyed by user and day: once) and queues the next, 2 years
 * later. A consent withdrawn or given again since makes the job end without a message (a new
 * consent queued its own).
 */
export const MARKETING_REMINDER_JOB = 'marketing.consent-reminder';

const reminderKey = (userId: number, day: string) => `${MARKETING_REMINDER_JOB}:${userId}:${day}`;

/** Queues the `n`-th reminder of the consent given at `consentAt` (idempotent per user and day). */
export async function scheduleMarketingReminder(tx: Db, userId: number, consentAt: Date, n = 1): Promise<void> {
  await enqueue(tx, {
    kind: MARKETING_REMINDER_JOB,
    key: reminderKey(userId, marketingReminderDay(consentAt, n)),
    payload: { userId, consentAt: consentAt.toISOString(), n },
    runAt: marketingReminderAt(consentAt, n),
  });
}

/** The job: the reminder's event once, and the next reminder queued, while the same consent stands. */
export async function marketingReminder(db: Db, job: Job, now: Date): Promise<JobOutcome> {
  const { userId, consentAt, n } = job.payload as { userId: number; consentAt: string; n: number };
  await inTransaction(db, async (tx) => {
    const [u] = await tx.select().from(users).where(and(eq(users.id, userId), isNull(users.deletedAt)));
    if (!u?.marketingConsent || u.marketingConsentAt?.toISOString() !== consentAt) return;
    const at = new Date(consentAt);
    await emit(tx, `marketing.consent_reminder:${userId}:${marketingReminderDay(at, n)}`, { type: 'marketing.consent_reminder', userId, consentAt, n }, now);
    await scheduleMarketingReminder(tx, userId, at, n + 1);
  });
}
