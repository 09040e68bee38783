/**
 * The storefront build, in a child process of the server (see rebuild.ts): `astro build` into a
 * staging folder, then the brotli/gzip twins of every compressible file. None of this runs on
 * the server's event loop, and the child ends by itself when the server goes away (stop(), a
 * signal, or kill -9 of the server: the IPC channel closes and the parent pid changes).
 *
 * Its one input is the build snapshot the server wrote into the staging folder (catalogue, car
 * ids to render, settings): it asks the server for nothing.
 *
 * Run by Node directly (type stripping), so it imports only node: modules, Astro by path and
 * modules that do the same (named with their .ts extension).
 * Usage: node build-child.ts '<json BuildJob>'; progress and the outcome go over IPC.
 */
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { readBuildSnapshot, snapshotFile } from '../../integrations/build-snapshot.ts';
import { CAR_HASHES } from './incremental.ts';

export interface BuildJob {
  projectRoot: string;
  /** Absolute path of astro's entry (astro/dist/index.js) as the server resolved it. */
  astroEntry: string;
  /** Where `astro build` writes (the staging folder). */
  outDir: string;
  /** Astro's cache folder of this DIST_DIR. */
  cacheDir: string;
  /** The build snapshot (in the staging folder): catalogue, car ids to render, settings. */
  snapshot: string;
  /** Pages the previous build wrote, for the progress figure (0 when unknown). */
  expectedPages: number;
  /** Forward Astro's log to stdout. */
  verbose: boolean;
  /**
   * The build being served, when the snapshot names the only car pages to render (the parent
   * decides). Everything else is re-rendered, and the unchanged car pages and the sitemap are
   * taken over from it (hard links). Absent: a full build.
   */
  incrementalFrom?: string;
  /** The build being served, if any: files with the same bytes take over its compressed twins. */
  previous?: string;
  /** The photo variants the pages show (file names in `dir`), linked into the build's photos/. */
  photos: { dir: string; names: string[] };
}

/** Where a build ships its photos (PHOTO_SITE_PREFIX without its slashes). */
export const PHOTOS_DIR = 'photos';

/**
 * Links every named variant from `from` into `<outDir>/photos/` (hard links: no bytes copied;
 * copies across file systems). A missing variant fails the build: a page would show a hole.
 */
export async function shipPhotos(from: string, names: readonly string[], outDir: string): Promise<void> {
  if (!names.length) return;
  const into = path.join(outDir, PHOTOS_DIR);
  await mkdir(into, { recursive: true });
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++];
      const source = path.join(from, name);
      try {
        await link(source, path.join(into, name));
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') continue;
        if (code === 'ENOENT') throw new Error(`The photo variant ${name} is neither in ${from} nor in the database: the build stops rather than publish a page without it.`, { cause: err });
        await copyFile(source, path.join(into, name));
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * Fills `into` with every file of `from` it does not have, as hard links (copies across file
 * systems); `skip` names files (relative paths) not to take over.
 */
export async function fillFrom(from: string, into: string, skip: (rel: string) => boolean): Promise<number> {
  const entries = await readdir(from, { withFileTypes: true, recursive: true });
  const made = new Set<string>();
  let taken = 0;
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const entry = entries[next++];
      if (!entry.isFile()) continue;
      const source = path.join(entry.parentPath, entry.name);
      const rel = path.relative(from, source);
      if (skip(rel)) continue;
      const target = path.join(into, rel);
      if (existsSync(target)) continue;
      const dir = path.dirname(target);
      if (!made.has(dir)) {
        await mkdir(dir, { recursive: true });
        made.add(dir);
      }
      try {
        await link(source, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        await copyFile(source, target);
      }
      taken++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return taken;
}

/** Progress and outcome messages to the server. */
export type ChildMessage =
  | { type: 'progress'; phase: 'bundle' | 'pages' | 'compress'; done: number; total: number }
  | { type: 'pages'; pages: number };

/**
 * Ends this process when its parent is gone: the IPC channel closes (the parent exited or was
 * killed) or the parent pid changes (re-parented to init). Returns a function that stops watching.
 */
export function watchParent(opts: { parentPid: number; onOrphan: () => void; intervalMs?: number; currentParent?: () => number; channel?: Pick<NodeJS.EventEmitter, 'once' | 'off'> }): () => void {
  const currentParent = opts.currentParent ?? livePpid;
  let fired = false;
  const orphan = () => {
    if (fired) return;
    fired = true;
    stop();
    opts.onOrphan();
  };
  const timer = setInterval(() => {
    if (currentParent() !== opts.parentPid) orphan();
  }, opts.intervalMs ?? 1000);
  timer.unref();
  opts.channel?.once('disconnect', orphan);
  const stop = () => {
    clearInterval(timer);
    opts.channel?.off('disconnect', orphan);
  };
  return stop;
}

/** The parent pid now (process.ppid is fixed at start): from /proc on Linux; elsewhere 1 once the parent no longer runs. */
function livePpid(): number {
  try {
    // Fields after the command name (which may contain spaces): state, ppid, …
    return Number(readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[1]);
  } catch {
    try {
      process.kill(process.ppid, 0);
      return process.ppid;
    } catch {
      return 1;
    }
  }
}

const COMPRESSIBLE = /\.(html|js|css|svg|xml|json|txt|webmanifest)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Every compressible file over 1 KB under dir. */
export async function compressibleFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await stat(file)).size > 1024) out.push(file);
  }
  return out;
}

