/**
 * The storefront build, in a child process of the server (see rebuild.ts): `astro build` into a
 * staging folder, then the brotli/gzip twins of every compressible file. None of this runs on
 * the server's event loop, and the child ends by itself when the server goes away (stop(), a
 * signal, or kill -9 of the server: the IPC channel closes and the parent pid changes).
 *
 * Run by Node directly (type stripping), so it imports only node: modules and Astro by path.
 * Usage: node build-child.ts '<json BuildJob>'; progress and the outcome go over IPC.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export interface BuildJob {
  projectRoot: string;
  /** Absolute path of astro's entry (astro/dist/index.js) as the server resolved it. */
  astroEntry: string;
  /** Where `astro build` writes (DIST_DIR of the build). */
  outDir: string;
  /** Pages the previous build wrote, for the progress figure (0 when unknown). */
  expectedPages: number;
  /** Forward Astro's log to stdout. */
  verbose: boolean;
}

/** Progress and outcome messages to the server. */
export type ChildMessage = { type: 'progress'; phase: 'bundle' | 'pages' | 'compress'; done: number; total: number } | { type: 'pages'; pages: number };

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
 * asynchronous calls run on libuv's thread pool, a few files at a time.
 */
export async function precompress(dir: string, onProgress: (done: number, total: number) => void = () => {}): Promise<void> {
  const files = await compressibleFiles(dir);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      const body = await readFile(file);
      const [br, gz] = await Promise.all([brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }), gzip(body, { level: 9 })]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
      if (++done % 50 === 0 || done === files.length) onProgress(done, files.length);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** Counts the pages Astro logs as it writes them (lines like `├─ /car/1/index.html (+3ms)`). */
function countPages(onPage: () => void, forward: boolean): void {
  const write = process.stdout.write.bind(process.stdout);
  let pending = '';
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    pending += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (/\(\+\d+(\.\d+)?m?s\)/.test(line) && /[─└├]/.test(line)) onPage();
    return forward ? write(chunk, ...(rest as [])) : true;
  }) as typeof process.stdout.write;
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
  const astro = (await import(pathToFileURL(job.astroEntry).href)) as { build: (config: Record<string, unknown>) => Promise<void> };
  await astro.build({ root: job.projectRoot, logLevel: 'info' });
  send({ type: 'pages', pages });
  await precompress(job.outDir, (done, total) => send({ type: 'progress', phase: 'compress', done, total }));
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
