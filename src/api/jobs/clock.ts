/** The business clock: due charges, retries and reminders are read against it, never Date.now() directly. */
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