/**
 * Writes .br and .gz beside every compressible file over 1 KB, as a CDN would serve them. zlib's
 * asynchronous calls run on libuv's thread pool, a few files at a time. With `reuseFrom` (the
 * build being served), a file whose bytes are the same there takes over its twins as hard links:
 * an incremental build compresses only the pages it changed, not the unchanged bundles again.
 */
export async function precompress(dir: string, onProgress: (done: number, total: number) => void = () => {}, reuseFrom?: string): Promise<void> {
  const files = await compressibleFiles(dir);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      const body = await readFile(file);
      if (!(reuseFrom && (await reuseTwins(body, path.join(reuseFrom, path.relative(dir, file)), file)))) {
        const [br, gz] = await Promise.all([brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality(file) } }), gzip(body, { level: 9 })]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
      }
      if (++done % 50 === 0 || done === files.length) onProgress(done, files.length);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/**
 * Hashed bundles (`_astro/`) change only with the code and are compressed once, then taken over
 * by later builds: the smallest output. Pages are many and change with the catalogue: quality 6
 * is about ten times faster than 9 on a 60 KB car page for 3% more bytes (100,000 pages).
 */
export function brotliQuality(file: string): number {
  return /[/\\]_astro[/\\]/.test(file) ? 11 : 6;
}

/** Links `previous`'s .br/.gz beside `file` when `previous` holds the same bytes; false when it does not (or has no twins). */
async function reuseTwins(body: Buffer, previous: string, file: string): Promise<boolean> {
  try {
    if (!body.equals(await readFile(previous))) return false;
    await Promise.all(['.br', '.gz'].map((ext) => link(`${previous}${ext}`, `${file}${ext}`)));
    return true;
  } catch {
    // Missing in the previous build, or a twin absent: compress this one.
    await Promise.all(['.br', '.gz'].map((ext) => rm(`${file}${ext}`, { force: true })));
    return false;
  }
}

/** Counts the pages Astro logs as it writes them (lines like `├─ /car/1/index.html (+3ms)`). */
function countPages(onPage: () => void, forward: boolean): void {
  const write = process.stdout.write.bind(process.stdout);
  let pending = '';
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (/\(\+\d+(\.\d+)?m?s\)/.test(line) && /[─└├]/.test(line)) onPage();
    return forward ? write(chunk, ...(rest as [])) : true;
  };
}

async function main(job: BuildJob): Promise<void> {
  const send = (message: ChildMessage) => process.send?.(message);
  let pages = 0;
  let lastSent = 0;
  countPages(() => {
    pages++;
    if (Date.now() - lastSent > 250) {
      lastSent = Date.now();
      send({ type: 'progress', phase: 'pages', done: pages, total: Math.max(job.expectedPages, pages) });
    }
  }, job.verbose);
  send({ type: 'progress', phase: 'bundle', done: 0, total: 1 });
  // Astro loads (about a second) while the snapshot is read.
  const loading = import(pathToFileURL(job.astroEntry).href) as Promise<{ build: (config: Record<string, unknown>) => Promise<void> }>;
  loading.catch(() => {}); // awaited below; a failed read first must not leave it unhandled
  // Fails on a missing or empty snapshot, before anything is built: an empty shop is never published.
  const { settings } = readBuildSnapshot(job.snapshot);
  // The build's own settings (SITE_URL, PUBLIC_*), read by astro.config.mjs and the pages.
  Object.assign(process.env, settings);
  const astro = await loading;
  await astro.build({
    root: job.projectRoot,
    outDir: job.outDir,
    cacheDir: job.cacheDir,
    logLevel: 'info',
    // The staging folder is new and holds the snapshot: Astro must not empty it.
    vite: { build: { emptyOutDir: false } },
    // The storefront integration (astro.config.mjs) reads the snapshot this names.
    integrations: [snapshotFile(job.snapshot)],
  });
  // Read: it is no part of the site.
  await rm(job.snapshot, { force: true });
  const incremental = job.incrementalFrom !== undefined;
  const isSitemap = (rel: string) => /^sitemap[^/]*\.xml/.test(rel);
  if (incremental) {
    // The sitemap lists what this build rendered: the served one (same cars) stays.
    for (const name of await readdir(job.outDir)) if (isSitemap(name)) await rm(path.join(job.outDir, name));
  }
  send({ type: 'pages', pages: incremental ? job.expectedPages : pages });
  await shipPhotos(job.photos.dir, job.photos.names, job.outDir);
  await precompress(job.outDir, (done, total) => send({ type: 'progress', phase: 'compress', done, total }), job.previous);
  // Photos come from the catalogue (shipPhotos above), not from the build before: one removed from every gallery leaves with it.
  const photosPrefix = `${PHOTOS_DIR}${path.sep}`;
  if (job.incrementalFrom) await fillFrom(job.incrementalFrom, job.outDir, (rel) => rel === '.build.json' || rel === CAR_HASHES || rel.startsWith(photosPrefix));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const job = JSON.parse(process.argv[2] ?? '{}') as BuildJob;
  const parentPid = process.ppid;
  watchParent({ parentPid, channel: process, onOrphan: () => process.exit(3) });
  main(job).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
