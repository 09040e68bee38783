import { addDays, addMonths, koreaDate, koreaInstant, koreaTime } from './dates';

/**
 * Advertising (광고성 정보) rules of 정보통신망법 제50조 (docs/decisions/legal.md §6):
 * no (광고) message between 21:00 and 08:00 in Korea without the recipient's separate
 * night-time consent (제50조③), and every 2 years from the consent a reminder that it is
 * still given (제50조⑧, 시행령 제62조의3).
 */

/** The night window, Korean wall-clock: from 21:00 up to (not including) 08:00. */
const AD_NIGHT_START = '21:00';
const AD_NIGHT_END = '08:00';

/** Whether an instant falls in the night window in Korea. */
export function inAdNight(at: Date): boolean {
  const t = koreaTime(at);
  return t >= AD_NIGHT_START || t < AD_NIGHT_END;
}

/**
 * When a (광고) message may go out: null when now (daytime, or night with the night-time consent),
 * else the next 08:00 in Korea.
 */
export function adHoldUntil(now: Date, nightConsent: boolean): Date | null {
  if (nightConsent || !inAdNight(now)) return null;
  const day = koreaDate(now);
  const morning = koreaTime(now) < AD_NIGHT_END ? day : addDays(day, 1);
  return koreaInstant(morning, AD_NIGHT_END)!;
}

/** Every how many months the consenting customer is reminded of the marketing consent. */
const MARKETING_REMINDER_MONTHS = 24;
/** The wall-clock time the reminder goes on its day (daytime, inside 08:00–21:00). */
const MARKETING_REMINDER_TIME = '10:00';

/** The Korean day of the `n`-th reminder (n ≥ 1) of a consent given at `consentAt`. */
export function marketingReminderDay(consentAt: Date, n: number): string {
  return addMonths(koreaDate(consentAt), MARKETING_REMINDER_MONTHS * n);
}

/** The instant of the `n`-th reminder of a consent given at `consentAt` (10:00 in Korea on its day). */
export function marketingReminderAt(consentAt: Date, n: number): Date {
  return koreaInstant(marketingReminderDay(consentAt, n), MARKETING_REMINDER_TIME)!;
}
