/**
 * The brotli and gzip twins (.br, .gz) a build writes beside its files, as a CDN would serve
 * them, in the compression workers of src/api/compression.ts.
 */
import { link, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pMap from 'p-map';
import { compress, type Levels } from '../../../api/compression.ts';

const COMPRESSIBLE = /\.(html|js|css|svg|xml|json|txt|webmanifest)$/;
/** Files at most this large are sent as they are (compression would not pay for itself). */
const COMPRESS_MIN_BYTES = 1024;

/** Whether a file of this name and size gets compressed twins. */
export const isCompressible = (file: string, bytes: number): boolean => bytes > COMPRESS_MIN_BYTES && COMPRESSIBLE.test(file);

/**
 * Hashed bundles (`_astro/`) change only with the code and are compressed once, then taken over
 * by later builds: the smallest output. Pages are many and change with the catalogue: quality 6
 * is about ten times faster than 9 on a car page for 3% more bytes; gzip level 6 likewise.
 */
export function compressionLevels(file: string): Levels {
  return /[/\\]_astro[/\\]/.test(file) ? { brotli: 11, gzip: 9 } : { brotli: 6, gzip: 6 };
}

/** A site file and its compressed twins (paths). */
export const withTwins = (rel: string) => [rel, `${rel}.br`, `${rel}.gz`];

/** Writes `file`'s brotli and gzip twins (.br, .gz) from its bytes. */
export async function writeTwins(file: string, body: Buffer): Promise<void> {
  const levels = compressionLevels(file);
  const [br, gz] = await Promise.all([compress(body, 'br', levels), compress(body, 'gzip', levels)]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}

/** Every compressible file over 1 KB under dir. */
async function compressibleFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await stat(file)).size > COMPRESS_MIN_BYTES) out.push(file);
  }
  return out;
}

/**
 * Writes .br and .gz beside every compressible file over 1 KB that `done` does not name, as a CDN
 * would serve them, in the compression workers. With `reuseFrom` (the build being served), a
 * file whose bytes are the same there takes over its twins as hard links: the unchanged bundles
 * are not compressed again.
 */
export async function precompress(dir: string, opts: { done?: ReadonlySet<string>; reuseFrom?: string; onProgress?: (done: number, total: number) => void } = {}): Promise<void> {
  const files = (await compressibleFiles(dir)).filter((file) => !opts.done?.has(file));
  let done = 0;
  // Four files at a time keep the compression workers busy without holding many files in memory.
  await pMap(
    files,
    async (file) => {
      await twinsOf(file, await readFile(file), opts.reuseFrom && path.join(opts.reuseFrom, path.relative(dir, file)));
      if (++done % 50 === 0 || done === files.length) opts.onProgress?.(done, files.length);
    },
    { concurrency: 4 },
  );
}

/**
 * Writes `file`'s twins, or, when `previous` (the same file in the build being served) holds
 * the same bytes, links its twins instead: a rebuild compresses only the pages that changed.
 */
export async function twinsOf(file: string, body: Buffer, previous?: string): Promise<void> {
  if (!(previous && (await reuseTwins(body, previous, file)))) await writeTwins(file, body);
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
