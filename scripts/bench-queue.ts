/**
 * The job queue against pg-boss 12 on the same PostgreSQL (issue 51's re-decision): N jobs enqueued
 * in batches, then drained by one worker running `--concurrency` at a time, each job waiting
 * `--latency-ms` (a provider call) and writing one row (its effect). Reports enqueue and drain time,
 * jobs per second and how many effects were written twice.
 *
 *   npx tsx scripts/bench-queue.ts [--jobs 20000] [--concurrency 64] [--latency-ms 50] [--server postgres://…]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/api/db/client';
import { enqueue, type JobSpec } from '../src/api/jobs/queue';
import { runDueJobs } from '../src/api/jobs/runner';
import { createClock } from '../src/api/jobs/clock';
import { withScratchDatabase } from './scratch-database';

const { values: args } = parseArgs({
  options: {
    jobs: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    'latency-ms': { type: 'string', default: '50' },
    server: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
  },
});
const N = Number(args.jobs);
const CONCURRENCY = Number(args.concurrency);
const LATENCY = Number(args['latency-ms']);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const scratch = <T>(work: (url: string) => Promise<T>) => withScratchDatabase(args.server, work, 'queue');

interface Figures {
  queue: string;
  enqueueSeconds: number;
  drainSeconds: number;
  jobsPerSecond: number;
  duplicates: number;
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

async function ours(url: string): Promise<Figures> {
  const database = await openDatabase({ url });
  const { db } = database;
  try {
    await db.execute(sql`create table bench_effects (n int not null)`);
    const clock = createClock();
    const started = performance.now();
    for (let i = 0; i < N; i += 1000) {
      const batch: JobSpec[] = Array.from({ length: Math.min(1000, N - i) }, (_, k) => ({ kind: 'bench', key: `bench:${i + k}`, payload: { n: i + k }, runAt: clock.now() }));
      await enqueue(db, batch);
    }
    const enqueued = seconds(started);
    const draining = performance.now();
    const handlers = {
      bench: async (job: { payload: Record<string, unknown> }) => {
        await wait(LATENCY);
        await db.execute(sql`insert into bench_effects (n) values (${Number(job.payload.n)})`);
      },
    };
    while ((await runDueJobs({ db, clock, handlers, worker: 'bench', concurrency: CONCURRENCY })).ran > 0);
    const drained = seconds(draining);
    const counted: unknown = await db.execute(sql`select count(*) - count(distinct n) as dup, count(*) as n from bench_effects`);
    const [row] = (counted as { rows: { dup: string; n: string }[] }).rows;
    if (Number(row.n) < N) throw new Error(`only ${row.n} of ${N} jobs ran`);
    return { queue: 'jobs table (ours)', enqueueSeconds: enqueued, drainSeconds: drained, jobsPerSecond: Math.round(N / drained), duplicates: Number(row.dup) };
  } finally {
    await database.close();
  }
}

async function pgBoss(url: string): Promise<Figures> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // The scratch database is dropped WITH (FORCE) at the end: its idle connections are cut.
  pool.on('error', () => {});
  await pool.query('create table bench_effects (n int not null)');
  const boss = new PgBoss({ connectionString: url, max: 10 });
  boss.on('error', (err) => console.error('[pg-boss]', err));
  await boss.start();
  try {
    await boss.createQueue('bench');
    const started = performance.now();
    for (let i = 0; i < N; i += 1000) {
      await boss.insert('bench', Array.from({ length: Math.min(1000, N - i) }, (_, k) => ({ data: { n: i + k }, singletonKey: `bench:${i + k}` })));
    }
    const enqueued = seconds(started);
    const draining = performance.now();
    let done = 0;
    const finished = new Promise<void>((resolve) => {
      void boss.work<{ n: number }>('bench', { batchSize: CONCURRENCY, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true }, async (jobs) => {
        await Promise.all(
          jobs.map(async (job) => {
            await wait(LATENCY);
            await pool.query('insert into bench_effects (n) values ($1)', [job.data.n]);
          }),
        );
        done += jobs.length;
        if (done >= N) resolve();
      });
    });
    await finished;
    const drained = seconds(draining);
    const { rows } = await pool.query<{ dup: string }>('select count(*) - count(distinct n) as dup from bench_effects');
    return { queue: 'pg-boss 12.38', enqueueSeconds: enqueued, drainSeconds: drained, jobsPerSecond: Math.round(N / drained), duplicates: Number(rows[0].dup) };
  } finally {
    await boss.stop({ graceful: false, close: true });
    await pool.end();
  }
}

console.log(`${N} jobs, ${CONCURRENCY} at a time, ${LATENCY} ms each`);
const results = [await scratch(ours)];
console.table(results);
results.push(await scratch(pgBoss));
console.table(results);
