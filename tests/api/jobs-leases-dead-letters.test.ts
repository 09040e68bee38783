import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, jobs } from '../../src/api/db/schema';
import { createClock, wallMs } from '../../src/api/jobs/clock';
import { claimDue, enqueue, JOB_LEASE_MS } from '../../src/api/jobs/queue';
import { runDueJobs } from '../../src/api/jobs/runner';
import { apiTools, createTestContext, customer, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await ctx.database.db.delete(jobs);
});

const jobRow = async (key: string) => (await ctx.database.db.select().from(jobs).where(eq(jobs.key, key)))[0];
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('leases a killed replica gives up within 30 s', () => {
  it('a claim holds JOB_LEASE_MS (30 s) of wall time, so a dead worker’s job waits no longer', async () => {
    expect(JOB_LEASE_MS).toBeLessThanOrEqual(30_000);
    const db = ctx.database.db;
    const clock = createClock();
    await enqueue(db, { kind: 'k', key: 'lease', runAt: clock.now() });
    let heldFor = 0;
    await runDueJobs({
      db, clock, worker: 'w',
      handlers: { k: async () => void (heldFor = (await jobRow('lease')).lockedUntil!.getTime() - wallMs()) },
    });
    expect(heldFor).toBeGreaterThan(0);
    expect(heldFor).toBeLessThanOrEqual(30_000);
  });

  it('a live worker renews its claim, so a job longer than the lease is never taken over', async () => {
    const db = ctx.database.db;
    const clock = createClock();
    await enqueue(db, { kind: 'slow', key: 'slow', runAt: clock.now() });
    const takenByOther: number[] = [];
    let runs = 0;
    const handlers = {
      slow: async () => {
        runs++;
        // Four lease lengths: without renewal the other worker would take the job here.
        for (let i = 0; i < 4; i++) {
          await pause(250);
          takenByOther.push((await claimDue(db, { now: clock.now(), worker: 'other', limit: 5, leaseMs: 200 })).length);
        }
      },
    };
    await runDueJobs({ db, clock, handlers, worker: 'alive', leaseMs: 200, heartbeatMs: 50 });
    expect(takenByOther).toEqual([0, 0, 0, 0]);
    expect(runs).toBe(1);
    expect(await jobRow('slow')).toMatchObject({ status: 'done', lockedBy: null });
  });
});

describe('the dead-letter list staff see and retry', () => {
  const { admin: staff } = apiTools(() => ctx);

  async function deadLetter() {
    const db = ctx.database.db;
    const clock = createClock();
    await enqueue(db, { kind: 'flaky', key: 'flaky:1', runAt: clock.now(), maxAttempts: 1 });
    await runDueJobs({ db, clock, worker: 'w', handlers: { flaky: () => Promise.reject(new Error('provider said no')) } });
    return jobRow('flaky:1');
  }

  it('lists a job that used its attempts, with its error, beside the queue by kind', async () => {
    const job = await deadLetter();
    expect(job.status).toBe('failed');
    const res = await staff('GET', '/admin/jobs');
    expect(res.status).toBe(200);
    expect(res.body.data.failed).toEqual([expect.objectContaining({ id: job.id, kind: 'flaky', key: 'flaky:1', attempts: 1, last_error: 'provider said no' })]);
    expect(res.body.data.kinds).toEqual([expect.objectContaining({ kind: 'flaky', failed: 1, due: 0, running: 0 })]);
  });

  it('다시 실행 queues it due now with its attempts started over, audited, once; then it runs', async () => {
    const job = await deadLetter();
    const retried = await staff('POST', `/admin/jobs/${job.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data.job).toMatchObject({ id: job.id, status: 'queued' });
    expect(await jobRow('flaky:1')).toMatchObject({ status: 'queued', attempts: 0 });
    const again = await staff('POST', `/admin/jobs/${job.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('실패한 작업만 다시 실행할 수 있습니다');
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'job'));
    expect(audits.map((a) => [a.action, a.entityId])).toEqual([['retry', String(job.id)]]);
    let ran = 0;
    await runDueJobs({ db: ctx.database.db, clock: createClock(), worker: 'w', handlers: { flaky: () => Promise.resolve(void ran++) } });
    expect([ran, (await jobRow('flaky:1')).status]).toEqual([1, 'done']);
    expect((await staff('GET', '/admin/jobs')).body.data.failed).toEqual([]);
  });

  it('a customer and a stranger without a token are refused, and nothing is retried', async () => {
    const job = await deadLetter();
    const { token } = await customer(ctx);
    for (const who of [token, undefined]) {
      expect((await ctx.call('GET', '/admin/jobs', { token: who })).status).toBe(403);
      expect((await ctx.call('POST', `/admin/jobs/${job.id}/retry`, { token: who })).status).toBe(403);
    }
    expect((await jobRow('flaky:1')).status).toBe('failed');
    expect((await staff('POST', '/admin/jobs/abc/retry')).status).toBe(400);
  });
});
