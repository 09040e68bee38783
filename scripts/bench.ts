import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { execFile, fork, spawnSync } from 'node:child_process';
import http from 'node:http';
import autocannon from 'autocannon';
import pg from 'pg';
import { z } from 'zod';
import { startProduct, type RunningProduct } from '../src/host/main';
import { openDatabase } from '../src/api/db/client';
import { seedDatabase } from '../src/api/seed/seed';
import { loadConfig } from '../src/api/env';
import { billingBench, type BillingFigures } from './bench-billing';
import { withScratchDatabase } from './scratch-database';
import { benchPages, jsBytes, pageUrl, pagesOf } from './js-bytes';
import { photoBench } from './bench-photos';
import { lighthousePages, printLighthouse } from './bench-lighthouse';
import { inpBench, printInp } from './bench-inp';
import { CatalogueCache, cacheSegment, type CacheEntry } from '../src/api/catalogue/cache/catalogue-cache';
import { DbRateLimitStore } from '../src/api/middleware/rate-limit-store';

/**
 * npm run bench [-- --skip-lighthouse] : the performance figures we track.
 *  - build time of the storefront for the seed catalogue (64 cars) and for 1,000 cars;
 *  - JavaScript bytes a visitor downloads per page (entry scripts and their imports);
 *  - garage endpoint latency (p50/p99) under concurrent load on 1,000 cars;
 *  - Lighthouse (mobile, simulated slow 4G) on every public page and three pages of a logged-in test
 *    account: the four scores, FCP, LCP, CLS, font and total bytes (scripts/bench-lighthouse.ts).
 *    `--only lighthouse` runs just this (`--port P`, default 4701; `--runs N` per page, the median kept);
 *  - catalogue reads at 200 connections (garage with mixed filters, cars, health; with and
 *    without the catalogue cache) on PGlite and, when 127.0.0.1:5432 answers, PostgreSQL.
 *    `--only load` runs just these (`--load-cars N,M`, default 500,10000; `--load-seconds S`, default 10).
 *    Beside them, the floor: bare node:http answering the same bytes. Load from wrk when
 *    installed (apt-get install wrk), else autocannon; `--loadgen wrk|autocannon` chooses.
 *    `--load-db pglite`, `--load-db postgres`: one database only.
 *  - the mixed case (in the load runs; `--only mixed` runs just it): the garage reads at 200
 *    connections while one writer PATCHes a car's price every 500 ms through the admin API:
 *    the reads' p50/p99/max, the edits made, and each edit's time until the garage page and the
 *    car's answer show it (the goal: every edit live within a second).
 *  - publishing, for `--publish-cars` (comma-separated, default 1000,10000,100000; `--only publish`
 *    runs just this): the first full build (time, pages, the build's peak RSS), /api/health latency
 *    (p50/p99) while a full rebuild runs, how long three price edits (PATCH /api/admin/cars/1) take
 *    to show on the served /car/1 page, and a new car on its page.
 *  - billing: `--billing-subs` subscriptions (default 100,000) whose month is due, billed through the
 *    sandbox with 50 ms provider latency, `--billing-concurrency` at a time (default 64), on PGlite
 *    and PostgreSQL: time, charges per second, duplicates (`--only billing` runs just this).
 *  - INP (`--only inp`): the order page's option changes, the garage's filters and infinite scroll,
 *    the reservation form and the chat on Chromium at 390 px with the CPU slowed 4× (bench-inp.ts).
 *  - `--only cache`: get/set throughput of the catalogue cache's LRU segments (lru-cache) at their
 *    default sizes beside a hand-written Map LRU, the floor they are compared with.
 *  - `--only limits`: one rate-limit hit (the rate_limits upsert) on PGlite and PostgreSQL, alone
 *    and 64 at once on one key.
 *  - photos (`--only photos`): a car page with 8 uploaded 4000×3000 phone photos (`--photos N`):
 *    upload time, edit → live, image bytes of the first view at 390 px (densities 2 and 3) and
 *    1280 px, Lighthouse mobile on the page, and what adding one photo adds to an edit's publish.
 * Results go to stdout and .bench/results.json. Nothing here is asserted: figures are reported.
 */
const { values: args } = parseArgs({
  options: {
    'skip-lighthouse': { type: 'boolean', default: false },
    cars: { type: 'string', default: '1000' },
    only: { type: 'string' },
    'load-cars': { type: 'string', default: '500,10000' },
    'load-seconds': { type: 'string', default: '10' },
    'load-db': { type: 'string', default: 'pglite,postgres' },
    'publish-cars': { type: 'string', default: '1000,10000,100000' },
    'billing-subs': { type: 'string', default: '100000' },
    'billing-concurrency': { type: 'string', default: '64' },
    photos: { type: 'string', default: '8' },
    loadgen: { type: 'string' },
    port: { type: 'string', default: '4701' },
    runs: { type: 'string', default: '1' },
  },
});
const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = path.join(root, '.bench');
rmSync(benchDir, { recursive: true, force: true });
mkdirSync(benchDir, { recursive: true });

