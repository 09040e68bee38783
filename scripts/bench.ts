import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startProduct, type RunningProduct } from '../src/server/main';
import { openDatabase } from '../src/server/db/client';
import { seedDatabase } from '../src/server/db/seed';
import { loadConfig } from '../src/server/env';

/**
 * npm run bench [-- --skip-lighthouse] : the performance figures we track.
 *  - build time of the storefront for the seed catalogue (64 cars) and for 1,000 cars;
 *  - JavaScript bytes a visitor downloads per page (entry scripts and their imports);
 *  - garage endpoint latency (p50/p99) under concurrent load on 1,000 cars;
 *  - Lighthouse (mobile) performance and CLS for home, garage and a car page.
 * Results go to stdout and .bench/results.json. Nothing here is asserted: figures are reported.
 */
const { values: args } = parseArgs({ options: { 'skip-lighthouse': { type: 'boolean', default: false }, cars: { type: 'string', default: '1000' } } });
const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = path.join(root, '.bench');
rmSync(benchDir, { recursive: true, force: true });
mkdirSync(benchDir, { recursive: true });

async function product(cars: number, port: number): Promise<{ running: RunningProduct; buildSeconds: number }> {
  const dir = path.join(benchDir, `cars-${cars}`);
  // Seed first so the timed part is the build alone.
  const seeded = await openDatabase({ dataDir: path.join(dir, 'data', 'pglite') });
  await seedDatabase(seeded.db, { cars });
  await seeded.close();
  const config = loadConfig({ ...process.env, PORT: String(port), DATA_DIR: path.join(dir, 'data'), DIST_DIR: path.join(dir, 'dist'), LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'bench-secret-bench-secret-bench' });
  const started = performance.now();
  const running = await startProduct({ projectRoot: root, config });
  return { running, buildSeconds: (performance.now() - started) / 1000 };
}

/**
 * JS a page references: inline scripts, module scripts and everything they import, each file
 * once, including islands that hydrate only when scrolled into view. Raw bytes and the
 * brotli bytes the server actually sends.
 */
function jsBytes(distDir: string, page: string): { raw: number; brotli: number } {
  const html = readFileSync(path.join(distDir, page), 'utf8');
  const seen = new Set<string>();
  const queue = [...html.matchAll(/\/_astro\/[\w.-]+\.js/g)].map((m) => m[0]);
  let inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].reduce((n, m) => n + Buffer.byteLength(m[1]), 0);
  while (queue.length) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const code = readFileSync(path.join(distDir, url), 'utf8');
    for (const m of code.matchAll(/["'](?:\.\/|\/_astro\/)([\w.-]+\.js)["']/g)) queue.push(`/_astro/${m[1]}`);
  }
  const size = (file: string) => statSync(file).size;
  const files = [...seen].map((url) => path.join(distDir, url));
  return {
    raw: inline + files.reduce((n, f) => n + size(f), 0),
    brotli: inline + files.reduce((n, f) => n + (existsSync(`${f}.br`) ? size(`${f}.br`) : size(f)), 0),
  };
}

function pagesOf(distDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir)) {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e === 'index.html') out.push(path.relative(distDir, p));
    }
  };
  walk(distDir);
  return out;
}

async function garageLoad(url: string) {
  const queries = ['', '?page=2', '?brand=ferrari', '?brand=porsche&sort=subscription_fee_minimum&order=asc', '?available_only=true&month=12&month=24', '?sort=mileage&order=desc&page=5', '?brand=others&sort=release_date'];
  let i = 0;
  const result = await autocannon({
    url: `${url}/api/subscriptions/garages`,
    connections: 20,
    duration: 10,
    requests: [{ setupRequest: (req: any) => ({ ...req, path: `/api/subscriptions/garages${queries[i++ % queries.length]}` }) }],
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
    await chrome.kill();
  }
  return out;
}

const results: Record<string, unknown> = {};
console.log('Building with the seed catalogue (64 cars)…');
const small = await product(64, 4701);
results.buildSeconds64 = +small.buildSeconds.toFixed(1);
const smallDist = path.join(benchDir, 'cars-64', 'dist');
const jsPerPage: Record<string, { raw: number; brotli: number }> = {};
for (const page of pagesOf(smallDist).filter((p) => !/^car\/(?!1\/|fallback)/.test(p)).sort()) jsPerPage[`/${page.replace(/index\.html$/, '')}`] = jsBytes(smallDist, page);
results.jsBytesPerPage = jsPerPage;
if (!args['skip-lighthouse']) {
  console.log('Lighthouse (mobile)…');
  results.lighthouseMobile = await lighthouse(small.running.url, ['/', '/garage', '/car/1', '/chat']);
}
await small.running.stop();

const many = Number(args.cars);
console.log(`Building with ${many} cars…`);
const large = await product(many, 4702);
results[`buildSeconds${many}`] = +large.buildSeconds.toFixed(1);
console.log('Loading the garage endpoint (20 connections, 10 s)…');
results[`garageLatency${many}`] = await garageLoad(large.running.url);
await large.running.stop();

writeFileSync(path.join(benchDir, 'results.json'), JSON.stringify(results, null, 2));
console.log(JSON.stringify(results, null, 2));
process.exit(0);
