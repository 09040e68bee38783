import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cp, readdir, rename, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setPriority, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../api/db/client';
import { localVariants } from '../../api/images/store';
import { catalogueSnapshot } from '../../api/services/catalogue-snapshot';
import { photosOf, photoVariantNames } from '../../domain/photos';
import type { BuildSnapshot, CatalogueSnapshot } from '../../domain/catalogue';
import { SNAPSHOT_FILE, writeBuildSnapshot } from '../../integrations/build-snapshot';
import type { BuildJob, ChildMessage } from './build-child';
import { CAR_HASHES, carHashes, changedCars } from './incremental';

const STAMP = '.build.json';
const CHILD = fileURLToPath(new URL('./build-child.ts', import.meta.url));

export interface BuildStamp {
  catalogueVersion: number;
  /** The identity of the database the catalogue came from (catalogue_state.instance_id). */
  database?: string;
  /** Digest of every setting that changes the pages (SITE_URL, the sandbox switch, PUBLIC_*): buildSettingsDigest. */
  settings?: string;
  /** Newest modification time (ms) of the site's sources when it was built. */
  sourceTime: number;
  builtAt: string;
  /** Pages Astro wrote (the next build's progress figure). */
  pages?: number;
  /** sourceTime without src/api and src/host (the incremental build's check). */
  pageSourceTime?: number;
}

/**
 * Newest mtime under the inputs of the static build (pages, components, public assets, config).
 * `pagesOnly` leaves out src/api and src/host: the server's code reaches the pages only through the data it
 * answers, which the incremental build compares per car anyway.
 */
export function sourceTime(projectRoot: string, opts: { pagesOnly?: boolean } = {}): number {
  let newest = 0;
  const serverCode = [path.join(projectRoot, 'src', 'api'), path.join(projectRoot, 'src', 'host')];
  const walk = (p: string) => {
    if (!existsSync(p) || (opts.pagesOnly && serverCode.includes(p))) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(path.join(p, e));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of ['src', 'public', 'astro.config.mjs', 'package-lock.json']) walk(path.join(projectRoot, p));
  return Math.floor(newest);
}

export function readStamp(distDir: string): BuildStamp | null {
  try {
    return JSON.parse(readFileSync(path.join(distDir, STAMP), 'utf8')) as BuildStamp;
  } catch {
    return null;
  }
}

/** What a served build must have been made from to be reused. */
export interface BuildInputs {
  catalogueVersion: number;
  /** Newest modification time of the sources (sourceTime). */
  sources: number;
  database: string;
  settings: string;
}

/**
 * A build is needed when DIST_DIR has none, or it was made from another database (a second
 * DATA_DIR or DATABASE_URL whose version number happens to match), another catalogue version,
 * older sources or other build settings.
 */
export function needsBuild(distDir: string, inputs: BuildInputs): boolean {
  const stamp = readStamp(distDir);
  return (
    !stamp ||
    stamp.catalogueVersion !== inputs.catalogueVersion ||
    stamp.sourceTime < inputs.sources ||
    stamp.database !== inputs.database ||
    stamp.settings !== inputs.settings
  );
}

/**
 * The settings a build bakes into its pages: SITE_URL (canonical links, sitemap), the sandbox
 * switch and every PUBLIC_* variable (keys, contact details, refund policy). They go into the
 * build snapshot and their digest into the stamp, so changing any of them builds again.
 */
export function buildSettings(env: NodeJS.ProcessEnv, extra: Record<string, string | undefined>): { env: Record<string, string>; digest: string } {
  const picked: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (k.startsWith('PUBLIC_') && v !== undefined) picked[k] = v;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) picked[k] = v;
  const sorted = Object.fromEntries(Object.entries(picked).sort(([a], [b]) => a.localeCompare(b)));
  return { env: sorted, digest: createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 32) };
}

/** True when `child` is `parent` or lies under it (not merely a path starting with the same letters). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Where `astro build` writes before the result is moved beside DIST_DIR. Astro bundles the
 * pages' server code into its output folder and runs it from there, so that folder must lie
 * inside the project (where node_modules resolves); a DIST_DIR elsewhere builds under
 * node_modules/.cache/luxe-builds/ and is moved (or copied across file systems) afterwards.
 */
