/**
 * Database faults under mixed load (docs/decisions/reliability.md, figures in docs/performance.md):
 *
 *   npx tsx scripts/bench-db-faults.ts [--port 5610] [--http-port 4510] [--freeze-seconds 15] [--outage-seconds 3]
 *
 * Starts its own throwaway PostgreSQL cluster (initdb + pg_ctl from /usr/lib/postgresql/<n>/bin,
 * as the `postgres` user when run as root, in a temporary folder, on --port), seeds it, and
 * starts one replica in a child process: the API and the job loop exactly as `npm start` wires
 * them (default DB_* timeouts, JOB_INTERVAL_MS), without the site build. Load: 8 writers
 * (POST /api/services/contacts, each acknowledged id remembered), 4 readers (GET
 * /api/services/faqs) and the job loop charging monthly subscriptions whose charges fall due
 * all through the run (each charge sends its notifications as further jobs). Two faults:
 *
 * 1. restart: `pg_ctl stop -m fast`, --outage-seconds down, `pg_ctl start`;
 * 2. freeze: SIGSTOP on the postmaster and every backend for --freeze-seconds, then SIGCONT.
 *
 * Measured: how soon after the database is back a write succeeds again; acknowledged writes
 * missing afterwards; every answer while it was down or frozen (status, slowest); the longest
 * any job waited beyond the time the database was away; charges made twice. Bounded: the
 * whole run is killed after 6 minutes, and the cluster is always thawed, stopped and removed.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5610' },
    'http-port': { type: 'string', default: '4510' },
    'freeze-seconds': { type: 'string', default: '15' },
    'outage-seconds': { type: 'string', default: '3' },
    serve: { type: 'string' },
  },
});

/** The replica: the API and its job loop as src/host/main.ts wires them, on DATABASE_URL. */
async function serveReplica(url: string, port: number) {
  const { createAdaptorServer } = await import('@hono/node-server');
  const { apiLogger, createApp } = await import('../src/api/app');
  const { openDatabase } = await import('../src/api/db/client');
  // (A tree before the database-fault work has no classifier: every loop error counts.)
  const errors: { isDatabaseUnavailable?: (err: unknown) => boolean } = await import('../src/api/db/errors');
  const isDatabaseUnavailable = errors.isDatabaseUnavailable ?? (() => true);
  const { loadConfig } = await import('../src/api/env');
  const { createClock } = await import('../src/api/jobs/clock');
  const { createJobRunner } = await import('../src/api/job-handlers');
  const { createPaymentProvider } = await import('../src/api/billing/providers');
  const { startJobLoop } = await import('../src/host/job-loop');
  const { listenWide } = await import('../src/host/listen');
  const { composeSite } = await import('../src/host/site-app');
  const config = loadConfig(replicaEnv(url));
  const database = await openDatabase({ url, timeouts: config.dbTimeouts });
  const payments = createPaymentProvider(database.db, config);
  const clock = createClock();
  const runJobs = createJobRunner({ db: database.db, payments, clock, log: apiLogger(config), config }, 'bench-replica');
  const api = createApp({ db: database.db, config, payments, clock, runJobs });
  const site = composeSite({ api, site: (c) => c.notFound() });
  const server = createAdaptorServer({ fetch: site.fetch });
  await listenWide(server as never, { port, host: '127.0.0.1' });
  let loopErrors = 0;
  const loop = startJobLoop({ run: () => runJobs(), intervalMs: config.jobIntervalMs, onError: (err) => void (isDatabaseUnavailable(err) ? loopErrors++ : console.error('[jobs]', err)) });
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, timeouts: config.dbTimeouts, jobIntervalMs: config.jobIntervalMs }));
  process.on('SIGTERM', () => {
    void loop.stop().finally(() => {
      console.error(`[replica] job runs stopped by a database fault: ${loopErrors}`);
      process.exit(0);
    });
  });
}

/** The replica's environment (the seed issues billing keys under the same settings). */
const replicaEnv = (url: string): NodeJS.ProcessEnv => ({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: 'bench-secret-bench-secret-bench', DATABASE_URL: url, TRUST_PROXY: 'loopback', SANDBOX_LATENCY_MS: '50' });

interface Answer {
  kind: 'write' | 'read';
  sentAt: number;
  answeredAt: number;
  status: number;
  id?: number;
}

