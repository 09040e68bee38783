import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { copyFile, cp, link, mkdir, readdir, rename, rm, rmdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Db } from '../../api/db/client';
import { localVariants } from '../../api/images/store';
import { liveCarChunks } from '../../api/services/catalogue';
import { readForBuild, readForEdit } from '../../api/services/catalogue-snapshot';
import { shippedVariantNames } from '../../domain/photos';
import { SNAPSHOT_FILE, streamBuildSnapshot } from '../../integrations/build-snapshot';
import type { CatalogueChanges, CatalogueDelta, CatalogueUpdate, ChildMessage, FullJob, PagesJob, PagesResult } from './child/messages';
import { PHOTOS_DIR } from './child/photos';
import { CAR_VERSIONS, changedParts, partDigests, planChanges } from './incremental';
import { ColdBuilder, endChild, lowerPriority, SiteBuilder } from './site-builder';

const STAMP = '.build.json';

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
  /** Digests of the catalogue's parts besides the cars, and of the brands and models, it was made from (incremental.ts). */
  parts?: Record<string, string>;
  models?: string;
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
  /** PUBLISH_COMMAND takes an edit's changed files only (PUBLISH_MODE=changes); else it is given a whole folder every time. */
  publishChanges?: boolean;
  quiet?: boolean;
  /** 0–100 as the build goes. */
  onProgress?: (progress: number) => void;
  /** Aborting ends the build child (and the publish command) at once. */
  signal?: AbortSignal;
  /** Render every page (publish now, webhook); otherwise only the pages an edit changed when the sources are unchanged. */
  full?: boolean;
  /** Told whether the build rendered only the pages an edit changed, and how many. */
  onMode?: (mode: { incremental: boolean; pages: number }) => void;
  /** The build settings (buildSettings): they go into the snapshot, their digest into the stamp. */
  settings: { env: Record<string, string>; digest: string };
  /** The database's identity (catalogue_state.instance_id), kept in the stamp. */
  database: string;
  /** The replica's build child (kept warm between builds); without it, one for this build alone. */
  builder?: SiteBuilder;
}

function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/**
 * Writes the whole catalogue's snapshot from a full read (readForBuild), the cars chunk by chunk;
 * answers how many cars it has and the photo variants they and the butler fleet show.
 */
async function writeFullSnapshot(file: string, read: Awaited<ReturnType<typeof readForBuild>>, settings: Record<string, string>): Promise<{ cars: number; photos: string[] }> {
  const photos = new Set(shippedVariantNames(read.rest.butler_cars));
  let cars = 0;
  async function* counted() {
    for await (const chunk of read.cars()) {
      cars += chunk.length;
      for (const name of shippedVariantNames(chunk)) photos.add(name);
      yield chunk;
    }
  }
  await streamBuildSnapshot(file, { settings, rest: read.rest }, counted());
  return { cars, photos: [...photos] };
}

/**
 * Publishes the catalogue. When the served build was made from the same page sources, database
 * and settings, only the pages an edit changed are rendered again, by the warm build child, and
 * put into the served build (putChanges); otherwise, or when told (`full`), the whole site is
 * built into a fresh folder (buildAll). A failed build or publish changes nothing served.
 */
export async function buildSite(opts: BuildOptions): Promise<BuildStamp> {
  const builder = opts.builder ?? new SiteBuilder({ projectRoot: opts.projectRoot, quiet: opts.quiet ?? true });
  try {
    const previous = readStamp(opts.distDir);
    const pageSources = sourceTime(opts.projectRoot, { pagesOnly: true });
    const sameInputs = previous?.database === opts.database && previous.settings === opts.settings.digest && previous.pageSourceTime !== undefined && previous.pageSourceTime >= pageSources;
    if (!opts.full && previous?.parts && previous.models && sameInputs) {
      const stamp = await putChanges(opts, builder, previous);
      if (stamp) return stamp;
    }
    return await buildAll(opts, builder);
  } finally {
    if (!opts.builder) builder.stop();
  }
}

/** What the build child was warmed with: the page sources and settings (a child warmed with others is replaced). */
const builderKey = (opts: Pick<BuildOptions, 'settings' | 'projectRoot' | 'database'>) => `${opts.settings.digest}:${sourceTime(opts.projectRoot, { pagesOnly: true })}:${opts.database}`;

const astroEntry = (projectRoot: string) => createRequire(path.join(projectRoot, 'package.json')).resolve('astro');

