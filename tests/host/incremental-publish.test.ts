import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, TEST_ADMIN_TOKEN } from '../../src/api/env';
import { startProduct, type RunningProduct } from '../../src/host/main';
import { readStamp } from '../../src/host/publish/stamp';

describe('an edit renders exactly the pages it changed', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'luxe-edits-'));
  const dist = path.join(dir, 'dist');
  const log = path.join(dir, 'published.log');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const start = (env: Record<string, string> = {}) =>
    startProduct({
      projectRoot: process.cwd(),
      config: loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'), DIST_DIR: dist, SITE_URL: 'https://luxe.example', LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'edit-secret-edit-secret-edit-secret', ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env }),
    });
  const admin = async (p: RunningProduct, method: string, url: string, body: unknown = {}) => {
    const res = await fetch(`${p.url}/api/admin${url}`, { method, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status, `${method} ${url}`).toBeLessThan(300);
    return ((await res.json()) as { data: { car?: { id: number } } }).data;
  };
  /** Every file of the served build, by path, with its inode: a file an edit wrote has a new one. */
  const files = (at = dist) => {
    const out = new Map<string, number>();
    for (const rel of readdirSync(at, { recursive: true }) as string[]) {
      const st = statSync(path.join(at, rel));
      if (st.isFile()) out.set(rel, st.ino);
    }
    return out;
  };
  const changedFiles = (before: Map<string, number>, after: Map<string, number>) => ({
    written: [...after].filter(([rel, ino]) => before.get(rel) !== ino).map(([rel]) => rel).filter((rel) => !rel.endsWith('.br') && !rel.endsWith('.gz')).sort(),
    removed: [...before.keys()].filter((rel) => !after.has(rel)).sort(),
  });
  /** The served build counts as built from today's sources even if someone edits them meanwhile (a shared working tree): edits stay edits. */
  const keepSources = (at = dist) => writeFileSync(path.join(at, '.build.json'), JSON.stringify({ ...readStamp(at), sourceTime: Date.now() + 86_400_000, pageSourceTime: Date.now() + 86_400_000 }));
  const sitemapLocs = () =>
    readdirSync(dist)
      .filter((name) => /^sitemap-\d+\.xml$/.test(name))
      .flatMap((name) => [...readFileSync(path.join(dist, name), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]));
  const page = async (p: RunningProduct, url: string) => (await fetch(`${p.url}${url}`)).text();

  it('a price: the car page, home and the garage, compressed again; nothing else, and the same bytes a full build writes', async () => {
    const product = await start();
    try {
      keepSources();
      const before = files();
      const carsBefore = sitemapLocs();
      await admin(product, 'PATCH', '/cars/5', { retail_price: 123_456_789 });
      await product.publish('edit');
      expect(changedFiles(before, files())).toEqual({ written: ['.build-cars.json', '.build.json', 'car/5/index.html', 'garage/index.html', 'index.html'], removed: [] });
      expect(await page(product, '/car/5')).toContain('123,456,789');
      expect(brotliDecompressSync(readFileSync(path.join(dist, 'car/5/index.html.br'))).toString()).toContain('123,456,789');
      expect(sitemapLocs()).toEqual(carsBefore);
      // The same pages from a full build: byte for byte what the edit wrote.
      const edited = Object.fromEntries(['car/5/index.html', 'garage/index.html', 'index.html'].map((rel) => [rel, readFileSync(path.join(dist, rel), 'utf8')]));
      const served = files();
      await product.publish('publish');
      for (const [rel, html] of Object.entries(edited)) expect(readFileSync(path.join(dist, rel), 'utf8') === html, rel).toBe(true);
      // So that rebuild compressed nothing again: every page's twins are the served build's, linked (issue 53).
      const rebuilt = files();
      const twins = [...rebuilt].filter(([rel]) => rel.endsWith('.br') || rel.endsWith('.gz'));
      expect(twins.length).toBeGreaterThan(carsBefore.length * 2);
      expect(twins.filter(([rel, ino]) => served.get(rel) !== ino).map(([rel]) => rel)).toEqual([]);
    } finally {
      await product.stop();
    }
  }, 300_000);

  it('a price at four times the catalogue: the same three pages, counted (an edit costs the same at any size)', async () => {
    const big = path.join(dir, 'big');
    const bigDist = path.join(big, 'dist');
    const cars = 256;
    const product = await startProduct({
      projectRoot: process.cwd(),
      config: loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(big, 'data'), DIST_DIR: bigDist, SEED_CARS: String(cars), SITE_URL: 'https://luxe.example', LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'edit-secret-edit-secret-edit-secret', ADMIN_TOKEN: TEST_ADMIN_TOKEN }),
    });
    try {
      keepSources(bigDist);
      const before = files(bigDist);
      expect([...before.keys()].filter((rel) => /^car\/\d+\/index\.html$/.test(rel))).toHaveLength(cars);
      await admin(product, 'PATCH', '/cars/5', { retail_price: 123_456_789 });
      await product.publish('edit');
      const pages = changedFiles(before, files(bigDist)).written.filter((rel) => rel.endsWith('.html'));
      expect(pages).toEqual(['car/5/index.html', 'garage/index.html', 'index.html']);
    } finally {
      await product.stop();
    }
  }, 300_000);

  it('after a restart the builder warms up first; a FAQ is only the FAQ page', async () => {
    const product = await start();
    try {
      keepSources();
      let before = files();
      const [faq] = ((await (await fetch(`${product.url}/api/admin/faqs`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).json()) as { data: { faqs: { id: number }[] } }).data.faqs;
      await admin(product, 'PATCH', `/faqs/${faq.id}`, { answer: '새로 고친 답변입니다.' });
      await product.publish('edit');
      expect(changedFiles(before, files())).toEqual({ written: ['.build-cars.json', '.build.json', 'faq/index.html'], removed: [] });
      expect(await page(product, '/faq')).toContain('새로 고친 답변입니다.');
      // Warm now: a car of the same build.
      before = files();
      await admin(product, 'PATCH', '/cars/7', { color: '샴페인 골드' });
      await product.publish('edit');
      expect(changedFiles(before, files()).written).toEqual(['.build-cars.json', '.build.json', 'car/7/index.html', 'garage/index.html', 'index.html']);
      expect(await page(product, '/car/7')).toContain('샴페인 골드');
    } finally {
      await product.stop();
    }
  }, 300_000);

  it('a new car and a car archived: its page comes and goes, the lists follow, and the sitemap stays whole', async () => {
    const product = await start({ PUBLISH_COMMAND: `{ echo "$PUBLISH_MODE"; cd "$1" && find . -type f -name '*.html' | sort; cat "\${PUBLISH_REMOVED:-/dev/null}"; } >> '${log}'`, PUBLISH_EDITS: 'changes' });
    try {
      keepSources();
      writeFileSync(log, '');
      const count = sitemapLocs().length;
      let before = files();
      const { car } = await admin(product, 'POST', '/cars', { model_id: 1, sub_model: '새로 들어온 차', subscription_fee_12: 3_000_000 });
      await product.publish('edit');
      const added = `car/${car!.id}/index.html`;
      // The sitemap's index names the same files: only the file the car joined is written.
      expect(changedFiles(before, files()).written).toEqual(['.build-cars.json', '.build.json', added, 'garage/index.html', 'index.html', 'sitemap-0.xml'].sort());
      // Its static path went into Astro's cache of the car route: no page's path was derived again.
      expect(product.lastBuild()).toEqual({ incremental: true, pages: 3, pathsDerived: false });
      expect(await page(product, `/car/${car!.id}`)).toContain('새로 들어온 차');
      expect(sitemapLocs()).toHaveLength(count + 1);
      expect(sitemapLocs()).toContain(`https://luxe.example/car/${car!.id}/`);
      // PUBLISH_EDITS=changes: the command was given these pages only.
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['changes', `./${added}`, './garage/index.html', './index.html']);

      before = files();
      writeFileSync(log, '');
      await admin(product, 'POST', `/cars/${car!.id}/archive`);
      await product.publish('edit');
      const change = changedFiles(before, files());
      expect(change.removed).toEqual([added, `${added}.br`, `${added}.gz`].sort());
      expect(change.written).toEqual(['.build-cars.json', '.build.json', 'garage/index.html', 'index.html', 'sitemap-0.xml']);
      expect(product.lastBuild()).toEqual({ incremental: true, pages: 2, pathsDerived: false });
      expect(sitemapLocs()).toHaveLength(count);
      expect(sitemapLocs()).not.toContain(`https://luxe.example/car/${car!.id}/`);
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['changes', './garage/index.html', './index.html', added, `${added}.br`, `${added}.gz`]);
      // Every live car is in the sitemap, each once.
      const live = Object.keys(JSON.parse(readFileSync(path.join(dist, '.build-cars.json'), 'utf8')) as Record<string, string>);
      for (const id of live) expect(sitemapLocs().filter((loc) => loc === `https://luxe.example/car/${id}/`), id).toHaveLength(1);
      // The sitemap an edit writes is the one a full build writes.
      const sitemap = readFileSync(path.join(dist, 'sitemap-0.xml'), 'utf8');
      await product.publish('publish');
      expect(readFileSync(path.join(dist, 'sitemap-0.xml'), 'utf8')).toBe(sitemap);
    } finally {
      await product.stop();
    }
  }, 300_000);
});
