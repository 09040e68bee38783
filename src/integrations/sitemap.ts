/**
 * sitemap-index.xml and its sitemap-N.xml files (the sitemaps.org protocol, at most 45,000 URLs a
 * file, under the 50,000 it allows) for the pages of a build. Written by every full build (the
 * storefront integration) and again by an edit that adds or removes pages (src/host/publish/child/worker.ts).
 *
 * Loaded by Node directly in the build child (type stripping): node: modules only.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const SITEMAP_INDEX = 'sitemap-index.xml';
export const URLS_PER_SITEMAP = 45_000;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

/** Pathnames in a stable order: by path, numbers in it compared as numbers (/car/2/ before /car/10/). */
const collator = new Intl.Collator('en', { numeric: true });

/** A pathname URL would take as it is (no dot segments, nothing to encode or escape): joined to the origin without a URL object. */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9_~/-]*$/;

/** The files (name → XML) of the sitemap of `pathnames` on `site`. */
export function sitemapFiles(site: string, pathnames: readonly string[]): Map<string, string> {
  const origin = new URL(site).origin;
  // At 100,000 pages a URL object and five replaces each were a third of an edit's sitemap.
  const urls = [...new Set(pathnames)].sort(collator.compare).map((p) => (PLAIN_PATH.test(p) ? origin + p : escape(new URL(p, site).href)));
  const files = new Map<string, string>();
  const names: string[] = [];
  for (let i = 0; i === 0 || i * URLS_PER_SITEMAP < urls.length; i++) {
    const name = `sitemap-${i}.xml`;
    const entries = urls.slice(i * URLS_PER_SITEMAP, (i + 1) * URLS_PER_SITEMAP).map((loc) => `<url><loc>${loc}</loc></url>`);
    files.set(name, `${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`);
    names.push(name);
  }
  const index = names.map((name) => `<sitemap><loc>${escape(new URL(name, site).href)}</loc></sitemap>`).join('');
  files.set(SITEMAP_INDEX, `${HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${index}</sitemapindex>`);
  return files;
}

/**
 * Writes the sitemap of `pathnames` into `dir`; answers the files' names and those it wrote.
 * With `served` (an edit: the served build's folder), a file with the same XML there is not
 * written again: a car added at the end of 100,000 changes one file of three.
 */
export async function writeSitemap(dir: string, site: string, pathnames: readonly string[], served?: string): Promise<{ names: string[]; written: string[] }> {
  const files = sitemapFiles(site, pathnames);
  const written: string[] = [];
  for (const [name, xml] of files) {
    if (served && (await readFile(path.join(served, name), 'utf8').catch(() => null)) === xml) continue;
    await writeFile(path.join(dir, name), xml);
    written.push(name);
  }
  return { names: [...files.keys()], written };
}