/** Progress of the child's messages on the build's 0–100 scale. */
function progressOf(progress: (p: number) => void) {
  return (m: ChildMessage) => {
    if (m.type !== 'progress') return;
    if (m.phase === 'bundle') progress(5);
    else if (m.phase === 'pages') progress(10 + 70 * Math.min(1, m.done / Math.max(1, m.total)));
    else progress(80 + 15 * (m.done / Math.max(1, m.total)));
  };
}

/**
 * The whole site, built in the build child (astro build and the precompression; see
 * build-child.ts) into a fresh folder; PUBLISH_COMMAND runs on it, then it is swapped in for
 * distDir, so the site being served is never half written. The catalogue is read here, from the
 * database, and handed to the build in its snapshot.
 */
async function buildAll(opts: BuildOptions, builder: SiteBuilder): Promise<BuildStamp> {
  const { projectRoot, distDir, catalogueVersion } = opts;
  const started = Date.now();
  const sources = sourceTime(projectRoot);
  const pageSources = sourceTime(projectRoot, { pagesOnly: true });
  const id = `${process.pid}-${started}`;
  const { astroOut, next } = stagingDirs(projectRoot, distDir, id);
  const progress = opts.onProgress ?? (() => {});
  const previous = readStamp(distDir);
  try {
    // Made now, so a build killed at any point leaves a folder cleanStaleBuilds recognises.
    mkdirSync(astroOut, { recursive: true });
    const read = await readForBuild(opts.db);
    const snapshotPath = path.join(astroOut, SNAPSHOT_FILE);
    const written = await writeFullSnapshot(snapshotPath, read, opts.settings.env);
    opts.onMode?.({ incremental: false, pages: written.cars });
    const photos = { dir: await localVariants(opts.db, opts.dataDir, written.photos), names: written.photos };
    const job: FullJob = { kind: 'full', projectRoot, astroEntry: astroEntry(projectRoot), outDir: astroOut, cacheDir: `${distDir}.cache`, snapshot: snapshotPath, expectedPages: previous?.pages ?? 0, verbose: !opts.quiet, previous: previous ? distDir : undefined, photos };
    const pages = await builder.full(job, builderKey(opts), opts.signal, progressOf(progress));
    if (astroOut !== next) await move(astroOut, next);
    writeFileSync(path.join(next, CAR_VERSIONS), JSON.stringify(read.versions));
    const stamp: BuildStamp = { catalogueVersion, database: opts.database, settings: opts.settings.digest, sourceTime: sources, builtAt: new Date().toISOString(), pages, pageSourceTime: pageSources, parts: partDigests(read.rest), models: read.models };
    writeFileSync(path.join(next, STAMP), JSON.stringify(stamp));
    if (opts.publishCommand) {
      progress(96);
      await runPublishCommand(opts.publishCommand, next, catalogueVersion, opts.signal, { mode: 'full' });
    }
    await swapIn(next, distDir, id);
    builder.holds = stamp.builtAt;
    progress(100);
    return stamp;
  } finally {
    await Promise.all([rm(astroOut, { recursive: true, force: true }), rm(next, { recursive: true, force: true })]);
  }
}

/**
 * An edit: the changes since the served build (incremental.ts) rendered again by the warm build
 * child into a folder of their own, PUBLISH_COMMAND run on them (PUBLISH_MODE=changes) or on a
 * whole folder, and then put into the served build file by file, each a rename (a reader gets
 * the old file or the new one, never half of one), the stamp last. Null when only a full build
 * will do (the brands or models changed, too many cars changed, or the child cannot render
 * with the same assets as the served build).
 */
