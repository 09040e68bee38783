/**
 * The folders of builds beside DIST_DIR: staging (`<dist>.next-<id>`), live (`<dist>.live-<id>`,
 * which DIST_DIR links to), and how a finished build or an edit's files go live without a reader
 * ever seeing a missing or half file. A start removes what builds that never finished left.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { copyFile, cp, link, mkdir, readdir, rename, rm, rmdir, symlink } from 'node:fs/promises';
import path from 'node:path';

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
 * (Astro's own guard is no help: it compares path prefixes, so /srv/luxe-dist passes for a
 * folder of /srv/luxe, and its fallback, the project's .astro/, is one folder for every replica.)
 */
export function stagingDirs(projectRoot: string, distDir: string, id: string): { astroOut: string; next: string } {
  const next = `${distDir}.next-${id}`;
  if (isInside(projectRoot, distDir)) return { astroOut: next, next };
  return { astroOut: path.join(buildCacheDir(projectRoot), `${distKey(distDir)}.next-${id}`), next };
}

/**
 * Where a cold build child's warm-up (edit-build.ts) builds: thrown away afterwards, but Astro
 * runs the pages' server code from it, so it lies in the project as a full build's does,
 * whatever DIST_DIR is.
 */
export function warmUpDir(projectRoot: string, distDir: string, id: string): string {
  return path.join(buildCacheDir(projectRoot), `${distKey(distDir)}.warm-${id}`);
}

const buildCacheDir = (projectRoot: string) => path.join(projectRoot, 'node_modules', '.cache', 'luxe-builds');
const distKey = (distDir: string) => createHash('sha256').update(path.resolve(distDir)).digest('hex').slice(0, 12);

/**
 * Removes what builds that never finished left behind (kill -9, power loss): `<dist>.next-*`
 * and `<dist>.old-*` beside DIST_DIR and this DIST_DIR's staging and warm-up folders in the project. A
 * folder whose build process still runs on this machine is kept. Returns the folders removed.
 */
export function cleanStaleBuilds(projectRoot: string, distDir: string): string[] {
  const removed: string[] = [];
  const live = currentBuild(distDir);
  const sweep = (dir: string, prefix: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const m = name.startsWith(prefix) ? name.slice(prefix.length).match(/^(next|old|link|live|warm)-(\d+)-\d+$/) : null;
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

/** The file names in a folder, none when it is missing. */
export const readdirSafe = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** The folder DIST_DIR serves (its link's target, or itself). */
export function currentLive(distDir: string): string {
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
export async function copyWithChanges(served: string, from: string, whole: string, files: readonly string[], removed: readonly string[]): Promise<void> {
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

/** rename, or a copy when the folders are on different file systems. */
export async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await cp(from, to, { recursive: true });
    await rm(from, { recursive: true, force: true });
  }
}