async function product(cars: number, port: number, env: Record<string, string> = {}): Promise<{ running: RunningProduct; buildSeconds: number }> {
  const dir = path.join(benchDir, `cars-${cars}`);
  // A fresh database each time (the publishing run starts the same size again).
  rmSync(dir, { recursive: true, force: true });
  // Seed first so the timed part is the build alone.
  const seeded = await openDatabase({ dataDir: path.join(dir, 'data', 'pglite') });
  await seedDatabase(seeded.db, { cars });
  await seeded.close();
  const config = loadConfig({ ...process.env, PORT: String(port), DATA_DIR: path.join(dir, 'data'), DIST_DIR: path.join(dir, 'dist'), LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'bench-secret-bench-secret-bench', ADMIN_TOKEN: BENCH_ADMIN_TOKEN, ...env });
  const started = performance.now();
  const running = await startProduct({ projectRoot: root, config });
  return { running, buildSeconds: (performance.now() - started) / 1000 };
}

async function garageLoad(url: string) {
  const queries = ['', '?page=2', '?brand=ferrari', '?brand=porsche&sort=subscription_fee_minimum&order=asc', '?available_only=true&month=12&month=24', '?sort=mileage&order=desc&page=5', '?brand=others&sort=release_date'];
  let i = 0;
  const result = await autocannon({
    url: `${url}/api/subscriptions/garages`,
    connections: 20,
    duration: 10,
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/api/subscriptions/garages${queries[i++ % queries.length]}` }) }],
  });
  return { requestsPerSecond: Math.round(result.requests.average), p50ms: result.latency.p50, p99ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

async function lighthouse(url: string, pages: string[]) {
  const { default: lh } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const out: Record<string, { performance: number; accessibility: number; cls: number; lcpMs: number; tbtMs: number }> = {};
  try {
    for (const page of pages) {
      const result = await lh(`${url}${page}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], formFactor: 'mobile', screenEmulation: { mobile: true, width: 412, height: 823, deviceScaleFactor: 1.75, disabled: false } });
      const lhr = result!.lhr;
      out[page] = {
        performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
        accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
        cls: Number(lhr.audits['cumulative-layout-shift'].numericValue?.toFixed(3)),
        lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue ?? 0),
        tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue ?? 0),
      };
    }
  } finally {
    chrome.kill();
  }
  return out;
}

// ── Catalogue reads under 200 connections ────────────────────────────────────
const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return +(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1);
};
const LOAD_CONNECTIONS = 200;
/** `--only mixed`: of the load runs, only the reads while a writer edits prices. */
const MIXED_ONLY = args.only === 'mixed';
/** Realistic garage URLs: what the garage page's filters, sort and paging produce. */
const GARAGE_FILTERS = [
  '', '?page=2', '?page=3', '?brand=ferrari', '?brand=porsche&sort=subscription_fee_minimum&order=asc', '?brand=lamborghini&brand=ferrari',
  '?available_only=true', '?available_only=true&month=12&month=24', '?month=36&sort=subscription_fee_minimum', '?sort=mileage&order=desc&page=5',
  '?brand=others&sort=release_date', '?brand=mercedes&available_only=true&sort=subscription_fee_minimum&order=desc', '?brand=bmw&month=12',
  '?sort=release_date&order=desc', '?brand=porsche&brand=bmw&page=2', '?model=1',
].map((q) => `/api/subscriptions/garages${q}`);

type LoadFigures = { p50ms: number; p99ms: number; maxMs: number; reqPerSec: number; requests: number; non2xx: number; errors: number };

/** The API alone (scripts/bench-server.ts) in a child process; resolves with its URL and a stop function. */
function benchServer(serverArgs: string[]): Promise<{ url: string; floorUrl: string; stop: () => Promise<void> }> {
  // The Node flags of `npm start` (package.json): a larger young generation, fewer pauses under load.
  // ADMIN_TOKEN: the mixed run's writer edits prices through the admin API.
  const child = fork(path.join(root, 'scripts', 'bench-server.ts'), serverArgs, { execArgv: ['--max-semi-space-size=32', '--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env: { ...process.env, ADMIN_TOKEN: BENCH_ADMIN_TOKEN } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`bench server exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      const { url, floorUrl } = JSON.parse(line) as { url: string; floorUrl: string };
      child.removeAllListeners('exit');
      resolve({ url, floorUrl, stop: () => new Promise<void>((done) => (child.once('exit', () => done()), child.kill('SIGTERM'))) });
    });
  });
}

/** Browsers send this; `identity: true` sends none (no compression at all: the floor of what the server can do). */
const BROWSER_ENCODINGS = 'gzip, deflate, br';

/**
 * The load generator: wrk when installed (C, one thread: it leaves the server the CPU being
 * measured; autocannon, JavaScript, saturates first at about 10,000 req/s on this machine, so
 * at 200 connections its own queue sets the latency), else autocannon. `--loadgen` chooses.
 */
const LOADGEN = args.loadgen ?? (spawnSync('wrk', ['--version']).error ? 'autocannon' : 'wrk');

