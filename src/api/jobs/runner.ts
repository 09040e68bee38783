import { SpanKind } from '@opentelemetry/api';
import { withRequestId } from '../observability/request-context';
import { inSpan } from '../observability/tracing';
import { isConnectionFault } from '../db/errors';
import type { Db } from '../db/client';
import type { Clock } from './clock';
import { claimDue, fail, finish, JOB_HEARTBEAT_MS, JOB_LEASE_MS, release, releaseOrphans, renewLeases, type Job, type JobOutcome } from './queue';

/** Runs one job; throwing means "try again later" (backoff), returning `runAgainAt` schedules the next run. */
export type JobHandler = (job: Job) => Promise<JobOutcome>;

/**
 * What one worker (a replica's runner) remembers between runs: the jobs it is running, and the
 * claims it could not settle because the database failed (a handler's outcome not written, jobs
 * claimed and not started). The next run writes those first, before it claims anything, so a
 * database restart strands nothing until a lease runs out.
 */
export interface JobWorkerState {
  /** Claimed by this worker and not settled: running, or waiting in a pass's batch. */
  active: Set<number>;
  /** Outcomes to write once the database answers again, by job id. */
  unsettled: Map<number, Settlement>;
  /** Claims in flight (the orphan sweep waits for none). */
  claiming: number;
  /** Set while the orphan sweep runs (claims wait for it). */
  sweeping: Promise<unknown> | null;
}

type Settlement = { job: Job } & ({ kind: 'finish'; outcome: JobOutcome } | { kind: 'fail'; error: string; fault: boolean } | { kind: 'release' });

