/**
 * The build child at one catalogue size, profiled (issue 53): N cars seeded into a data folder
 * (once: a folder already seeded with them is reused), then the first full build (the product
 * starting on an empty DIST_DIR), a one-car price edit and a full rebuild, each with its wall time,
 * the CPU seconds of the build child (all its threads: under contention the steadier figure) and
 * the peak RSS of the build child's process tree.
 *
 *   npx tsx scripts/profile-publish.ts --cars 10000 [--dir /tmp/luxe-prof-10000] [--prof] [--seed-only] [--no-rebuild]
 *
 * `--prof` starts the child with `--cpu-prof --heap-prof` (BUILD_CHILD_FLAGS) into <dir>/prof:
 * one .cpuprofile and one .heapprofile for the child's whole life (open them in Chrome DevTools).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig, TEST_ADMIN_TOKEN } from '../src/api/env';
import { openDatabase } from '../src/api/db/client';
import { seedDatabase } from '../src/api/seed/seed';
import { startProduct } from '../src/host/main';

const { values: args } = parseArgs({ options: { cars: { type: 'string', default: '10000' }, dir: { type: 'string' }, prof: { type: 'boolean', default: false }, 'seed-only': { type: 'boolean', default: false }, 'no-rebuild': { type: 'boolean', default: false }, port: { type: 'string', default: '4791' } } });
const cars = Number(args.cars);
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = path.resolve(args.dir ?? path.join('/tmp', `luxe-prof-${cars}`));
const dataDir = path.join(dir, 'data');
const distDir = path.join(dir, 'dist');

/** The processes whose parent is this one (the build child), with their RSS (MB) and CPU seconds so far (user + system, every thread). */
function children(): { pid: string; rssMb: number; cpuSeconds: number }[] {
  const out = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(fields[1]) !== process.pid) continue;
      const rssMb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
      out.push({ pid, rssMb, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

/** `work`'s wall time, the build child's CPU seconds during it and its peak RSS (MB, sampled every 100 ms). */
async function measured<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number; peakMb: number }> {
  let peak = 0;
  const cpuAtStart = new Map(children().map((c) => [c.pid, c.cpuSeconds]));
  const cpuNow = new Map<string, number>();
  const sample = () => {
    const now = children();
    for (const c of now) cpuNow.set(c.pid, c.cpuSeconds);
    peak = Math.max(peak, now.reduce((sum, c) => sum + c.rssMb, 0));
  };
  const timer = setInterval(sample, 100);
  const t0 = performance.now();
  try {
    const result = await work();
    sample();
    const cpu = [...cpuNow].reduce((sum, [pid, s]) => sum + s - (cpuAtStart.get(pid) ?? 0), 0);
    return { result, seconds: +((performance.now() - t0) / 1000).toFixed(1), cpuSeconds: +cpu.toFixed(1), peakMb: Math.round(peak) };
  } finally {
    clearInterval(timer);
  }
}

const seededMark = path.join(dataDir, `seeded-${cars}`);
if (!existsSync(seededMark)) {
  rmSync(dataDir, { recursive: true, force: true });
  const t0 = performance.now();
  const seeded = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  await seedDatabase(seeded.db, { cars });
  await seeded.close();
  mkdirSync(seededMark, { recursive: true });
  console.log(`seeded ${cars} cars in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
if (args['seed-only']) process.exit(0);
rmSync(distDir, { recursive: true, force: true });
for (const name of readdirSync(dir)) if (name.startsWith('dist.')) rmSync(path.join(dir, name), { recursive: true, force: true });
if (args.prof) {
  rmSync(path.join(dir, 'prof'), { recursive: true, force: true });
  process.env.BUILD_CHILD_FLAGS = `--cpu-prof --cpu-prof-dir=${path.join(dir, 'prof')} --heap-prof --heap-prof-dir=${path.join(dir, 'prof')}`;
}

const config = loadConfig({ ...process.env, PORT: args.port, HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: distDir, LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'profile-secret-profile-secret-pr', ADMIN_TOKEN: TEST_ADMIN_TOKEN });
const first = await measured(() => startProduct({ projectRoot: root, config }));
const product = first.result;
const show = (what: string, m: { seconds: number; cpuSeconds: number; peakMb: number }) => console.log(`${what}: ${m.seconds} s, child CPU ${m.cpuSeconds} s, child peak RSS ${m.peakMb} MB`);
show('first full build', first);
try {
  const edit = await measured(async () => {
    const res = await fetch(`${product.url}/api/admin/cars/1`, { method: 'PATCH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ retail_price: 100_000_000 + Date.now() % 1_000_000 }) });
    if (!res.ok) throw new Error(`PATCH /cars/1: ${res.status}`);
    await product.publish('edit');
  });
  show('one-car price edit (PATCH + publish)', edit);
  for (let i = 0; i < 2; i++) {
    const again = await measured(async () => {
      await fetch(`${product.url}/api/admin/cars/1`, { method: 'PATCH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ retail_price: 100_000_000 + i + Date.now() % 1_000_000 }) });
      await product.publish('edit');
    });
    show('price edit again', again);
  }
  const added = await measured(async () => {
    const res = await fetch(`${product.url}/api/admin/cars`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ model_id: 1, sub_model: '프로필 신규 차량', subscription_fee_12: 2_000_000 }) });
    if (!res.ok) throw new Error(`POST /cars: ${res.status}`);
    await product.publish('edit');
  });
  show('a new car', added);
  if (!args['no-rebuild']) show('full rebuild', await measured(() => product.publish('publish')));
} finally {
  await product.stop();
}
// tsx's transform service and the product's timers would keep this process up.
process.exit(0);
