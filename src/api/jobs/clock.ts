/**
 * The clocks of the API. Business time (what is due, today's date, a coupon's validity, a booking's
 * refund window) is read from the business clock, `deps.clock`, which tests move. Two other readings
 * are wall time on purpose: when a row was written (`rowTime`: updatedAt and the like, bookkeeping
 * that no rule reads) and infrastructure timing (`wallMs`: caches, locks, token and session
 * lifetimes, latencies), which must not jump when a test moves the business clock. ESLint refuses
 * `new Date()` and `Date.now()` anywhere else in src/api and src/domain (eslint/clock-rule.js).
 */
export interface Clock {
  now(): Date;
}

/** A clock tests can move: it ticks with real time from the instant it was set to. */
export interface SettableClock extends Clock {
  /** From now on the clock reads `at` plus the real time passed since. */
  set(at: Date): void;
  /** Back to real time. */
  reset(): void;
}

export function createClock(): SettableClock {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    set: (at) => {
      offsetMs = at.getTime() - Date.now();
    },
    reset: () => {
      offsetMs = 0;
    },
  };
}

/** When a row is written (updatedAt, modifiedAt, a lock file's `since`): bookkeeping, never a business rule. */
export const rowTime = (): Date => new Date();

/** Milliseconds of wall time, for infrastructure only: cache ages, locks, token lifetimes, latencies. */
export const wallMs = (): number => Date.now();