export const createWorkerState = (): JobWorkerState => ({ active: new Set(), unsettled: new Map(), claiming: 0, sweeping: null });

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
  /** How long a claim holds without renewal (default JOB_LEASE_MS), and how often a running pass renews its claims. */
  leaseMs?: number;
  heartbeatMs?: number;
  log?: (message: string, extra?: unknown) => void;
  /** One line per finished job (kind, outcome, milliseconds), under the id of the request that enqueued it. */
  logRun?: (fields: { job: string; kind: string; outcome: string; ms: number }) => void;
  /**
   * The worker's memory across runs (createJobRunner keeps one per process, its worker name unique):
   * with it a run first writes what a database fault left unsettled and gives back claims whose
   * answer was lost. Without it a run still releases what it claimed and did not start, when it can.
   */
  state?: JobWorkerState;
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
 *
 * A database fault (connection lost, server restarting or frozen) stops the run: no new job
 * starts, running ones finish, claimed ones not started are given back, and the run rejects with
 * the fault (a billing run answers 503). Whatever could not be written then is written by the next
 * run of the same worker (the job loop's next tick), so claimed work is released within seconds of
 * the database being back instead of when the lease runs out. While a pass runs it renews its
 * claims every heartbeat, so the lease (30 s) is only what a killed worker's jobs wait for.
 */
export async function runDueJobs(opts: RunOptions): Promise<RunReport> {
  const state = opts.state ?? createWorkerState();
  if (opts.state) await settle(opts, state, true);
  const total: RunReport = { ran: 0, retried: 0, failed: 0 };
  // A bound on passes: a handler asking to run again "now" cannot keep this call going forever.
  for (let pass = 0; pass < 20; pass++) {
    const report = await runPass(opts, state);
    total.ran += report.ran;
    total.retried += report.retried;
    total.failed += report.failed;
    if (!report.ran && !report.retried && !report.failed) break;
  }
  return total;
}

/** Writes the outcomes a fault left unsettled (each taken out first, so two runs never write one twice); throws while the database still fails. */
async function settle(opts: RunOptions, state: JobWorkerState, sweep: boolean): Promise<void> {
  for (const [id, s] of [...state.unsettled]) {
    state.unsettled.delete(id);
    try {
      if (s.kind === 'finish') await finish(opts.db, s.job, opts.worker, s.outcome);
      else if (s.kind === 'fail') await fail(opts.db, s.job, opts.worker, s.error, opts.clock.now(), { fault: s.fault });
      else await release(opts.db, [s.job], opts.worker);
      state.active.delete(id);
    } catch (err) {
      state.unsettled.set(id, s);
      throw err;
    }
  }
  // Claims whose rows never reached this worker: only while no claim of this worker is in flight (its rows would look orphaned).
  if (sweep && !state.claiming && !state.sweeping) {
    const sweeping = releaseOrphans(opts.db, opts.worker, [...state.active]);
    state.sweeping = sweeping;
    try {
      const released = await sweeping;
      if (released) opts.log?.(`gave back ${released} claimed job(s) whose claim a database fault interrupted`);
    } finally {
      state.sweeping = null;
    }
  }
}

/** One pass: claims and runs due jobs until a claim comes back empty, or a database fault stops it. */
async function runPass(opts: RunOptions, state: JobWorkerState): Promise<RunReport> {
  const concurrency = Math.max(1, opts.concurrency ?? 16);
  const kinds = opts.kinds ?? Object.keys(opts.handlers);
  const report: RunReport = { ran: 0, retried: 0, failed: 0 };
  const pending: Job[] = [];
  let exhausted = false;
  let fault: unknown = null;
  let claiming: Promise<void> | null = null;

  const stop = (err: unknown) => {
    fault ??= err;
    exhausted = true;
  };
  const refill = async () => {
    while (state.sweeping) await state.sweeping.catch(() => {});
    state.claiming++;
    try {
      const batch = await claimDue(opts.db, { now: opts.clock.now(), worker: opts.worker, limit: concurrency * 2, leaseMs: opts.leaseMs ?? JOB_LEASE_MS, kinds });
      for (const job of batch) state.active.add(job.id);
      if (!batch.length) exhausted = true;
      pending.push(...batch);
    } catch (err) {
      stop(err);
    } finally {
      state.claiming--;
    }
  };
  const next = async (): Promise<Job | undefined> => {
    while (!pending.length && !exhausted) {
      claiming ??= refill().finally(() => (claiming = null));
      await claiming;
    }
    return fault ? undefined : pending.shift();
  };
  /** Writes a settlement now; when the database fails, keeps it for the next run and stops this pass. */
  const record = async (s: Settlement, write: () => Promise<unknown>) => {
    try {
      await write();
      state.active.delete(s.job.id);
    } catch (err) {
      state.unsettled.set(s.job.id, s);
      stop(err);
    }
  };
  // A job runs under the id of the request that enqueued it, so its log lines, calls and span name that request.
  const runOne = (job: Job) =>
    withRequestId(job.requestId ?? `job-${job.id}`, () =>
      inSpan(`job ${job.kind}`, { 'luxe.job.id': job.id, 'luxe.job.kind': job.kind, 'luxe.job.attempt': job.attempts, ...(job.requestId ? { 'luxe.request_id': job.requestId } : {}) }, () => runJob(job), SpanKind.CONSUMER),
    );
  const runJob = async (job: Job) => {
    const started = performance.now();
    const logRun = (outcome: string) => opts.logRun?.({ job: job.key, kind: job.kind, outcome, ms: Math.round(performance.now() - started) });
    const handler = opts.handlers[job.kind];
    let outcome: JobOutcome;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      outcome = await handler(job);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const isFault = isConnectionFault(err);
      let result = 'retry' as 'retry' | 'failed';
      await record({ job, kind: 'fail', error: message, fault: isFault }, async () => {
        result = await fail(opts.db, job, opts.worker, message, opts.clock.now(), { fault: isFault });
      });
      report[result === 'failed' ? 'failed' : 'retried']++;
      opts.log?.(`job ${job.kind} ${job.key} ${result === 'failed' ? 'gave up' : isFault ? 'will run again when the database answers' : 'will retry'}: ${message}`);
      logRun(result);
      if (isFault) stop(err);
      return;
    }
    await record({ job, kind: 'finish', outcome }, () => finish(opts.db, job, opts.worker, outcome));
    report.ran++;
    logRun('done');
  };
  const lane = async () => {
    for (let job = await next(); job; job = await next()) await runOne(job);
  };
  // The heartbeat: claims held (running or waiting in the batch) are renewed while the pass runs; a failed renewal waits for the next beat.
  const heartbeat = setInterval(() => void renewLeases(opts.db, opts.worker, [...state.active], opts.leaseMs ?? JOB_LEASE_MS).catch(() => {}), opts.heartbeatMs ?? JOB_HEARTBEAT_MS);
  heartbeat.unref();
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
  } finally {
    clearInterval(heartbeat);
  }
  if (!fault) return report;
  // Stopped by a fault: give back the claimed jobs no lane started (now if the database answers, else on the next run).
  const unstarted = pending.splice(0);
  for (const job of unstarted) state.unsettled.set(job.id, { job, kind: 'release' });
  await settle(opts, state, false).catch(() => {});
  opts.log?.(`run stopped by a database fault; ${state.unsettled.size} claimed job(s) to settle on the next run`);
  throw fault instanceof Error ? fault : new Error('the database failed during a job run', { cause: fault });
}
