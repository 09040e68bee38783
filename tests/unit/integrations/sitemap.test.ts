import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sitemapFiles, URLS_PER_SITEMAP, writeSitemap } from '../../../src/integrations/sitemap';
import { snapshotState } from '../../../src/integrations/build-snapshot';
import { storefront } from '../../../src/integrations/storefront';

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe('the sitemap', () => {
  it('lists each page once, numbers in order, under the site origin, with an index', () => {
    const files = sitemapFiles('https://luxe.example', ['/car/10/', '/', '/car/2/', '/about/', '/car/2/']);
    expect([...files.keys()]).toEqual(['sitemap-0.xml', 'sitemap-index.xml']);
    expect(locs(files.get('sitemap-0.xml')!)).toEqual(['https://luxe.example/', 'https://luxe.example/about/', 'https://luxe.example/car/2/', 'https://luxe.example/car/10/']);
    expect(locs(files.get('sitemap-index.xml')!)).toEqual(['https://luxe.example/sitemap-0.xml']);
    expect(files.get('sitemap-0.xml')).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
  });

  it(`splits past ${URLS_PER_SITEMAP.toLocaleString('en')} addresses a file (100,000 cars: three files) and escapes what XML needs`, () => {
    const pages = Array.from({ length: 100_000 }, (_, i) => `/car/${i + 1}/`);
    const files = sitemapFiles('https://luxe.example', [...pages, '/q?a=1&b=2']);
    expect([...files.keys()]).toEqual(['sitemap-0.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-index.xml']);
    expect(locs(files.get('sitemap-0.xml')!)).toHaveLength(URLS_PER_SITEMAP);
    expect([0, 1, 2].reduce((n, i) => n + locs(files.get(`sitemap-${i}.xml`)!).length, 0)).toBe(100_001);
    expect(files.get('sitemap-2.xml')).toContain('<loc>https://luxe.example/q?a=1&amp;b=2</loc>');
    expect(locs(files.get('sitemap-index.xml')!)).toHaveLength(3);
  });

  it('joins plain paths to the origin as URL would, and leaves the others to URL', () => {
    const pages = ['/car/7/', '/forgot-password/', '/my/butler_requests/', '/검색/', '/a b/', '/x/../y/', '/q?a=1&b=2'];
    const files = sitemapFiles('https://luxe.example/shop', pages);
    const expected = pages.map((p) => new URL(p, 'https://luxe.example/shop').href.replace(/&/g, '&amp;'));
    expect(new Set(locs(files.get('sitemap-0.xml')!))).toEqual(new Set(expected));
  });

  it('an edit writes only the files whose XML differs from the served ones', async () => {
    const served = mkdtempSync(path.join(tmpdir(), 'served-'));
    const pages = Array.from({ length: URLS_PER_SITEMAP + 10 }, (_, i) => `/car/${i + 1}/`);
    expect((await writeSitemap(served, 'https://luxe.example', pages)).written).toEqual(['sitemap-0.xml', 'sitemap-1.xml', 'sitemap-index.xml']);
    const edit = mkdtempSync(path.join(tmpdir(), 'edit-'));
    const added = await writeSitemap(edit, 'https://luxe.example', [...pages, `/car/${URLS_PER_SITEMAP + 11}/`], served);
    expect(added).toEqual({ names: ['sitemap-0.xml', 'sitemap-1.xml', 'sitemap-index.xml'], written: ['sitemap-1.xml'] });
    expect(() => statSync(path.join(edit, 'sitemap-0.xml'))).toThrow();
    expect(locs(readFileSync(path.join(edit, 'sitemap-1.xml'), 'utf8'))).toHaveLength(11);
  });

  it('is written by every build from its pages, with the project rule of what belongs in it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'out-'));
    const integration = storefront({ inSitemap: (p) => !p.startsWith('/my') });
    const setup = integration.hooks['astro:config:setup'] as (o: unknown) => void;
    setup({ config: { root: pathToFileURL(`${dir}/`), site: 'https://luxe.example', integrations: [integration] }, updateConfig: () => {} });
    expect(snapshotState().sitemap?.site).toBe('https://luxe.example');
    const done = integration.hooks['astro:build:done'] as (o: unknown) => Promise<void>;
    await done({ dir: pathToFileURL(`${dir}/`), pages: [{ pathname: '' }, { pathname: 'car/1/' }, { pathname: 'my/' }], assets: new Map() });
    expect(locs(readFileSync(path.join(dir, 'sitemap-0.xml'), 'utf8'))).toEqual(['https://luxe.example/', 'https://luxe.example/car/1/']);
  });
});
