import { spawn } from 'node:child_process';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { existsSync, readdirSync, readFileSync, rmSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const STAMP = '.build.json';

export interface BuildStamp {
  catalogueVersion: number;
  /** Newest modification time (ms) of the site's sources when it was built. */
  sourceTime: number;
  builtAt: string;
}

/** Newest mtime under the inputs of the static build (pages, components, public assets, config). */
export function sourceTime(projectRoot: string): number {
  let newest = 0;
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(path.join(p, e));
    else newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of ['src', 'public', 'astro.config.mjs', 'tailwind.config.mjs', 'package-lock.json']) walk(path.join(projectRoot, p));
  return Math.floor(newest);
}

export function readStamp(distDir: string): BuildStamp | null {
  try {
    return JSON.parse(readFileSync(path.join(distDir, STAMP), 'utf8')) as BuildStamp;
  } catch {
    return null;
  }
}

/** A build is needed when dist/ is missing, or older than the catalogue or the sources. */
export function needsBuild(distDir: string, catalogueVersion: number, sources: number): boolean {
  const stamp = readStamp(distDir);
  return !stamp || stamp.catalogueVersion !== catalogueVersion || stamp.sourceTime < sources;
}

/**
 * Runs `astro build` against a running API into a fresh folder, then swaps it in for
 * distDir, so the site being served is never half written.
 */
export async function buildSite(opts: { projectRoot: string; distDir: string; apiBaseUrl: string; catalogueVersion: number; quiet?: boolean }): Promise<void> {
  const { projectRoot, distDir, apiBaseUrl, catalogueVersion } = opts;
  const started = Date.now();
  const sources = sourceTime(projectRoot);
  const next = `${distDir}.next-${process.pid}-${started}`;
  const astroBin = path.join(path.dirname(createRequire(path.join(projectRoot, 'package.json')).resolve('astro/package.json')), 'bin', 'astro.mjs');
  await new Promise<void>((resolve, reject) => {
    // The pinned Node 24 from the `node` devDependency, even when started by an older system node.
    const pinnedNode = path.join(projectRoot, 'node_modules', '.bin', 'node');
    const child = spawn(existsSync(pinnedNode) ? pinnedNode : process.execPath, [astroBin, 'build'], {
      cwd: projectRoot,
      // Always a production bundle, even when the server itself runs with NODE_ENV=test.
      env: { ...process.env, NODE_ENV: 'production', DIST_DIR: next, API_BASE_URL: apiBaseUrl, ASTRO_CACHE_DIR: `${distDir}.cache`, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: opts.quiet ? ['ignore', 'ignore', 'pipe'] : 'inherit',
    });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`astro build failed (exit ${code})${stderr ? `:\n${stderr.slice(-4000)}` : ''}`))));
  }).catch((err) => {
    rmSync(next, { recursive: true, force: true });
    throw err;
  });
  precompress(next);
  const stamp: BuildStamp = { catalogueVersion, sourceTime: sources, builtAt: new Date().toISOString() };
  writeFileSync(path.join(next, STAMP), JSON.stringify(stamp));
  const old = `${distDir}.old-${process.pid}-${started}`;
  if (existsSync(distDir)) renameSync(distDir, old);
  renameSync(next, distDir);
  rmSync(old, { recursive: true, force: true });
}

const COMPRESSIBLE = /\.(html|js|css|svg|xml|json|txt|webmanifest)$/;

/** Writes .br and .gz beside every compressible file over 1 KB, as a CDN would serve them. */
export function precompress(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) precompress(file);
    else if (COMPRESSIBLE.test(entry.name) && statSync(file).size > 1024) {
      const body = readFileSync(file);
      writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }));
      writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    }
  }
}
