import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import { currentRequestId } from '../observability/request-context';
import { rowTime, wallMs } from './clock';

export type Job = typeof jobs.$inferSelect;

export interface JobSpec {
  kind: string;
  /** One job per effect, e.g. `charge:subscription:12:month:3`; a key that exists is not enqueued again. */
  key: string;
  payload?: Record<string, unknown>;
  /** Due time on the business clock. */
  runAt: Date;
  maxAttempts?: number;
}

/** Array.isArray() does not narrow a readonly array: this does. */
const isList = (specs: JobSpec | readonly JobSpec[]): specs is readonly JobSpec[] => Array.isArray(specs);

/**
 * Enqueues jobs inside the caller's transaction (the outbox pattern: a job exists exactly when
 * the event that causes it committed), several in one statement. Returns false when every key
 * already existed.
 */
export async function enqueue(tx: Db, specs: JobSpec | readonly JobSpec[]): Promise<boolean> {
  const list = isList(specs) ? specs : [specs];
  if (!list.length) return false;
  const requestId = currentRequestId() ?? null;
  const rows = await tx
    .insert(jobs)
    .values(list.map((spec) => ({ kind: spec.kind, key: spec.key, payload: spec.payload ?? {}, runAt: spec.runAt, maxAttempts: spec.maxAttempts ?? 5, requestId })))
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Moves a queued job (by key) to another due time, e.g. a reminder after its trip moved; false when none is queued. */
export async function rescheduleQueued(tx: Db, key: string, runAt: Date): Promise<boolean> {
  const rows = await tx
    .update(jobs)
    .set({ runAt, updatedAt: rowTime() })
    .where(and(eq(jobs.key, key), eq(jobs.status, 'queued')))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** Drops queued jobs by key (a cancelled subscription's future charges); a running one finishes and sees the new state. */
export async function cancelQueued(tx: Db, keys: string[]): Promise<number> {
  if (!keys.length) return 0;
  const rows = await tx
    .delete(jobs)
    .where(and(inArray(jobs.key, keys), eq(jobs.status, 'queued')))
    .returning({ id: jobs.id });
  return rows.length;
}

/**
 * How long a claim holds without news from its worker (wall time): a replica killed mid-job has its
 * jobs taken over by another within this. A live worker renews its claims every JOB_HEARTBEAT_MS,
 * so a job may run longer than the lease.
 */
export const JOB_LEASE_MS = 30_000;
export const JOB_HEARTBEAT_MS = 10_000;

/** Renews this worker's claims on `ids` for another `leaseMs` (a claim it lost stays lost). */
export async function renewLeases(db: Db, worker: string, ids: readonly number[], leaseMs: number): Promise<void> {
  if (!ids.length) return;
  const wall = wallMs();
  await db
    .update(jobs)
    .set({ lockedUntil: new Date(wall + leaseMs), updatedAt: new Date(wall) })
    .where(and(inArray(jobs.id, [...ids]), eq(jobs.status, 'running'), eq(jobs.lockedBy, worker)));
}

/** The queue by kind at `now` (business time): what the metrics endpoint and the console's 작업 tab both show. */
export async function jobQueueSummary(db: Db, now: Date) {
  const nowIso = now.toISOString();
  const rows = rowsOf(
    await db.execute(sql`
      select kind,
        count(*) filter (where status = 'queued' and run_at <= ${nowIso}) as due,
        count(*) filter (where status = 'queued' and run_at > ${nowIso}) as scheduled,
        count(*) filter (where status = 'running') as running,
        count(*) filter (where status = 'failed') as failed,
        extract(epoch from (${nowIso}::timestamptz - min(run_at) filter (where status = 'queued' and run_at <= ${nowIso}))) as oldest
      from jobs group by kind order by kind`),
  );
  const n = (v: unknown) => Number(v ?? 0);
  return rows.map((r) => ({ kind: String(r.kind), due: n(r.due), scheduled: n(r.scheduled), running: n(r.running), failed: n(r.failed), oldestDueSeconds: Math.max(0, n(r.oldest)) }));
}

/**
 * Staff's dead-letter list: jobs that used every attempt (status failed), newest first. A retry puts
 * one back in the queue, due now, with its attempts started over; a job in any other state is left alone.
 */
export async function failedJobs(db: Db, limit: number): Promise<Job[]> {
  return db.select().from(jobs).where(eq(jobs.status, 'failed')).orderBy(desc(jobs.finishedAt), desc(jobs.id)).limit(limit);
}

export async function retryFailedJob(db: Db, id: number, now: Date): Promise<Job | null> {
  const [row] = await db
    .update(jobs)
    .set({ status: 'queued', attempts: 0, runAt: now, finishedAt: null, lockedBy: null, lockedUntil: null, updatedAt: rowTime() })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'failed')))
    .returning();
  return row ?? null;
}

export interface ClaimOptions {
  /** Business time: queued jobs due by then are taken. */
  now: Date;
  /** This worker's name (replica and loop). */
  worker: string;
  limit: number;
  /** How long a claim holds (wall time) before another worker may take the job as crashed. */
  leaseMs: number;
  kinds?: readonly string[];
}

/**
 * Claims up to `limit` due jobs for this worker: queued ones due by `now`, and running ones whose
 * lease ran out (their worker died). FOR UPDATE SKIP LOCKED makes concurrent claimers, on any
 * number of replicas, take disjoint rows.
 */