async function main() {
  const killer = setTimeout(() => {
    console.error('bench-db-faults: over 6 minutes, giving up');
    cleanup();
    process.exit(1);
  }, 6 * 60_000);
  killer.unref();
  const pgPort = Number(values.port);
  const httpPort = Number(values['http-port']);
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(tmpdir(), 'luxe-dbfaults-'));
  const data = path.join(dir, 'data');
  const asPostgres = process.getuid?.() === 0;
  if (asPostgres) chownSync(dir, uid('postgres'), gid('postgres'));
  const run = (tool: string, args: string[]) => execFileSync(asPostgres ? 'runuser' : path.join(bin, tool), asPostgres ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args, { stdio: 'pipe', timeout: 60_000 });
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '30', ...args]);
  let replica: ChildProcess | undefined;
  let frozen: number[] = [];
  const cleanup = () => {
    for (const pid of frozen) tryKill(pid, 'SIGCONT');
    if (replica?.exitCode === null) replica.kill('SIGKILL');
    try {
      pgCtl('stop', '-m', 'immediate');
    } catch {
      /* not running */
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (cleanup(), process.exit(130)));
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    pgCtl('start', '-o', `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50`);
    const url = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;
    const subscriptions = await seed(url);

    replica = spawn(path.resolve('node_modules/.bin/tsx'), [fileURLToPath(import.meta.url), '--serve', url, '--http-port', String(httpPort)], { stdio: ['ignore', 'pipe', 'inherit'], env: process.env });
    const info = JSON.parse(await firstLine(replica)) as { url: string; timeouts?: { connectMs: number; statementMs: number }; jobIntervalMs: number };
    console.log(`replica on ${info.url}: DB_CONNECT_TIMEOUT_MS ${info.timeouts?.connectMs}, DB_STATEMENT_TIMEOUT_MS ${info.timeouts?.statementMs}, JOB_INTERVAL_MS ${info.jobIntervalMs}; ${subscriptions} monthly charges falling due through the run`);
    // The longest a request may take while the database is frozen: a connection wait, then a statement given up on
    // (the client's 1 s grace after statement_timeout), and 0.5 s for timers firing late on a loaded machine.
    const boundMs = info.timeouts ? info.timeouts.connectMs + info.timeouts.statementMs + 1000 + 500 : Infinity;

    const restart = await phase(info.url, 'restart', async () => {
      const down = Date.now();
      pgCtl('stop', '-m', 'fast');
      await sleep(Number(values['outage-seconds']) * 1000);
      pgCtl('start', '-o', `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50`);
      return { down, back: Date.now() };
    });
    const freeze = await phase(info.url, 'freeze', async () => {
      const postmaster = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      frozen = [postmaster, ...childrenOf(postmaster)];
      const down = Date.now();
      for (const pid of frozen) tryKill(pid, 'SIGSTOP');
      await sleep(Number(values['freeze-seconds']) * 1000);
      for (const pid of frozen) tryKill(pid, 'SIGCONT');
      frozen = [];
      return { down, back: Date.now() };
    });

    const outages = [restart.window, freeze.window];
    const figures = await verify(url, [...restart.answers, ...freeze.answers], outages);
    const report = {
      boundMs,
      restart: summarize(restart.answers, restart.window, 'restart'),
      freeze: summarize(freeze.answers, freeze.window, 'freeze'),
      ...figures,
    };
    console.log(JSON.stringify(report, null, 2));
    const ok = report.restart.firstWriteAfterBackMs !== null && report.restart.firstWriteAfterBackMs <= 5000
      && report.freeze.firstWriteAfterBackMs !== null && report.freeze.firstWriteAfterBackMs <= 5000
      && figures.lostAcknowledgedWrites === 0 && figures.jobsWaitingOver30s === 0 && figures.unfinishedJobs === 0 && figures.doublyChargedSubscriptions === 0
      && report.freeze.whileAway.unanswered === 0 && report.freeze.whileAway.slowestMs <= boundMs
      && report.freeze.whileAway.statuses['500'] === undefined && report.restart.whileAway.statuses['500'] === undefined;
    console.log(ok ? 'targets met' : 'TARGETS MISSED');
    process.exitCode = ok ? 0 : 1;
    if (replica.exitCode === null && replica.signalCode === null) {
      const exited = new Promise((resolve) => replica!.once('exit', resolve));
      replica.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
    }
  } finally {
    cleanup();
    clearTimeout(killer);
  }
}

