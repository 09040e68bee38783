/**
 * The job loop of one replica: runs due jobs every `intervalMs`, one run at a time (a run that takes
 * longer than the interval delays the next; runs never overlap), and stops by waiting for the run
 * in progress. Several replicas each run a loop; the queue's SKIP LOCKED claims keep them apart.
 */
export interface JobLoop {
  /** Runs now (after the run in progress, if any) and resolves when that run ends. */
  kick(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `retryMs` (default: 1 s, or the interval when shorter): the wait after a run that failed, e.g.
 * one a database fault stopped, so the claims it could not settle are settled soon after the
 * database is back rather than a whole interval later.
 */
export function startJobLoop(opts: { run: () => Promise<unknown>; intervalMs: number; retryMs?: number; onError?: (err: unknown) => void }): JobLoop {
  let stopped = false;
  let failed = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const runOnce = () => {
    current = current.then(async () => {
      if (stopped) return;
      try {
        await opts.run();
        failed = false;
      } catch (err) {
        failed = true;
        opts.onError?.(err);
      }
    });
    return current;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void runOnce().then(schedule), failed ? Math.min(opts.intervalMs, opts.retryMs ?? 1_000) : opts.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    kick: runOnce,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