export async function claimDue(db: Db, opts: ClaimOptions): Promise<Job[]> {
  // Leases are wall time: a lease must run out when the worker died, whatever the business clock reads.
  const wall = new Date(wallMs());
  const leaseEnd = new Date(wall.getTime() + opts.leaseMs);
  const kinds = opts.kinds?.length ? sql`and kind in (${sql.join(opts.kinds.map((k) => sql`${k}`), sql`, `)})` : sql``;
  const result = await db.execute(sql`
    update jobs set status = 'running', attempts = attempts + 1, locked_by = ${opts.worker},
      locked_until = ${leaseEnd.toISOString()}, updated_at = ${wall.toISOString()}
    where id in (
      select id from jobs
      where ((status = 'queued' and run_at <= ${opts.now.toISOString()})
          or (status = 'running' and locked_until < ${wall.toISOString()}))
        ${kinds}
      order by run_at, id
      limit ${opts.limit}
      for update skip locked)
    returning id`);
  const ids = rowsOf(result).map((r) => Number(r.id));
  if (!ids.length) return [];
  return db.select().from(jobs).where(inArray(jobs.id, ids)).orderBy(jobs.runAt, jobs.id);
}

/** What a handler asks for after a run that did not throw. */
export type JobOutcome = void | { runAgainAt: Date };

/** Ends this worker's claim: done, or queued again at `runAgainAt` (attempts start over). A lost lease changes nothing. */
export async function finish(db: Db, job: Job, worker: string, outcome: JobOutcome): Promise<void> {
  const mine = and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.lockedBy, worker));
  const released = { lockedBy: null, lockedUntil: null, lastError: null, updatedAt: rowTime() };
  if (outcome && 'runAgainAt' in outcome) await db.update(jobs).set({ ...released, status: 'queued', runAt: outcome.runAgainAt, attempts: 0 }).where(mine);
  else await db.update(jobs).set({ ...released, status: 'done', finishedAt: rowTime() }).where(mine);
}

/**
 * A run that threw: queued again after a backoff, or failed once it used its attempts. A run
 * the database broke (`fault`: a connection lost, the server restarting) is the database's
 * fault, not the job's: queued again due at once, the attempt not counted (a monthly charge
 * must not use up its attempts in an outage).
 */
export async function fail(db: Db, job: Job, worker: string, error: string, now: Date, opts: { fault?: boolean } = {}): Promise<'retry' | 'failed'> {
  const mine = and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.lockedBy, worker));
  const released = { lockedBy: null, lockedUntil: null, lastError: error.slice(0, 2000), updatedAt: rowTime() };
  if (opts.fault) {
    await db.update(jobs).set({ ...released, status: 'queued', runAt: now, attempts: Math.max(0, job.attempts - 1) }).where(mine);
    return 'retry';
  }
  if (job.attempts >= job.maxAttempts) {
    await db.update(jobs).set({ ...released, status: 'failed', finishedAt: rowTime() }).where(mine);
    return 'failed';
  }
  await db.update(jobs).set({ ...released, status: 'queued', runAt: new Date(now.getTime() + backoffMs(job.attempts)) }).where(mine);
  return 'retry';
}

/** Gives back claimed jobs this worker did not start: queued again as they were (the claim's attempt not counted). */
export async function release(db: Db, claimed: readonly Job[], worker: string): Promise<void> {
  if (!claimed.length) return;
  await db
    .update(jobs)
    .set({ status: 'queued', lockedBy: null, lockedUntil: null, attempts: sql`greatest(${jobs.attempts} - 1, 0)`, updatedAt: rowTime() })
    .where(and(inArray(jobs.id, claimed.map((j) => j.id)), eq(jobs.status, 'running'), eq(jobs.lockedBy, worker)));
}

/**
 * Gives back every job leased to `worker` except the ones it is running (`running`): claims whose
 * answer a fault lost (the UPDATE committed, the connection broke before its rows arrived) would
 * otherwise wait for their lease. Only for a worker name no other process uses.
 */
export async function releaseOrphans(db: Db, worker: string, running: readonly number[]): Promise<number> {
  const keep = running.length ? sql`and id not in (${sql.join(running.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const result = await db.execute(sql`
    update jobs set status = 'queued', locked_by = null, locked_until = null, attempts = greatest(attempts - 1, 0), updated_at = ${rowTime().toISOString()}
    where status = 'running' and locked_by = ${worker} ${keep}
    returning id`);
  return rowsOf(result).length;
}

/** What is still to do after a run: jobs some worker holds, jobs due and not run, and jobs waiting for a retry. */
export interface PendingJobs {
  running: number;
  due: number;
  retrying: number;
}

export async function pendingJobs(db: Db, now: Date, kinds?: readonly string[]): Promise<PendingJobs> {
  const only = kinds?.length ? sql`and kind in (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})` : sql``;
  const [row] = rowsOf(
    await db.execute(sql`
      select count(*) filter (where status = 'running') as running,
        count(*) filter (where status = 'queued' and run_at <= ${now.toISOString()}) as due,
        count(*) filter (where status = 'queued' and run_at > ${now.toISOString()} and attempts > 0) as retrying
      from jobs where status in ('queued', 'running') ${only}`),
  );
  return { running: Number(row?.running ?? 0), due: Number(row?.due ?? 0), retrying: Number(row?.retrying ?? 0) };
}

/** 30 s, 2 min, 8 min, 32 min … capped at 6 h: a provider that is down gets time to come back. */
function backoffMs(attempts: number): number {
  return Math.min(30_000 * 4 ** Math.max(0, attempts - 1), 6 * 3600_000);
}

/** Rows of a raw query on either driver (node-postgres answers { rows }, PGlite too). */
function rowsOf(result: unknown): Record<string, unknown>[] {
  const r = result as { rows?: Record<string, unknown>[] } | Record<string, unknown>[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}