/** The seed catalogue (FAQs for the readers) and `count` subscriptions whose month 2 falls due over the next 70 s. */
async function seed(url: string): Promise<number> {
  const { openDatabase } = await import('../src/api/db/client');
  const { seedDatabase } = await import('../src/api/seed/seed');
  const { insertTestCar } = await import('../src/api/seed/factories');
  const { loadConfig } = await import('../src/api/env');
  const { insertConfirmedSubscriptions } = await import('./bench-subscriptions');
  const database = await openDatabase({ url, timeouts: { statementMs: 0 } });
  const { db } = database;
  await seedDatabase(db);
  // The replica's settings: its sandbox accepts the billing keys issued here.
  const config = loadConfig(replicaEnv(url));
  const { car } = await insertTestCar(db, { fees: { subscription_fee_12: 555_000 } });
  const count = 1_500;
  const now = new Date();
  const start = new Date(now.getTime() - 40 * 86_400_000).toISOString().slice(0, 10);
  await insertConfirmedSubscriptions(db, config, { carId: car.id, start, from: 1, count, prefix: 'fault', name: '장애', code: 'DF' });
  // Due from 5 s to 75 s from now, evenly: some before each fault, some while the database is away, some after.
  await db.execute(sql`
    insert into jobs (kind, key, payload, run_at, max_attempts)
    select 'charge-month', 'charge:sub:' || id || ':m2', jsonb_build_object('subscriptionId', id, 'month', 2),
      ${now.toISOString()}::timestamptz + make_interval(secs => 5 + 70.0 * (row_number() over (order by id) - 1) / ${count}), 10
    from subscriptions`);
  await database.close();
  return count;
}

interface Window {
  down: number;
  back: number;
}

/** 5 s of load, the fault, then load until 12 s after the database is back. */
async function phase(base: string, name: string, fault: () => Promise<Window>): Promise<{ answers: Answer[]; window: Window }> {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const call = async (kind: Answer['kind']) => {
    const i = n++;
    const sentAt = Date.now();
    try {
      const res =
        kind === 'write'
          ? await fetch(`${base}/api/services/contacts`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
              body: JSON.stringify({ name: '장애 시험', email: `fault${i}@example.com`, subject: `${name} ${i}`, message: '데이터베이스 장애 중의 문의' }),
              signal: AbortSignal.timeout(60_000),
            })
          : await fetch(`${base}/api/services/faqs`, { signal: AbortSignal.timeout(60_000) });
      const body = (await res.json().catch(() => ({}))) as { data?: { id?: number } };
      answers.push({ kind, sentAt, answeredAt: Date.now(), status: res.status, id: res.ok ? body.data?.id : undefined });
    } catch {
      answers.push({ kind, sentAt, answeredAt: Date.now(), status: 0 });
    }
  };
  const worker = async (kind: Answer['kind']) => {
    while (running) {
      await call(kind);
      await sleep(20);
    }
  };
  const workers = [...Array.from({ length: 8 }, () => worker('write')), ...Array.from({ length: 4 }, () => worker('read'))];
  await sleep(5000);
  console.log(`${name}: the database goes away`);
  const window = await fault();
  console.log(`${name}: the database is back after ${((window.back - window.down) / 1000).toFixed(1)} s`);
  await sleep(12_000);
  running = false;
  await Promise.all(workers);
  return { answers, window };
}

function summarize(answers: Answer[], window: Window, name: string) {
  const away = answers.filter((a) => a.sentAt < window.back && a.answeredAt > window.down);
  const statuses: Record<string, number> = {};
  for (const a of away) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const firstWrite = answers.filter((a) => a.kind === 'write' && a.status === 201 && a.answeredAt >= window.back).sort((a, b) => a.answeredAt - b.answeredAt)[0];
  const firstRead = answers.filter((a) => a.kind === 'read' && a.status === 200 && a.answeredAt >= window.back).sort((a, b) => a.answeredAt - b.answeredAt)[0];
  return {
    name,
    awaySeconds: +((window.back - window.down) / 1000).toFixed(1),
    requests: answers.length,
    acknowledgedWrites: answers.filter((a) => a.kind === 'write' && a.status === 201).length,
    whileAway: {
      requests: away.length,
      statuses,
      unanswered: away.filter((a) => a.status === 0).length,
      slowestMs: Math.max(0, ...away.map((a) => a.answeredAt - a.sentAt)),
    },
    firstWriteAfterBackMs: firstWrite ? firstWrite.answeredAt - window.back : null,
    firstReadAfterBackMs: firstRead ? firstRead.answeredAt - window.back : null,
  };
}

