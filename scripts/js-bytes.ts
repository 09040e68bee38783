import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

/**
 * JavaScript bytes per page of a built site (`npm run bench` reports them; docs/performance.md).
 *
 *   npx tsx scripts/js-bytes.ts <dist> [<dist before>]
 *
 * prints each page's brotli bytes (and the change against the other build): every `_astro/*.js`
 * its HTML names and their static and dynamic imports, each file once, brotli 11 as the publisher
 * compresses bundles (its .br twin when the build has one), inline scripts raw.
 */

/** A file's brotli 11 bytes, as src/host/publish/child/precompress.ts writes the bundles' twins. */
function brotli11(file: string): number {
  const body = readFileSync(file);
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }).length;
}

/** What the server sends for a file: its .br twin when there is one (a published build), else the file. */
const sentBytes = (file: string) => statSync(existsSync(`${file}.br`) ? `${file}.br` : file).size;

/**
 * JS a page references: inline scripts, module scripts and everything they import, each file
 * once, including islands that hydrate only when scrolled into view. Raw bytes and the brotli
 * bytes: the .br twins a published build serves, or (`compress`) brotli 11 of each file.
 */
export function jsBytes(distDir: string, page: string, opts: { compress?: boolean } = {}): { raw: number; brotli: number } {
  const html = readFileSync(path.join(distDir, page), 'utf8');
  const seen = new Set<string>();
  const queue = [...html.matchAll(/\/_astro\/[\w.-]+\.js/g)].map((m) => m[0]);
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].reduce((n, m) => n + Buffer.byteLength(m[1]), 0);
  while (queue.length) {
    const url = queue.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const code = readFileSync(path.join(distDir, url), 'utf8');
    for (const m of code.matchAll(/["'](?:\.\/|\/_astro\/)([\w.-]+\.js)["']/g)) queue.push(`/_astro/${m[1]}`);
  }
  const files = [...seen].map((url) => path.join(distDir, url));
  const compressed = opts.compress ? brotli11 : sentBytes;
  return {
    raw: inline + files.reduce((n, f) => n + statSync(f).size, 0),
    brotli: inline + files.reduce((n, f) => n + compressed(f), 0),
  };
}

/** Every page (index.html) under distDir, relative to it. */
export function pagesOf(distDir: string): string[] {
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

/** The pages the bench reports: one car page of many (/car/1) and the fallback. */
export const benchPages = (distDir: string) => pagesOf(distDir).filter((p) => !/^car\/(?!1\/|fallback)/.test(p)).sort();

/** A page's path as the site serves it. */
export const pageUrl = (page: string) => `/${page.replace(/index\.html$/, '')}`;

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [after, before] = process.argv.slice(2);
  if (!after) {
    console.error('usage: npx tsx scripts/js-bytes.ts <dist> [<dist before>]');
    process.exit(2);
  }
  for (const page of benchPages(after)) {
    const now = jsBytes(after, page, { compress: true }).brotli;
    const then = before && existsSync(path.join(before, page)) ? jsBytes(before, page, { compress: true }).brotli : null;
    const change = then === null ? '' : now === then ? '\tunchanged' : `\t${then} -> ${now} (${now > then ? '+' : ''}${now - then})`;
    console.log(`${pageUrl(page)}\t${now}${change}`);
  }
}