/** `onStart` runs once the warm-up is done, as the load generator starts (the mixed run's writer). */
async function load(base: string, paths: string[], seconds: number, opts: { identity?: boolean; onStart?: () => void } = {}): Promise<LoadFigures> {
  const headers: Record<string, string> = opts.identity ? {} : { 'accept-encoding': BROWSER_ENCODINGS };
  // Warm up: each URL twice (the second read moves it into the cache's protected segment).
  for (let round = 0; round < 2; round++) for (const p of paths) await (await fetch(base + p, { headers })).arrayBuffer();
  opts.onStart?.();
  if (LOADGEN === 'wrk') return wrkLoad(base, paths, seconds, headers);
  let i = 0;
  const r = await autocannon({
    url: base + paths[0],
    connections: LOAD_CONNECTIONS,
    duration: seconds,
    headers,
    requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  return { p50ms: r.latency.p50, p99ms: r.latency.p99, maxMs: r.latency.max, reqPerSec: Math.round(r.requests.average), requests: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}

/** wrk -t1 with the paths taken in turn; figures from its own histogram (a Lua `done` prints them as JSON). */
async function wrkLoad(base: string, paths: string[], seconds: number, headers: Record<string, string>): Promise<LoadFigures> {
  const script = path.join(benchDir, 'wrk.lua');
  writeFileSync(
    script,
    `local paths = ${JSON.stringify(paths).replace('[', '{').replace(/]$/, '}')}
local headers = ${`{${Object.entries(headers).map(([k, v]) => `[${JSON.stringify(k)}]=${JSON.stringify(v)}`).join(',')}}`}
local i = 0
request = function() i = i + 1; return wrk.format("GET", paths[(i % #paths) + 1], headers) end
done = function(s, latency)
  local e = s.errors
  io.write(string.format('\\n{"p50":%d,"p99":%d,"max":%d,"requests":%d,"us":%d,"status":%d,"errors":%d}\\n', latency:percentile(50), latency:percentile(99), latency.max, s.requests, s.duration, e.status, e.connect + e.read + e.write + e.timeout))
end
`,
  );
  // Asynchronously: a blocked event loop would keep fetch's idle sockets past the server's keep-alive.
  const run = await promisify(execFile)('wrk', ['-t1', `-c${LOAD_CONNECTIONS}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, base], { encoding: 'utf8' });
  const line = run.stdout.split('\n').find((l) => l.startsWith('{"p50"'));
  if (!line) throw new Error(`wrk failed: ${run.stderr || run.stdout}`);
  const r = JSON.parse(line) as { p50: number; p99: number; max: number; requests: number; us: number; status: number; errors: number };
  const ms = (us: number) => +(us / 1000).toFixed(1);
  return { p50ms: ms(r.p50), p99ms: ms(r.p99), maxMs: ms(r.max), reqPerSec: Math.round(r.requests / (r.us / 1e6)), requests: r.requests, non2xx: r.status, errors: r.errors };
}

/**
 * What visitors arriving at a busy moment meet: halfway through a load of `paths`, `count` new
 * connections open at once and each asks `probe` once; figures are the times to their whole
 * answers, connecting included.
 */
async function newConnectionsUnderLoad(base: string, paths: string[], probe: string, seconds: number, count = LOAD_CONNECTIONS) {
  const loading = load(base, paths, seconds);
  await new Promise((resolve) => setTimeout(resolve, (seconds * 1000) / 2));
  const ask = () =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      http
        .get(base + probe, { agent: false, headers: { 'accept-encoding': BROWSER_ENCODINGS } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  const times = await Promise.all(Array.from({ length: count }, ask));
  const during = await loading;
  return { connections: count, p50ms: percentile(times, 50), p99ms: percentile(times, 99), maxMs: percentile(times, 100), loadP99ms: during.p99ms };
}

// ── Reads while a writer edits prices ──────────────────────────────────────────
const EDIT_EVERY_MS = 500;
/** The garage's first page, where the writer's car is shown (the default order does not sort by price). */
const garagePage = z.object({ data: z.object({ cars: z.array(z.object({ id: z.number(), retail_price: z.number().nullable() })) }) });

type EditFigures = { edits: number; patchP50ms: number; patchMaxMs: number; liveP50ms: number; liveP99ms: number; liveMaxMs: number; notLive: number; liveWithinSecond: boolean };

/**
 * One writer PATCHing the price of the first car of the garage's first page every 500 ms through
 * the admin API (one edit at a time: an edit starts on the first tick after the last answered).
 * After each, both answers the readers get (the garage's first page and the car's own, with
 * the readers' Accept-Encoding) are asked until they show a price at least the edit's (prices
 * only go up, so a later edit also proves an earlier one live): the time from sending the PATCH.
 */
function priceWriter(base: string): { stop: () => Promise<EditFigures> } {
  const headers = { 'accept-encoding': BROWSER_ENCODINGS };
  const patchMs: number[] = [];
  const liveMs: (number | null)[] = [];
  const watches: Promise<void>[] = [];
  let running = true;
  const shows = async (url: string, pick: (body: unknown) => number | null | undefined, price: number) => (pick(await (await fetch(url, { headers })).json()) ?? 0) >= price;
  const loop = (async () => {
    const { cars } = garagePage.parse(await (await fetch(`${base}${GARAGE_FILTERS[0]}`, { headers })).json()).data;
    const id = cars[0].id;
    let price = (cars[0].retail_price ?? 100_000_000) + 1_000_000;
    const onPage = (body: unknown) => garagePage.parse(body).data.cars.find((c) => c.id === id)?.retail_price;
    const onCar = (body: unknown) => carAnswer.parse(body).data.car.retail_price;
    let next = performance.now();
    while (running) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      if (!running) break;
      next += EDIT_EVERY_MS;
      price += 10_000;
      const target = price;
      const t0 = performance.now();
      await adminCall(base, 'PATCH', `/cars/${id}`, { retail_price: target });
      patchMs.push(performance.now() - t0);
      const slot = liveMs.push(null) - 1;
      watches.push((async () => {
        // Both answers, asked again until each shows the edit (at most 10 s).
        const pending = new Set([`${base}${GARAGE_FILTERS[0]}`, `${base}/api/subscriptions/cars/${id}`]);
        while (pending.size && performance.now() - t0 < 10_000) {
          for (const url of [...pending]) if (await shows(url, url.includes('/garages') ? onPage : onCar, target)) pending.delete(url);
          if (pending.size) await new Promise((r) => setTimeout(r, 10));
        }
        if (!pending.size) liveMs[slot] = performance.now() - t0;
      })());
      if (performance.now() > next) next = performance.now();
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      await Promise.all(watches);
      const live = liveMs.filter((x): x is number => x !== null);
      const notLive = liveMs.length - live.length;
      const liveMaxMs = percentile(live, 100);
      return { edits: patchMs.length, patchP50ms: percentile(patchMs, 50), patchMaxMs: percentile(patchMs, 100), liveP50ms: percentile(live, 50), liveP99ms: percentile(live, 99), liveMaxMs, notLive, liveWithinSecond: notLive === 0 && liveMaxMs <= 1000 };
    },
  };
}

/** The garage reads (mixed filters) at 200 connections while priceWriter edits a price every 500 ms. */
async function mixedLoad(base: string, seconds: number): Promise<{ reads: LoadFigures; edits: EditFigures }> {
  let writer: ReturnType<typeof priceWriter> | undefined;
  const reads = await load(base, GARAGE_FILTERS, seconds, { onStart: () => (writer = priceWriter(base)) });
  return { reads, edits: await writer!.stop() };
}

const printMixed = ({ reads: r, edits: e }: Awaited<ReturnType<typeof mixedLoad>>) =>
  console.log(`  garage reads while a price is edited every ${EDIT_EVERY_MS} ms: p50 ${r.p50ms} ms, p99 ${r.p99ms} ms, max ${r.maxMs} ms, ${r.reqPerSec} req/s (${r.non2xx} non-2xx, ${r.errors} errors); ${e.edits} edits (PATCH p50 ${e.patchP50ms} ms, max ${e.patchMaxMs} ms), edit → live in both answers p50 ${e.liveP50ms} ms, p99 ${e.liveP99ms} ms, max ${e.liveMaxMs} ms, ${e.notLive} never live: ${e.liveWithinSecond ? 'edits still live within a second' : 'edits NOT all live within a second'}`);

/** health, garage (mixed filters) and cars with the cache; garage and cars again without it. */
async function catalogueLoad(label: string, serverArgs: string[], seconds: number) {
  const out: Record<string, unknown> = {};
  const cached = await benchServer(serverArgs);
  try {
    // A fresh process answers its first seconds of load with a long tail (compilation): warm every endpoint up first.
    await load(cached.url, [...GARAGE_FILTERS, '/api/subscriptions/cars', '/api/health'], 3);
    if (MIXED_ONLY) {
      out.mixed = await mixedLoad(cached.url, seconds);
      console.log(`\n${label}: ${LOAD_CONNECTIONS} connections, ${seconds} s, load from ${LOADGEN}`);
      printMixed(out.mixed as Awaited<ReturnType<typeof mixedLoad>>);
      return out;
    }
    await load(cached.floorUrl, ['/'], 2);
    out.health = await load(cached.url, ['/api/health'], seconds);
    out.healthIdentity = await load(cached.url, ['/api/health'], seconds, { identity: true });
    out.garage = await load(cached.url, GARAGE_FILTERS, seconds);
    out.cars = await load(cached.url, ['/api/subscriptions/cars'], seconds);
    out.newConnections = await newConnectionsUnderLoad(cached.url, GARAGE_FILTERS, GARAGE_FILTERS[0], seconds);
    out.mixed = await mixedLoad(cached.url, seconds);
    // Last, on a warm process like the runs it is compared with.
    out.nodeFloor = await load(cached.floorUrl, ['/'], seconds);
  } finally {
    await cached.stop();
  }
  const plain = await benchServer([...serverArgs, '--no-cache']);
  try {
    out.garageNoCache = await load(plain.url, GARAGE_FILTERS, seconds);
    out.carsNoCache = await load(plain.url, ['/api/subscriptions/cars'], seconds);
  } finally {
    await plain.stop();
  }
  const health = out.health as LoadFigures;
  const garage = out.garage as LoadFigures;
  const floor = out.healthIdentity as LoadFigures;
  const nodeFloor = out.nodeFloor as LoadFigures;
  const ratios = {
    garageToHealthReqPerSec: +(garage.reqPerSec / health.reqPerSec).toFixed(2),
    garageToHealthP99: +(garage.p99ms / Math.max(1, health.p99ms)).toFixed(2),
    garageToHealthIdentityReqPerSec: +(garage.reqPerSec / floor.reqPerSec).toFixed(2),
    garageToFloorReqPerSec: +(garage.reqPerSec / nodeFloor.reqPerSec).toFixed(2),
    garageToFloorP99: +(garage.p99ms / Math.max(1, nodeFloor.p99ms)).toFixed(2),
  };
  Object.assign(out, ratios);
  console.log(`\n${label}: ${LOAD_CONNECTIONS} connections, ${seconds} s per run, load from ${LOADGEN}`);
  for (const name of ['nodeFloor', 'health', 'healthIdentity', 'garage', 'cars', 'garageNoCache', 'carsNoCache']) {
    const f = out[name] as LoadFigures;
    console.log(`  ${name.padEnd(15)} p50 ${String(f.p50ms).padStart(5)} ms   p99 ${String(f.p99ms).padStart(5)} ms   ${String(f.reqPerSec).padStart(6)} req/s   (${f.requests} requests, ${f.non2xx} non-2xx, ${f.errors} errors)`);
  }
  const fresh = out.newConnections as Awaited<ReturnType<typeof newConnectionsUnderLoad>>;
  console.log(`  ${fresh.connections} new connections opened at once during the garage load: first answer p50 ${fresh.p50ms} ms, p99 ${fresh.p99ms} ms, max ${fresh.maxMs} ms (that load's p99 ${fresh.loadP99ms} ms)`);
  printMixed(out.mixed as Awaited<ReturnType<typeof mixedLoad>>);
  console.log(`  garage ÷ bare Node answering the same bytes: ${ratios.garageToFloorReqPerSec} × the throughput, ${ratios.garageToFloorP99} × the p99`);
  console.log(`  garage ÷ health: ${ratios.garageToHealthReqPerSec} × the throughput, ${ratios.garageToHealthP99} × the p99; ÷ health without compression: ${ratios.garageToHealthIdentityReqPerSec} × the throughput`);
  return out;
}

/** PostgreSQL for the load runs, when it answers: BENCH_DATABASE_URL, TEST_DATABASE_URL or postgres@127.0.0.1:5432. */
async function postgresServer(): Promise<string | null> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

async function catalogueLoads(cars: number, seconds: number) {
  const out: Record<string, unknown> = { loadgen: LOADGEN };
  const dbs = String(args['load-db']).split(',');
  if (dbs.includes('pglite')) {
    const dataDir = path.join(benchDir, `load-${cars}`, 'pglite');
    const seeded = await openDatabase({ dataDir });
    await seedDatabase(seeded.db, { cars });
    await seeded.close();
    out.pglite = await catalogueLoad(`PGlite, ${cars} cars`, ['--data', dataDir], seconds);
  }
  if (!dbs.includes('postgres')) return out;

  const server = await postgresServer();
  if (!server) {
    console.log('\nPostgreSQL is not reachable on 127.0.0.1:5432: skipped.');
    return out;
  }
  out.postgres = await withScratchDatabase(server, async (url) => {
    const db = await openDatabase({ url });
    await seedDatabase(db.db, { cars });
    await db.close();
    return catalogueLoad(`PostgreSQL, ${cars} cars`, ['--url', url], seconds);
  });
  return out;
}

// ── Publishing: serving during a rebuild, edit → live ────────────────────────
const BENCH_ADMIN_TOKEN = 'bench-admin-token-bench-admin-token-0001';

/** Sequential GET /api/health every few ms until stopped; latencies in ms. */
function sampleHealth(url: string): { stop: () => Promise<number[]> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      await (await fetch(`${url}/api/health`)).arrayBuffer();
      samples.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return { stop: async () => ((running = false), await loop, samples) };
}

/** Peak RSS (MB) of the build child and its process tree, sampled from /proc while `work` runs (Linux). */
async function peakRss<T>(serverPid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = 0;
  const rssOfTree = () => {
    let total = 0;
    try {
      for (const name of readdirSync('/proc')) {
        if (!/^\d+$/.test(name)) continue;
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        if (Number(stat.split(') ')[1].split(' ')[1]) !== serverPid) continue;
        const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'));
        total += rss ? Number(rss[1]) / 1024 : 0;
      }
    } catch {
      /* a process ended meanwhile */
    }
    return total;
  };
  const timer = setInterval(() => (peak = Math.max(peak, rssOfTree())), 250);
  try {
    return { result: await work(), peakMb: Math.round(peak) };
  } finally {
    clearInterval(timer);
  }
}

/** The one field the price-edit run reads from GET /api/subscriptions/cars/:id. */
const carAnswer = z.object({ data: z.object({ car: z.object({ id: z.number(), retail_price: z.number().nullable() }) }) });

/** Seconds from `t0` until the served `page` shows `text` (at most 10 minutes), or null. */
async function liveAfter(url: string, text: string, t0: number): Promise<number | null> {
  while (performance.now() - t0 < 600_000) {
    if ((await (await fetch(url)).text()).includes(text)) return +((performance.now() - t0) / 1000).toFixed(1);
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

async function adminCall(url: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${url}/api/admin${path}`, { method, headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
}

/**
 * Publishing at `cars` cars: the first full build (the product starting on an empty DIST_DIR)
 * and its peak RSS; a full rebuild (publish now) while /api/health is asked without pause; three
 * price edits and a new car until the served pages show them.
 */
async function publishing(cars: number, port: number) {
  const first = await peakRss(process.pid, () => product(cars, port));
  const { running } = first.result;
  try {
    const firstBuild = { seconds: +first.result.buildSeconds.toFixed(1), peakRssMb: first.peakMb, pages: pagesOf(path.join(benchDir, `cars-${cars}`, 'dist')).length };
    console.log(`\nPublishing, ${cars} cars: first full build ${firstBuild.seconds} s, ${firstBuild.pages} pages (build peak RSS ${firstBuild.peakRssMb} MB)`);
    // A rebuild (publish now) while /api/health is asked without pause.
    const health = sampleHealth(running.url);
    const started = performance.now();
    const { peakMb } = await peakRss(process.pid, () => running.publish());
    const rebuildSeconds = +((performance.now() - started) / 1000).toFixed(1);
    const samples = await health.stop();
    const healthDuringRebuild = { samples: samples.length, p50ms: percentile(samples, 50), p99ms: percentile(samples, 99), maxMs: percentile(samples, 100) };
    console.log(`  rebuild ${rebuildSeconds} s (build peak RSS ${peakMb} MB); /api/health during it p50 ${healthDuringRebuild.p50ms} ms, p99 ${healthDuringRebuild.p99ms} ms, max ${healthDuringRebuild.maxMs} ms (${samples.length} samples)`);
    // Price edits through the admin API until the served car page shows each (the 500-ms debounce of edits included).
    const { car } = carAnswer.parse(await (await fetch(`${running.url}/api/subscriptions/cars/1`)).json()).data;
    const editToLiveSeconds: (number | null)[] = [];
    for (let i = 1; i <= 3; i++) {
      const price = (car.retail_price ?? 100_000_000) + i * 10_000;
      const t0 = performance.now();
      await adminCall(running.url, 'PATCH', '/cars/1', { retail_price: price });
      editToLiveSeconds.push(await liveAfter(`${running.url}/car/1`, price.toLocaleString('en-US'), t0));
    }
    // A new car until its page is served (the lists and the sitemap follow in the same edit).
    const t0 = performance.now();
    const created = carAnswer.parse({ data: ((await adminCall(running.url, 'POST', '/cars', { model_id: 1, sub_model: '벤치 신규 차량', subscription_fee_12: 2_000_000 })) as { data: unknown }).data });
    const newCarToLiveSeconds = await liveAfter(`${running.url}/car/${created.data.car.id}`, '벤치 신규 차량', t0);
    console.log(`  price edit → live car page: ${editToLiveSeconds.map((s) => s ?? 'not within 600').join(', ')} s; a new car → its page live: ${newCarToLiveSeconds ?? 'not within 600'} s`);
    return { cars, firstBuild, rebuildSeconds, buildPeakRssMb: peakMb, healthDuringRebuild, editToLiveSeconds, newCarToLiveSeconds };
  } finally {
    await running.stop();
    rmSync(path.join(benchDir, `cars-${cars}`), { recursive: true, force: true });
  }
}

async function publishingRuns() {
  const out: Record<string, unknown> = {};
  let port = 4711;
  for (const cars of String(args['publish-cars']).split(',').map(Number)) out[`cars${cars}`] = await publishing(cars, port++);
  return out;
}

/** The billing run on PGlite and, when it answers, on a throwaway PostgreSQL database. */
async function billingRuns() {
  const count = Number(args['billing-subs']);
  const concurrency = Number(args['billing-concurrency']);
  const out: BillingFigures[] = [];
  const show = (f: BillingFigures) =>
    console.log(`\nBilling, ${f.database}: ${f.paid} of ${f.subscriptions} due months charged in ${f.seconds} s (${f.chargesPerSecond}/s, ${f.concurrency} at a time, ${f.providerLatencyMs} ms provider latency); duplicate payment ids ${f.duplicatePaymentIds}, subscriptions charged twice ${f.doublyChargedSubscriptions}`);
  out.push(await billingBench({ count, concurrency, latencyMs: 50 }));
  show(out[0]);
  const server = await postgresServer();
  if (!server) return out;
  out.push(await withScratchDatabase(server, (url) => billingBench({ count, concurrency, latencyMs: 50, url })));
  show(out[1]);
  return out;
}

// ── The catalogue cache's LRU segments: lru-cache beside a hand-written Map LRU ─────
/**
 * The floor: a Map keeps insertion order, so a read moves its key to the end (delete + set) and
 * eviction takes the first keys; bounded by entries and bytes like the cache's segments.
 */
class MapLru<V> {
  private map = new Map<string, { value: V; bytes: number }>();
  private total = 0;
  constructor(private maxEntries: number, private maxBytes: number) {}
  get(key: string): V | undefined {
    const slot = this.map.get(key);
    if (!slot) return undefined;
    this.map.delete(key);
    this.map.set(key, slot);
    return slot.value;
  }
  set(key: string, value: V, bytes: number): void {
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.total -= old.bytes;
    }
    if (bytes > this.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.total += bytes;
    for (const [k, slot] of this.map) {
      if (this.map.size <= this.maxEntries && this.total <= this.maxBytes) break;
      this.map.delete(k);
      this.total -= slot.bytes;
    }
  }
}

/** Nanoseconds per call of `op(i)`, the best of 7 runs of `n` calls (the machine is shared: the best run is the least disturbed). */
function nsPerOp(n: number, op: (i: number) => unknown): number {
  let best = Infinity;
  let sink = 0;
  for (let run = 0; run < 7; run++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) if (op(i) !== undefined) sink++;
    best = Math.min(best, Number(process.hrtime.bigint() - started) / n);
  }
  if (sink < 0) console.log(sink);
  return +best.toFixed(1);
}

/**
 * The segments at CatalogueCache's defaults (1,000 entries and 64 MiB: protected 750 / 48 MiB,
 * probation 250 / 16 MiB), with entries of 2–60 KB under keys shaped like the cache's.
 */
function cacheSegments() {
  const keys = Array.from({ length: 5000 }, (_, i) => `3|2026-01-01|garage:[false,["ferrari"],[],[],null,null,${i}]`);
  const entries: CacheEntry[] = keys.map((key, i) => ({ key, hash: '', raw: Buffer.alloc(2000 + ((i * 7919) % 58_000)), contentType: 'application/json', pending: {}, cacheControl: '', reservations: false }));
  const weightOf = (e: CacheEntry) => e.raw.length + e.key.length + 200;
  const MB = 1024 * 1024;
  const out: Record<string, Record<string, number>> = {};
  const impls = {
    'lru-cache': (max: number, bytes: number) => {
      const seg = cacheSegment(max, bytes);
      return { get: (k: string) => seg.get(k), set: (e: CacheEntry) => void seg.set(e.key, e) };
    },
    'Map LRU': (max: number, bytes: number) => {
      const seg = new MapLru<CacheEntry>(max, bytes);
      return { get: (k: string) => seg.get(k), set: (e: CacheEntry) => seg.set(e.key, e, weightOf(e)) };
    },
  };
  const N = 1_000_000;
  for (const [name, make] of Object.entries(impls)) {
    const main = make(750, 48 * MB);
    for (let i = 0; i < 700; i++) main.set(entries[i]);
    const probation = make(250, 16 * MB);
    out[name] = {
      getHit700Keys: nsPerOp(N, (i) => main.get(keys[(i * 31) % 700])),
      getHit16Keys: nsPerOp(N, (i) => main.get(keys[i % 16])),
      getMiss: nsPerOp(N, (i) => main.get(keys[700 + (i % 4000)])),
      setEvicting: nsPerOp(N / 4, (i) => probation.set(entries[i % 5000])),
    };
  }
  // The whole read of a cached answer (both segments, generation and day in the key).
  const cache = new CatalogueCache({ today: () => '2026-01-01' });
  const held = Array.from({ length: 16 }, (_, i) => cache.keyOf(`garage:${i}`, false));
  for (const key of held) {
    cache.store(key, Buffer.alloc(20_000), false);
    cache.get(key); // the second read promotes it
  }
  out.catalogueCache = { getHit16Keys: nsPerOp(N, (i) => cache.get(held[i % 16])) };
  console.log('\nCatalogue cache segments (ns per call, best of 7 runs):');
  for (const [name, f] of Object.entries(out)) console.log(`  ${name.padEnd(15)} ${Object.entries(f).map(([k, v]) => `${k} ${v}`).join('   ')}`);
  return out;
}

// ── Rate limits: one hit is one upsert on rate_limits ──────────────────────────
async function limitHits(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const store = new DbRateLimitStore(db);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) await store.hit('bench-warm', `ip:${i % 20}`, 60_000);
  for (let i = 0; i < 2000; i++) {
    const started = performance.now();
    await store.hit('bench', `ip:198.51.100.${i % 250}`, 60_000);
    times.push(performance.now() - started);
  }
  const started = performance.now();
  const rounds = 20;
  for (let r = 0; r < rounds; r++) await Promise.all(Array.from({ length: 64 }, () => store.hit('bench-one', 'ip:203.0.113.1', 60_000)));
  const concurrentPerHitMs = (performance.now() - started) / (rounds * 64);
  times.sort((a, b) => a - b);
  const ms = (p: number) => +times[Math.floor((p / 100) * times.length)].toFixed(3);
  return { hits: times.length, p50ms: ms(50), p99ms: ms(99), oneKey64AtOnceMsPerHit: +concurrentPerHitMs.toFixed(3) };
}

async function limitRuns() {
  const out: Record<string, unknown> = {};
  const local = await openDatabase({ dataDir: path.join(benchDir, 'limits', 'pglite') });
  try {
    out.pglite = await limitHits(local.db);
  } finally {
    await local.close();
  }
  const server = await postgresServer();
  if (server) {
    out.postgres = await withScratchDatabase(server, async (url) => {
      const remote = await openDatabase({ url });
      try {
        return await limitHits(remote.db);
      } finally {
        await remote.close();
      }
    });
  }
  console.log('\nRate-limit hits (one upsert each):');
  for (const [db, f] of Object.entries(out)) console.log(`  ${db.padEnd(9)} ${JSON.stringify(f)}`);
  return out;
}

if (args.only === 'cache') {
  writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify({ cacheSegments: cacheSegments() }, null, 2));
  process.exit(0);
}

if (args.only === 'limits') {
  writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify({ rateLimitHits: await limitRuns() }, null, 2));
  process.exit(0);
}

if (args.only === 'billing') {
  writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify({ billing: await billingRuns() }, null, 2));
  process.exit(0);
}

/** The photographs bench on the seed catalogue (64 cars). */
async function photoRun(withLighthouse: boolean) {
  const { running } = await product(64, 4791);
  try {
    return await photoBench({ url: running.url, adminToken: BENCH_ADMIN_TOKEN, count: Number(args.photos), lighthouse: withLighthouse ? lighthouse : undefined });
  } finally {
    await running.stop();
  }
}

if (args.only === 'photos') {
  writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify({ photos: await photoRun(!args['skip-lighthouse']) }, null, 2));
  process.exit(0);
}

if (args.only === 'publish') {
  const figures = await publishingRuns();
  writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify({ publishing: figures }, null, 2));
  process.exit(0);
}

/** Lighthouse on every page of the issue-37 list, on the seed catalogue, with a logged-in test account (TEST_FIXTURES). */
async function lighthouseRun(port: number) {
  const { running } = await product(64, port, { TEST_FIXTURES: 'on' });
  try {
    const figures = await lighthousePages(running.url, { adminToken: BENCH_ADMIN_TOKEN, runs: Number(args.runs) });
    printLighthouse(figures);
    return figures;
  } finally {
    await running.stop();
  }
}

/** INP of the order page, the garage, the reservation form and the chat on a slowed phone (scripts/bench-inp.ts). */
async function inpRun(port: number) {
  const { running } = await product(64, port, { TEST_FIXTURES: 'on' });
  try {
    const figures = await inpBench(running.url, BENCH_ADMIN_TOKEN);
    printInp(figures);
    return figures;
  } finally {
    await running.stop();
  }
}

if (args.only === 'inp') {
  writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify({ inpMobile: await inpRun(Number(args.port)) }, null, 2));
  process.exit(0);
}

if (args.only === 'lighthouse') {
  writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify({ lighthouseMobile: await lighthouseRun(Number(args.port)) }, null, 2));
  process.exit(0);
}

const loadSeconds = Number(args['load-seconds']);
/** The catalogue reads at each `--load-cars` size. */
async function loadRuns() {
  const out: Record<string, unknown> = {};
  for (const cars of String(args['load-cars']).split(',').map(Number)) out[`cars${cars}`] = await catalogueLoads(cars, loadSeconds);
  return out;
}
if (args.only === 'load' || MIXED_ONLY) {
  writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify({ catalogueLoad: await loadRuns() }, null, 2));
  process.exit(0);
}

const results: Record<string, unknown> = {};
console.log('Building with the seed catalogue (64 cars)…');
const small = await product(64, 4701);
results.buildSeconds64 = +small.buildSeconds.toFixed(1);
const smallDist = path.join(benchDir, 'cars-64', 'dist');
const jsPerPage: Record<string, { raw: number; brotli: number }> = {};
for (const page of benchPages(smallDist)) jsPerPage[pageUrl(page)] = jsBytes(smallDist, page);
results.jsBytesPerPage = jsPerPage;
await small.running.stop();
if (!args['skip-lighthouse']) {
  console.log('Lighthouse (mobile)…');
  results.lighthouseMobile = await lighthouseRun(Number(args.port));
}
console.log('INP (mobile, CPU 4×)…');
results.inpMobile = await inpRun(Number(args.port));

const many = Number(args.cars);
console.log(`Building with ${many} cars…`);
const large = await product(many, 4702);
results[`buildSeconds${many}`] = +large.buildSeconds.toFixed(1);
console.log('Loading the garage endpoint (20 connections, 10 s)…');
results[`garageLatency${many}`] = await garageLoad(large.running.url);
await large.running.stop();
results.catalogueLoad = await loadRuns();
results.publishing = await publishingRuns();
results.photos = await photoRun(!args['skip-lighthouse']);
results.billing = await billingRuns();
results.cacheSegments = cacheSegments();
results.rateLimitHits = await limitRuns();

writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify(results, null, 2));
console.log(JSON.stringify(results, null, 2));
process.exit(0);
