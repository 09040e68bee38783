import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobs } from '../../src/api/db/schema';
import { createClock } from '../../src/api/jobs/clock';
import { startJobLoop } from '../../src/host/job-loop';
import { claimDue, enqueue } from '../../src/api/jobs/queue';
import { runDueJobs, type JobHandler } from '../../src/api/jobs/runner';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await ctx.database.db.delete(jobs);
});

const at = (iso: string) => new Date(iso);
const jobRow = async (key: string) => (await ctx.database.db.select().from(jobs).where(eq(jobs.key, key)))[0];

describe('the job queue', () => {
  it('enqueues a key once', async () => {
    const db = ctx.database.db;
    expect(await enqueue(db, { kind: 'k', key: 'once', runAt: at('2030-01-01T00:00:00Z') })).toBe(true);
    expect(await enqueue(db, { kind: 'k', key: 'once', runAt: at('2031-01-01T00:00:00Z'), payload: { other: true } })).toBe(false);
    const row = await jobRow('once');
    expect(row.runAt.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(row.payload).toEqual({});
  });

  it('runs only what is due on the business clock, and what a moved clock makes due', async () => {
    const db = ctx.database.db;
    const clock = createClock();
    clock.set(at('2030-03-01T00:00:00Z'));
    await enqueue(db, { kind: 'k', key: 'due', runAt: at('2030-02-28T00:00:00Z') });
    await enqueue(db, { kind: 'k', key: 'later', runAt: at('2030-03-31T00:00:00Z') });
    const seen: string[] = [];
    const handlers = { k: ((job) => (seen.push(job.key), Promise.resolve())) satisfies JobHandler };
    expect(await runDueJobs({ db, clock, handlers, worker: 'w' })).toEqual({ ran: 1, retried: 0, failed: 0 });
    expect(seen).toEqual(['due']);
    expect((await jobRow('due')).status).toBe('done');
    clock.set(at('2030-04-01T00:00:00Z'));
    await runDueJobs({ db, clock, handlers, worker: 'w' });
    expect(seen).toEqual(['due', 'later']);
  });

  it('retries a throwing handler with backoff, then gives up after max attempts', async () => {
    const db = ctx.database.db;
    const clock = createClock();
    clock.set(at('2030-01-01T00:00:00Z'));
    await enqueue(db, { kind: 'flaky', key: 'flaky', runAt: at('2030-01-01T00:00:00Z'), maxAttempts: 3 });
    let calls = 0;
    const handlers = { flaky: () => (calls++, Promise.reject(new Error('provider down'))) };
    expect(await runDueJobs({ db, clock, handlers, worker: 'w' })).toMatchObject({ retried: 1 });
    let row = await jobRow('flaky');
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'provider down' });
    expect(row.runAt.getTime()).toBeGreaterThan(clock.now().getTime());
    clock.set(at('2030-01-02T00:00:00Z'));
    await runDueJobs({ db, clock, handlers, worker: 'w' });
    clock.set(at('2030-01-03T00:00:00Z'));
    expect(await runDueJobs({ db, clock, handlers, worker: 'w' })).toMatchObject({ failed: 1 });
    row = await jobRow('flaky');
    expect(row.status).toBe('failed');
    expect(calls).toBe(3);
  });

  it('schedules the next run when a handler asks (attempts start over)', async () => {
    const db = ctx.database.db;
    const clock = createClock();
    clock.set(at('2030-01-01T00:00:00Z'));
    await enqueue(db, { kind: 'again', key: 'again', runAt: at('2030-01-01T00:00:00Z') });
    const handlers = { again: () => Promise.resolve({ runAgainAt: at('2030-01-08T00:00:00Z') }) };
    await runDueJobs({ db, clock, handlers, worker: 'w' });
    expect(await jobRow('again')).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await jobRow('again')).runAt.toISOString()).toBe('2030-01-08T00:00:00.000Z');
  });

  it('takes over a job whose worker died (lease ran out), and not before', async () => {
    const db = ctx.database.db;
    const now = new Date();
    await enqueue(db, { kind: 'k', key: 'crashed', runAt: now });
    const [taken] = await claimDue(db, { now, worker: 'dead', limit: 1, leaseMs: 60_000 });
    expect(taken.key).toBe('crashed');
    expect(await claimDue(db, { now, worker: 'other', limit: 5, leaseMs: 60_000 })).toEqual([]);
    await db.update(jobs).set({ lockedUntil: new Date(Date.now() - 1000) }).where(eq(jobs.key, 'crashed'));
    const [again] = await claimDue(db, { now, worker: 'other', limit: 5, leaseMs: 60_000 });
    expect(again).toMatchObject({ key: 'crashed', lockedBy: 'other', attempts: 2 });
  });

  it('two replicas running at once claim every job exactly once', async () => {
    const db = ctx.database.db;
    const replica = await ctx.openReplica();
    try {
      const clock = createClock();
      const now = new Date();
      for (let i = 0; i < 200; i++) await enqueue(db, { kind: 'count', key: `job-${i}`, runAt: now });
      const runs = new Map<string, number>();
      const handlers = {
        count: async (job: { key: string }) => {
          runs.set(job.key, (runs.get(job.key) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 2));
        },
      };
      const reports = await Promise.all(
        Array.from({ length: 20 }, (_, i) => runDueJobs({ db: i % 2 ? replica.db : db, clock, handlers, worker: `replica-${i % 2}-run-${i}`, concurrency: 4 })),
      );
      expect(reports.reduce((sum, r) => sum + r.ran, 0)).toBe(200);
      expect(runs.size).toBe(200);
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await replica.close();
    }
  });

  it('the loop runs due jobs on its own and stops after the run in progress', async () => {
    const db = ctx.database.db;
    const clock = createClock();
    await enqueue(db, { kind: 'k', key: 'looped', runAt: new Date() });
    const seen: string[] = [];
    const loop = startJobLoop({ intervalMs: 20, run: () => runDueJobs({ db, clock, handlers: { k: (job) => (seen.push(job.key), Promise.resolve()) }, worker: 'loop' }) });
    await expect.poll(() => seen.length).toBe(1);
    await loop.stop();
    expect((await jobRow('looped')).status).toBe('done');
  });
});