async function putChanges(opts: BuildOptions, builder: SiteBuilder, previous: BuildStamp): Promise<BuildStamp | null> {
  const { projectRoot, distDir } = opts;
  const served = currentLive(distDir);
  const servedVersions = readJson<Record<string, string>>(path.join(served, CAR_VERSIONS));
  if (!servedVersions || !previous.parts || !previous.models) return null;
  const servedCatalogue = { versions: servedVersions, parts: previous.parts, models: previous.models };
  let planned: ReturnType<typeof planChanges> = null;
  const read = await readForEdit(opts.db, (versions, models) => {
    planned = planChanges(servedCatalogue, { versions, models });
    return planned && [...planned.changed, ...planned.added];
  });
  const plan = planned as ReturnType<typeof planChanges>;
  if (!plan || !read.data) return null;
  const { rest, cars } = read.data;
  const parts = partDigests(rest);
  const changes: CatalogueChanges = { ...plan, parts: changedParts(previous.parts, parts) };
  const id = `${process.pid}-${Date.now()}`;
  const stage = `${distDir}.next-${id}`;
  const progress = opts.onProgress ?? (() => {});
  try {
    mkdirSync(stage, { recursive: true });
    // The child applies the change to the catalogue it holds when that is the served build's; else it is given all of it.
    let update: CatalogueUpdate;
    let shown: string[];
    if (builder.holds === previous.builtAt) {
      update = { delta: path.join(stage, '.delta.json') };
      const delta: CatalogueDelta = { liveIds: Object.keys(read.versions).map(Number), cars, rest };
      writeFileSync(update.delta, JSON.stringify(delta));
      shown = shippedVariantNames(cars, rest.butler_cars);
    } else {
      update = { full: path.join(stage, SNAPSHOT_FILE) };
      // Read after the versions: any car newer than they say is rendered again by the next edit.
      shown = (await writeFullSnapshot(update.full, { ...read, rest, cars: () => liveCarChunks(opts.db) }, opts.settings.env)).photos;
    }
    const have = new Set(readdirSafe(path.join(served, PHOTOS_DIR)));
    const names = shown.filter((name) => !have.has(name));
    const photos = { dir: await localVariants(opts.db, opts.dataDir, names), names };
    const warmUp = { projectRoot, astroEntry: astroEntry(projectRoot), cacheDir: `${distDir}.cache`, snapshot: 'full' in update ? update.full : '', verbose: !opts.quiet };
    const job: PagesJob = { kind: 'pages', outDir: path.join(stage, 'site'), served, update, changes, warmUp, photos };
    let result: PagesResult;
    try {
      result = await builder.pages(job, builderKey(opts), opts.signal, progressOf(progress));
    } catch (err) {
      if (err instanceof ColdBuilder) return null;
      throw err;
    } finally {
      // The child holds this edit's catalogue now, which is served only once it is put in place below.
      builder.holds = null;
    }
    opts.onMode?.({ incremental: true, pages: result.pages });
    const stamp: BuildStamp = { ...previous, catalogueVersion: opts.catalogueVersion, builtAt: new Date().toISOString(), parts, sourceTime: Math.max(previous.sourceTime, sourceTime(projectRoot)) };
    const site = path.join(stage, 'site');
    writeFileSync(path.join(site, CAR_VERSIONS), JSON.stringify(read.versions));
    writeFileSync(path.join(site, STAMP), JSON.stringify(stamp));
    const written = [...result.written, ...photos.names.map((name) => path.join(PHOTOS_DIR, name)), CAR_VERSIONS, STAMP];
    if (opts.publishCommand && !opts.publishChanges) {
      // A PUBLISH_COMMAND that takes whole folders: the served build with these files, as hard links, is one.
      const whole = `${distDir}.next-whole-${id}`;
      await copyWithChanges(served, site, whole, written, result.removed);
      try {
        progress(96);
        await runPublishCommand(opts.publishCommand, whole, opts.catalogueVersion, opts.signal, { mode: 'full' });
        await swapIn(whole, distDir, id);
      } finally {
        await rm(whole, { recursive: true, force: true });
      }
    } else {
      if (opts.publishCommand) {
        progress(96);
        const removedList = path.join(stage, 'removed.txt');
        writeFileSync(removedList, result.removed.map((rel) => `${rel}\n`).join(''));
        await runPublishCommand(opts.publishCommand, site, opts.catalogueVersion, opts.signal, { mode: 'changes', removed: removedList });
      }
      await putInPlace(site, served, written, result.removed);
    }
    builder.holds = stamp.builtAt;
    progress(100);
    return stamp;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/**
 * Warms the build child for the next edit when the server starts with a build it reuses (a
 * restart): the child is given the catalogue as it is now and builds the pages that are not car
 * pages and one car page into a folder thrown away. Without it the first edit after a restart
 * pays for that. Resolves whether or not it worked (a cold child is warmed by the edit instead).
 */
export async function warmBuilder(opts: Pick<BuildOptions, 'projectRoot' | 'distDir' | 'db' | 'dataDir' | 'quiet' | 'settings' | 'database' | 'signal'> & { builder: SiteBuilder }): Promise<boolean> {
  const served = readStamp(opts.distDir);
  if (!served) return false;
  const stage = `${opts.distDir}.next-${process.pid}-${Date.now()}`;
  try {
    mkdirSync(stage, { recursive: true });
    const update = { full: path.join(stage, SNAPSHOT_FILE) };
    // Read after the served build was made: the child's catalogue is never older than the served one.
    await writeFullSnapshot(update.full, await readForBuild(opts.db), opts.settings.env);
    const warmUp = { projectRoot: opts.projectRoot, astroEntry: astroEntry(opts.projectRoot), cacheDir: `${opts.distDir}.cache`, snapshot: update.full, verbose: !opts.quiet };
    const none: CatalogueChanges = { changed: [], added: [], removed: [], parts: [] };
    const job: PagesJob = { kind: 'pages', outDir: path.join(stage, 'site'), served: currentLive(opts.distDir), update, changes: none, warmUp, photos: { dir: stage, names: [] } };
    await opts.builder.pages(job, builderKey(opts), opts.signal);
    opts.builder.holds = served.builtAt;
    return true;
  } catch {
    return false;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

const readdirSafe = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** The folder DIST_DIR serves (its link's target, or itself). */
function currentLive(distDir: string): string {
  const live = currentBuild(distDir);
  return live ? path.join(path.dirname(path.resolve(distDir)), live) : path.resolve(distDir);
}

/**
 * Puts `files` (paths in the site) from `from` into the served folder `into`, each by rename (its
 * twins and pages before the stamp, which `files` names last), and removes `removed`. Files
 * of one folder are renamed over each other, so a reader never meets a missing or half file.
 */
export async function putInPlace(from: string, into: string, files: readonly string[], removed: readonly string[]): Promise<void> {
  const made = new Set<string>();
  for (const rel of files) {
    const target = path.join(into, rel);
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    await rename(path.join(from, rel), target);
  }
  for (const rel of removed) await rm(path.join(into, rel), { force: true });
  // A removed car's folder, once empty.
  for (const dir of new Set(removed.map((rel) => path.dirname(path.join(into, rel))))) await rmdir(dir).catch(() => {});
}

/** `whole` = the served build as hard links, with `files` from `from` over it and without `removed`. */
async function copyWithChanges(served: string, from: string, whole: string, files: readonly string[], removed: readonly string[]): Promise<void> {
  const replaced = new Set([...files, ...removed]);
  for (const entry of await readdir(served, { withFileTypes: true, recursive: true })) {
    const source = path.join(entry.parentPath, entry.name);
    const rel = path.relative(served, source);
    const target = path.join(whole, rel);
    if (entry.isDirectory()) await mkdir(target, { recursive: true });
    else if (!replaced.has(rel)) {
      await mkdir(path.dirname(target), { recursive: true });
      await link(source, target).catch(() => copyFile(source, target));
    }
  }
  for (const rel of files) {
    await mkdir(path.dirname(path.join(whole, rel)), { recursive: true });
    await copyFile(path.join(from, rel), path.join(whole, rel));
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
 * PUBLISH_COMMAND through `sh -c`, with the folder as `$1` and in `PUBLISH_DIR`, the catalogue
 * version in `PUBLISH_VERSION` and `PUBLISH_MODE`: `full` (the whole site) or `changes` (an
 * edit's changed files only, with the site files to remove listed one per line in the file
 * `PUBLISH_REMOVED`). A non-zero exit fails the build with the command's last output.
 */
export async function runPublishCommand(command: string, dir: string, catalogueVersion: number, signal?: AbortSignal, what: { mode: 'full' } | { mode: 'changes'; removed: string } = { mode: 'full' }): Promise<void> {
  const child = spawn('sh', ['-c', command, 'publish', dir], {
    env: { ...process.env, PUBLISH_DIR: dir, PUBLISH_VERSION: String(catalogueVersion), PUBLISH_MODE: what.mode, ...(what.mode === 'changes' ? { PUBLISH_REMOVED: what.removed } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await runChild(child, 'PUBLISH_COMMAND', signal);
}

/** Waits for a child; kills it when the signal aborts; rejects with its exit code and last output. */
function runChild(child: ChildProcess, name: string, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    lowerPriority(child);
    let output = '';
    const keep = (d: Buffer) => (output = (output + d.toString('utf8')).slice(-8000));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const abort = () => endChild(child);
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
