import { sql } from 'drizzle-orm';
import { apiLogger } from '../src/api/app';
import { openDatabase, type Database } from '../src/api/db/client';
import { insertTestCar } from '../src/api/seed/factories';
import { testConfig } from '../src/api/env';
import { createClock } from '../src/api/jobs/clock';
import { runDueJobs } from '../src/api/jobs/runner';
import { BILLING_JOB_KINDS, createPaymentProvider } from '../src/api/billing/providers';
import { jobHandlers } from '../src/api/job-handlers';
import { insertConfirmedSubscriptions } from './bench-subscriptions';

export interface BillingFigures {
  database: 'pglite' | 'postgres';
  subscriptions: number;
  concurrency: number;
  providerLatencyMs: number;
  seconds: number;
  chargesPerSecond: number;
  paid: number;
  /** Payment ids charged more than once at the provider, and subscriptions charged more than once for the month: both must be 0. */
  duplicatePaymentIds: number;
  doublyChargedSubscriptions: number;
}

/**
 * The monthly billing run at scale: `count` subscriptions whose month 2 is due now, billed through
 * the sandbox provider with `latencyMs` on every charge, `concurrency` charges at a time, by the
 * same job runner as `npm start`. Seeded with plain SQL in batches (the bench measures the run).
 */
export async function billingBench(opts: { count: number; concurrency: number; latencyMs: number; url?: string }): Promise<BillingFigures> {
  const database: Database = await openDatabase(opts.url ? { url: opts.url } : { dataDir: 'memory://' });
  const config = testConfig({ payments: { ...testConfig().payments, sandboxLatencyMs: opts.latencyMs } });
  const { db } = database;
  const { car } = await insertTestCar(db, { fees: { subscription_fee_12: 555_000 } });
  const now = new Date();
  const start = new Date(now.getTime() - 40 * 86_400_000).toISOString().slice(0, 10);
  const batch = 5_000;
  for (let from = 1; from <= opts.count; from += batch) {
    const n = Math.min(batch, opts.count - from + 1);
    await insertConfirmedSubscriptions(db, config, { carId: car.id, start, from, count: n, prefix: 'bench', name: '벤치', code: 'BN' });
  }
  await db.execute(sql`
    insert into jobs (kind, key, payload, run_at, max_attempts)
    select 'charge-month', 'charge:sub:' || id || ':m2', jsonb_build_object('subscriptionId', id, 'month', 2), ${now.toISOString()}, 10 from subscriptions`);

  const clock = createClock();
  const payments = createPaymentProvider(db, config);
  const handlers = jobHandlers({ db, payments, clock, log: apiLogger(config), config });
  const started = performance.now();
  await runDueJobs({ db, clock, handlers, worker: 'bench', kinds: BILLING_JOB_KINDS, concurrency: opts.concurrency });
  const seconds = (performance.now() - started) / 1000;

  const count = async (query: ReturnType<typeof sql>) => Number(((await db.execute(query)) as { rows: { n: string | number }[] }).rows[0].n);
  const paid = await count(sql`select count(*) as n from payments where status = 'PAID' and purpose = 'SUBSCRIPTION_MONTH'`);
  const duplicatePaymentIds = await count(sql`select count(*) as n from (select payment_id from sandbox_payments group by payment_id having count(*) > 1) d`);
  const doublyChargedSubscriptions = await count(sql`select count(*) as n from (select ref_id from payments where purpose = 'SUBSCRIPTION_MONTH' and status = 'PAID' group by ref_id, month having count(*) > 1) d`);
  await database.close();
  return {
    database: opts.url ? 'postgres' : 'pglite', subscriptions: opts.count, concurrency: opts.concurrency, providerLatencyMs: opts.latencyMs,
    seconds: +seconds.toFixed(1), chargesPerSecond: +(paid / seconds).toFixed(0), paid, duplicatePaymentIds, doublyChargedSubscriptions,
  };
}