/** After both faults: acknowledged writes all stored, every due job done (waiting beyond the outages at most 30 s), no charge twice. */
async function verify(url: string, answers: Answer[], outages: Window[]) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const acked = answers.filter((a) => a.kind === 'write' && a.id !== undefined).map((a) => a.id!);
    const { rows: stored } = await client.query<{ id: number }>('select id from contact_messages where id = any($1::int[])', [acked]);
    // Every charge falls due within 75 s of the seed; wait (bounded) for the loop to finish them.
    const deadline = Date.now() + 90_000;
    let open = Infinity;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from jobs where status in ('queued', 'running') and run_at <= now()`);
      open = Number(rows[0].n);
      const { rows: future } = await client.query<{ n: string }>(`select count(*) as n from jobs where kind = 'charge-month' and status = 'queued' and run_at > now()`);
      if (!open && !Number(future[0].n)) break;
      await sleep(1000);
    }
    const { rows: done } = await client.query<{ kind: string; run_at: Date; finished_at: Date }>(`select kind, run_at, finished_at from jobs where status = 'done'`);
    // A job's avoidable wait: from when it was due to when it finished, less the time the database was away meanwhile.
    const waits = done.map((j) => {
      const due = j.run_at.getTime();
      const end = j.finished_at.getTime();
      const away = outages.reduce((sum, w) => sum + Math.max(0, Math.min(end, w.back) - Math.max(due, w.down)), 0);
      return { kind: j.kind, waitMs: end - due - away, met: away > 0 };
    });
    const sorted = waits.map((w) => w.waitMs).sort((a, b) => a - b);
    const quantiles = (list: number[]) => {
      const s = [...list].sort((a, b) => a - b);
      return { jobs: s.length, p50: s[Math.floor(s.length / 2)] ?? 0, p99: s[Math.floor(s.length * 0.99)] ?? 0, max: s.at(-1) ?? 0 };
    };
    const { rows: dup } = await client.query<{ n: string }>(`select count(*) as n from (select ref_id from payments where purpose = 'SUBSCRIPTION_MONTH' and status = 'PAID' group by ref_id, month having count(*) > 1) d`);
    const { rows: paid } = await client.query<{ n: string }>(`select count(*) as n from payments where purpose = 'SUBSCRIPTION_MONTH' and status = 'PAID' and month = 2`);
    const { rows: failed } = await client.query<{ n: string }>(`select count(*) as n from jobs where status = 'failed'`);
    return {
      lostAcknowledgedWrites: acked.length - stored.length,
      jobsDone: done.length,
      jobsByKind: Object.fromEntries([...new Set(waits.map((w) => w.kind))].map((k) => [k, waits.filter((w) => w.kind === k).length])),
      jobWaitBeyondOutageMs: quantiles(sorted),
      // The same for jobs that met a fault, and for those that did not (the loop's ordinary delay: JOB_INTERVAL_MS plus the run's length).
      jobWaitMetAFaultMs: quantiles(waits.filter((w) => w.met).map((w) => w.waitMs)),
      jobWaitNoFaultMs: quantiles(waits.filter((w) => !w.met).map((w) => w.waitMs)),
      jobsWaitingOver30s: sorted.filter((w) => w > 30_000).length,
      unfinishedJobs: open === Infinity ? -1 : open,
      failedJobs: Number(failed[0].n),
      monthlyChargesPaid: Number(paid[0].n),
      doublyChargedSubscriptions: Number(dup[0].n),
    };
  } finally {
    await client.end();
  }
}

function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a))[0] : undefined;
  if (!version) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  return path.join(root, version, 'bin');
}

const uid = (user: string) => Number(execFileSync('id', ['-u', user]).toString().trim());
const gid = (user: string) => Number(execFileSync('id', ['-g', user]).toString().trim());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)]).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function tryKill(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {
    /* gone */
  }
}

async function firstLine(child: ChildProcess): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the replica exited (${code}) before listening`)));
  });
}

if (values.serve) await serveReplica(values.serve, Number(values['http-port']));
else await main();
