/**
 * The stamp (`.build.json`) every build writes beside its pages: what it was made from (catalogue
 * version, database, settings, the sources' time, the catalogue's digests). A start reuses a
 * build whose stamp matches (needsBuild); an edit is rendered into it only when its page sources,
 * database and settings are the same.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The stamp's file name in a build's folder (put in place last: it says the build is whole). */
export const STAMP = '.build.json';

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

export function writeStamp(dir: string, stamp: BuildStamp): void {
  writeFileSync(path.join(dir, STAMP), JSON.stringify(stamp));
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
