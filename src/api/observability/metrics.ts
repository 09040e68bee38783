import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client';
import { jobQueueSummary } from '../jobs/queue';

/**
 * What the process counts as it serves: requests by route (the route's pattern, never its ids),
 * their latency and the errors among them. One registry per process: every app of the process
 * (a test's replicas too) adds to the same series.
 */
const processRegistry = new Registry();

const requests = new Counter({ name: 'luxe_http_requests_total', help: 'API requests by method, route pattern and status.', labelNames: ['method', 'route', 'status'] as const, registers: [processRegistry] });
const latency = new Histogram({
  name: 'luxe_http_request_duration_seconds',
  help: 'API request latency by method and route pattern.',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});
const errors = new Counter({ name: 'luxe_http_errors_total', help: 'API answers of 500 and over, by route pattern.', labelNames: ['route'] as const, registers: [processRegistry] });

export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  requests.inc({ method, route, status: String(status) });
  latency.observe({ method, route }, seconds);
  if (status >= 500) errors.inc({ route });
}

type Row = Record<string, unknown>;
const rowsOf = (result: unknown): Row[] => (Array.isArray(result) ? (result as Row[]) : ((result as { rows?: Row[] }).rows ?? []));
const num = (v: unknown) => Number(v ?? 0);

/**
 * What the database knows, read at each scrape so every replica reports the same totals: the job
 * queue (due, running, failed, the oldest due job's age per kind), charges and refunds by outcome,
 * messages by channel and outcome, and storefront builds.
 */
async function databaseMetrics(db: Db, now: Date): Promise<Registry> {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[]) => new Gauge({ name, help, labelNames, registers: [registry] });

  const jobsByState = gauge('luxe_jobs', 'Jobs by kind and state (due: queued and due by business time).', ['kind', 'state']);
  const oldestDue = gauge('luxe_jobs_oldest_due_age_seconds', 'Age of the oldest due queued job per kind (business time).', ['kind']);
  for (const r of await jobQueueSummary(db, now)) {
    for (const state of ['due', 'scheduled', 'running', 'failed'] as const) jobsByState.set({ kind: r.kind, state }, r[state]);
    oldestDue.set({ kind: r.kind }, r.oldestDueSeconds);
  }

  const charges = gauge('luxe_charges', 'Charges by purpose and outcome (status).', ['purpose', 'status']);
  for (const r of rowsOf(await db.execute(sql`select purpose, status, count(*) as n from payments group by purpose, status`))) charges.set({ purpose: String(r.purpose), status: String(r.status) }, num(r.n));

  const refunds = gauge('luxe_refunds', 'Refunds by outcome (status).', ['status']);
  for (const r of rowsOf(await db.execute(sql`select status, count(*) as n from payment_refunds group by status`))) refunds.set({ status: String(r.status) }, num(r.n));

  const messages = gauge('luxe_notifications', 'Messages by channel and outcome (status).', ['channel', 'status']);
  for (const r of rowsOf(await db.execute(sql`select channel, status, count(*) as n from notification_messages group by channel, status`))) messages.set({ channel: String(r.channel), status: String(r.status) }, num(r.n));

  const builds = gauge('luxe_publish_builds', 'Storefront builds by outcome (status).', ['status']);
  const lastBuild = gauge('luxe_publish_last_build_seconds', 'Duration of the last finished storefront build.', []);
  for (const r of rowsOf(await db.execute(sql`select status, count(*) as n from publish_builds group by status`))) builds.set({ status: String(r.status) }, num(r.n));
  const [last] = rowsOf(await db.execute(sql`select duration_ms from publish_builds where duration_ms is not null order by finished_at desc nulls last limit 1`));
  if (last) lastBuild.set(num(last.duration_ms) / 1000);
  return registry;
}

/** The Prometheus text of this process and of the database it serves. */
export async function metricsText(db: Db, now: Date, pool?: { totalCount: number; idleCount: number; waitingCount: number }): Promise<{ contentType: string; body: string }> {
  const fromDb = await databaseMetrics(db, now);
  if (pool) {
    const connections = new Gauge({ name: 'luxe_db_pool_connections', help: 'PostgreSQL pool connections by state.', labelNames: ['state'], registers: [fromDb] });
    connections.set({ state: 'total' }, pool.totalCount);
    connections.set({ state: 'idle' }, pool.idleCount);
    connections.set({ state: 'waiting' }, pool.waitingCount);
  }
  const merged = Registry.merge([processRegistry, fromDb]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}