export function stagingDirs(projectRoot: string, distDir: string, id: string): { astroOut: string; next: string } {
  const next = `${distDir}.next-${id}`;
  if (isInside(projectRoot, distDir)) return { astroOut: next, next };
  return { astroOut: path.join(buildCacheDir(projectRoot), `${distKey(distDir)}.next-${id}`), next };
}

const buildCacheDir = (projectRoot: string) => path.join(projectRoot, 'node_modules', '.cache', 'luxe-builds');
const distKey = (distDir: string) => createHash('sha256').update(path.resolve(distDir)).digest('hex').slice(0, 12);

/**
 * Removes what builds that never finished left behind (kill -9, power loss): `<dist>.next-*`
 * and `<dist>.old-*` beside DIST_DIR and this DIST_DIR's staging folders in the project. A
 * folder whose build process still runs on this machine is kept. Returns the folders removed.
 */
export function cleanStaleBuilds(projectRoot: string, distDir: string): string[] {
  const removed: string[] = [];
  const live = currentBuild(distDir);
  const sweep = (dir: string, prefix: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const m = name.startsWith(prefix) ? name.slice(prefix.length).match(/^(next|old|link|live)-(\d+)-\d+$/) : null;
      // A live build stays while DIST_DIR links to it; the others of a process that is gone go.
      if (!m || processRuns(Number(m[2])) || (m[1] === 'live' && name === live)) continue;
      rmSync(path.join(dir, name), { recursive: true, force: true });
      removed.push(path.join(dir, name));
    }
  };
  sweep(path.dirname(path.resolve(distDir)), `${path.basename(distDir)}.`);
  sweep(buildCacheDir(projectRoot), `${distKey(distDir)}.`);
  return removed;
}

