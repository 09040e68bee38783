import type { Db } from '../db/client';
import type { Clock } from './clock';
import { claimDue, fail, finish, type Job, type JobOutcome } from './queue';

/** Runs one job; throwing means "try again later" (backoff), returning `runAgainAt` schedules the next run. */
export type JobHandler = (job: Job) => Promise<JobOutcome>;

export interface RunOptions {
  db: Db;
  clock: Clock;
  handlers: Readonly<Record<string, JobHandler>>;
  /** This worker's name: replica id plus loop. */
  worker: string;
  /** Jobs running at once (provider calls overlap; the database sees at most this many at a time). */
  concurrency?: number;
  /** Only these kinds (default: every kind with a handler). */
  kinds?: readonly string[];
  leaseMs?: number;
  log?: (message: string, extra?: unknown) => void;
}

export interface RunReport {
  ran: number;
  retried: number;
  failed: number;
}

/**
 * Runs every job due now, claiming batches until none is left, at most `concurrency` at a time;
 * resolves when all have finished. Jobs that became due meanwhile (a handler enqueueing a message
 * due now) are taken by a further pass. Each claim runs a job once; handlers are idempotent
 * (deterministic payment ids, unique outbox keys), so a run repeated after a crash has no second effect.
 */
export async function runDueJobs(opts: RunOptions): Promise<RunReport> {
  const total: RunReport = { ran: 0, retried: 0, failed: 0 };
  // A bound on passes: a handler asking to run again "now" cannot keep this call going forever.
  for (let pass = 0; pass < 20; pass++) {
    const report = await runPass(opts);
    total.ran += report.ran;
    total.retried += report.retried;
    total.failed += report.failed;
    if (!report.ran && !report.retried && !report.failed) break;
  }
  return total;
}

/** One pass: claims and runs due jobs until a claim comes back empty. */
async function runPass(opts: RunOptions): Promise<RunReport> {
  const concurrency = Math.max(1, opts.concurrency ?? 16);
  const kinds = opts.kinds ?? Object.keys(opts.handlers);
  const report: RunReport = { ran: 0, retried: 0, failed: 0 };
  const pending: Job[] = [];
  let exhausted = false;
  let claiming: Promise<void> | null = null;

  const refill = async () => {
    const batch = await claimDue(opts.db, { now: opts.clock.now(), worker: opts.worker, limit: concurrency * 2, leaseMs: opts.leaseMs ?? 5 * 60_000, kinds });
    if (!batch.length) exhausted = true;
    pending.push(...batch);
  };
  const next = async (): Promise<Job | undefined> => {
    while (!pending.length && !exhausted) {
      claiming ??= refill().finally(() => (claiming = null));
      await claiming;
    }
    return pending.shift();
  };
  const runOne = async (job: Job) => {
    const handler = opts.handlers[job.kind];
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await finish(opts.db, job, opts.worker, await handler(job));
      report.ran++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const result = await fail(opts.db, job, opts.worker, message, opts.clock.now());
      report[result === 'failed' ? 'failed' : 'retried']++;
      opts.log?.(`job ${job.kind} ${job.key} ${result === 'failed' ? 'gave up' : 'will retry'}: ${message}`);
    }
  };
  const lane = async () => {
    for (let job = await next(); job; job = await next()) await runOne(job);
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return report;
}