/** Whether a process of this machine still runs (EPERM: it runs under another user). */
export function processRuns(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface BuildOptions {
  projectRoot: string;
  distDir: string;
  /** The database the catalogue is read from (the same read as GET /catalogue). */
  db: Db;
  /** DATA_DIR: the photos the pages show are linked into the build from its images/ copy (read from the database when missing). */
  dataDir: string;
  catalogueVersion: number;
  /** Shell command run on the finished folder before it goes live (PUBLISH_COMMAND). */
  publishCommand?: string;
  quiet?: boolean;
  /** 0–100 as the build goes. */
  onProgress?: (progress: number) => void;
  /** Aborting ends the build child (and the publish command) at once. */
  signal?: AbortSignal;
  /** Render every page (publish now, webhook); otherwise only changed car pages when the sources are unchanged. */
  full?: boolean;
  /** Told whether the build rendered only the changed car pages, and how many. */
  onMode?: (mode: { incremental: boolean; cars: number }) => void;
  /** The build settings (buildSettings): they go into the snapshot, their digest into the stamp. */
  settings: { env: Record<string, string>; digest: string };
  /** The database's identity (catalogue_state.instance_id), kept in the stamp. */
  database: string;
}

/**
 * The build snapshot of a catalogue, and its per-car hashes. With `served` (the build being
 * served, when the page sources, database and settings are the same), `onlyCars` names the cars
 * whose data changed since it (null when cars came or went, or too many changed: a full build).
 */
export function snapshotFor(catalogue: CatalogueSnapshot, settings: Record<string, string>, served?: string): { snapshot: BuildSnapshot; hashes: Record<string, string> } {
  const hashes = carHashes(catalogue.cars);
  const onlyCars = served ? changedCars(readJson(path.join(served, CAR_HASHES)), hashes) : null;
  return { snapshot: { catalogue, onlyCars, settings }, hashes };
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** The server's environment for the build child, less what the snapshot and the job say (the build reads those only). */
function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith('PUBLIC_') && !['SITE_URL', 'DIST_DIR', 'ASTRO_CACHE_DIR', 'API_BASE_URL'].includes(k)) out[k] = v;
  // Always a production bundle, even when the server itself runs with NODE_ENV=test.
  return { ...out, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' };
}

/**
 * Builds the site in a child process (astro build and the precompression; see build-child.ts)
 * into a fresh folder, runs PUBLISH_COMMAND on it, then swaps it in for distDir, so the site
 * being served is never half written and a failed build or publish leaves the old site serving.
 * The catalogue is read here, from the database, and handed to the build in its snapshot.
 */
export async function buildSite(opts: BuildOptions): Promise<BuildStamp> {
  const { projectRoot, distDir, catalogueVersion } = opts;
  const started = Date.now();
  const sources = sourceTime(projectRoot);
  const id = `${process.pid}-${started}`;
  const { astroOut, next } = stagingDirs(projectRoot, distDir, id);
  const progress = opts.onProgress ?? (() => {});
  const previous = readStamp(distDir);
  const expectedPages = previous?.pages ?? 0;
  // Same page sources, database and settings as the build being served: only car pages whose data changed are rendered.
  const pageSources = sourceTime(projectRoot, { pagesOnly: true });
  const sameInputs = previous?.database === opts.database && previous?.settings === opts.settings.digest;
  const mayReuse = !opts.full && sameInputs && previous?.pageSourceTime !== undefined && previous.pageSourceTime >= pageSources;
  let pages = 0;
  try {
    // Made now, so a build killed at any point leaves a folder cleanStaleBuilds recognises.
    mkdirSync(astroOut, { recursive: true });
    const { snapshot, hashes } = snapshotFor(await catalogueSnapshot(opts.db), opts.settings.env, mayReuse ? distDir : undefined);
    const incrementalFrom = snapshot.onlyCars ? distDir : undefined;
    opts.onMode?.({ incremental: Boolean(snapshot.onlyCars), cars: snapshot.onlyCars?.length ?? snapshot.catalogue.cars.length });
    const snapshotPath = path.join(astroOut, SNAPSHOT_FILE);
    await writeBuildSnapshot(snapshotPath, snapshot);
    // The variants of every photo the pages show ship with them (photos/): no page view asks the API for an image.
    const photoNames = photosOf([...snapshot.catalogue.cars, ...snapshot.catalogue.butler_cars].map((car) => car.gallery)).flatMap(photoVariantNames);
    const photos = { dir: await localVariants(opts.db, opts.dataDir, photoNames), names: photoNames };
    const astroEntry = createRequire(path.join(projectRoot, 'package.json')).resolve('astro');
    const job: BuildJob = { projectRoot, astroEntry, outDir: astroOut, cacheDir: `${distDir}.cache`, snapshot: snapshotPath, expectedPages, verbose: !opts.quiet, incrementalFrom, previous: previous ? distDir : undefined, photos };
    // The pinned Node 24 from the `node` devDependency, even when started by an older system node.
    const pinnedNode = path.join(projectRoot, 'node_modules', '.bin', 'node');
    await runChild(
      spawn(existsSync(pinnedNode) ? pinnedNode : process.execPath, [`--max-old-space-size=${buildHeapMb()}`, CHILD, JSON.stringify(job)], {
        cwd: projectRoot,
        env: childEnv(process.env),
        stdio: ['ignore', opts.quiet ? 'ignore' : 'inherit', 'pipe', 'ipc'],
      }),
      'astro build',
      opts.signal,
      (m) => {
        if (m.type === 'pages') pages = m.pages;
        else if (m.phase === 'bundle') progress(5);
        else if (m.phase === 'pages') progress(10 + 70 * Math.min(1, m.done / Math.max(1, m.total)));
        else progress(80 + 15 * (m.done / Math.max(1, m.total)));
      },
    );
    if (astroOut !== next) await move(astroOut, next);
    writeFileSync(path.join(next, CAR_HASHES), JSON.stringify(hashes));
    const stamp: BuildStamp = { catalogueVersion, database: opts.database, settings: opts.settings.digest, sourceTime: sources, builtAt: new Date().toISOString(), pages, pageSourceTime: pageSources };
    writeFileSync(path.join(next, STAMP), JSON.stringify(stamp));
    if (opts.publishCommand) {
      progress(96);
      await runPublishCommand(opts.publishCommand, next, catalogueVersion, opts.signal);
    }
    await swapIn(next, distDir, id);
    progress(100);
    return stamp;
  } finally {
    await Promise.all([rm(astroOut, { recursive: true, force: true }), rm(next, { recursive: true, force: true })]);
  }
}

/**
 * Puts a finished build live in one atomic step: DIST_DIR is a symbolic link to the build's folder
 * (`<dist>.live-<id>`), replaced by renaming a new link over it (rename(2) is atomic), so a reader
 * sees the old build or the new one, never a missing or half folder. The build before stays until
 * the next swap (a page of it still finds its hashed assets); older ones are removed. A DIST_DIR
 * that is still a plain folder (an older install) is moved aside once.
 */
export async function swapIn(next: string, distDir: string, id: string): Promise<void> {
  const live = `${distDir}.live-${id}`;
  await rename(next, live);
  const link = `${distDir}.link-${id}`;
  await symlink(path.basename(live), link);
  const before = currentBuild(distDir);
  const legacy = existsSync(distDir) && !before ? `${distDir}.old-${id}` : null;
  if (legacy) await rename(distDir, legacy);
  await rename(link, distDir);
  const keep = new Set([path.basename(live), before].filter(Boolean));
  const dir = path.dirname(path.resolve(distDir));
  const prefix = `${path.basename(distDir)}.live-`;
  for (const name of await readdir(dir)) if (name.startsWith(prefix) && !keep.has(name)) void rm(path.join(dir, name), { recursive: true, force: true });
  if (legacy) void rm(legacy, { recursive: true, force: true });
}

/** The folder name DIST_DIR links to, or null when it is no link. */
export function currentBuild(distDir: string): string | null {
  try {
    return path.basename(readlinkSync(distDir));
  } catch {
    return null;
  }
}

/**
 * The build child's heap limit: half the machine's memory, never below V8's own default of about
 * 4 GB. 100,000 cars peaked at 2.4 GB RSS; the headroom is for larger catalogues and pages.
 */
export function buildHeapMb(total = totalmem()): number {
  return Math.max(4096, Math.floor(total / 2 / 1024 / 1024));
}

/**
 * PUBLISH_COMMAND through `sh -c`, with the finished folder as `$1` and in `PUBLISH_DIR`, the
 * catalogue version in `PUBLISH_VERSION`. A non-zero exit fails the build with the command's
 * last output.
 */
export async function runPublishCommand(command: string, dir: string, catalogueVersion: number, signal?: AbortSignal): Promise<void> {
  const child = spawn('sh', ['-c', command, 'publish', dir], {
    env: { ...process.env, PUBLISH_DIR: dir, PUBLISH_VERSION: String(catalogueVersion) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await runChild(child, 'PUBLISH_COMMAND', signal);
}

/** Waits for a child; kills it when the signal aborts; rejects with its exit code and last output. */
function runChild(child: ChildProcess, name: string, signal?: AbortSignal, onMessage?: (m: ChildMessage) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Builds share the machine with the server: let the server's requests go first.
    if (child.pid) {
      try {
        setPriority(child.pid, 10);
      } catch {
        /* not permitted here: run at normal priority */
      }
    }
    let output = '';
    const keep = (d: Buffer) => (output = (output + d.toString('utf8')).slice(-8000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    if (onMessage) child.on('message', (m) => onMessage(m as ChildMessage));
    const abort = () => {
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    };
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    child.on('error', reject);
    child.on('exit', (code, sig) => {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) reject(new Error(`${name} stopped: the server is shutting down`));
      else if (code === 0) resolve();
      else reject(new Error(`${name} failed (${sig ? `signal ${sig}` : `exit ${code}`})${output.trim() ? `:\n${output.trim().slice(-4000)}` : ''}`));
    });
  });
}

/** rename, or a copy when the folders are on different file systems. */
async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(from, to, { recursive: true });
    await rm(from, { recursive: true, force: true });
  }
}
