import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { cars } from '../../src/api/db/schema';
import { loadConfig, TEST_ADMIN_TOKEN } from '../../src/api/env';
import { startProduct } from '../../src/host/main';
import { bumpCatalogueVersion } from '../../src/api/catalogue/catalogue';
import { publishStatus } from '../../src/api/catalogue/publish-builds';
import { cleanStaleBuilds } from '../../src/host/publish/dist-folders';
import { readStamp } from '../../src/host/publish/stamp';
import { headersFile, redirectsFile } from '../../src/host/publish/static-host';
import { SNAPSHOT_FILE } from '../../src/integrations/build-snapshot';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the storefront build for a CDN', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'luxe-site-'));
  // Beside the project, with a name that starts like it: Astro took it for a folder inside.
  const dist = `${process.cwd()}-dist-${randomBytes(4).toString('hex')}`;
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    // The folder, its cache, and a previous build whose removal was still under way (`<dist>.old-*`).
    for (const name of readdirSync(path.dirname(dist))) if (name === path.basename(dist) || name.startsWith(`${path.basename(dist)}.`)) rmSync(path.join(path.dirname(dist), name), { recursive: true, force: true });
  });

  it('builds into a DIST_DIR outside the project with SITE_URL everywhere, renders only the edited car page, runs PUBLISH_COMMAND, and keeps the old site when it fails', async () => {
    const flag = path.join(dir, 'refuse');
    const log = path.join(dir, 'published.txt');
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'data'),
      DIST_DIR: dist,
      SITE_URL: 'https://luxe.example',
      PUBLISH_COMMAND: `test ! -e '${flag}' || { echo bucket refused >&2; exit 3; }; test -e "$1/car/1/index.html" && echo "$PUBLISH_VERSION $PUBLISH_DIR" >> '${log}'`,
      LOG_LEVEL: 'error',
      NODE_ENV: 'test',
      JWT_SECRET: 'site-build-secret-site-build-secret',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    });
    const product = await startProduct({ projectRoot: process.cwd(), config });
    try {
      const page = await (await fetch(`${product.url}/car/1`)).text();
      expect(page).toContain('<link rel="canonical" href="https://luxe.example/car/1/"');
      expect(page).toContain('<meta property="og:url" content="https://luxe.example/car/1/"');
      expect(await (await fetch(`${product.url}/robots.txt`)).text()).toContain('Sitemap: https://luxe.example/sitemap-index.xml');
      expect(await (await fetch(`${product.url}/sitemap-0.xml`)).text()).toMatch(/<loc>https:\/\/luxe\.example\/car\/1\/?<\/loc>/);
      expect(existsSync(path.join(dist, 'car', '1', 'index.html.br'))).toBe(true);
      // The build writes the static hosts' files itself, from the same functions as docs/nginx.conf;
      // the snapshot it read is no part of the site.
      expect(readFileSync(path.join(dist, '_redirects'), 'utf8')).toBe(redirectsFile());
      expect(readFileSync(path.join(dist, '_headers'), 'utf8')).toBe(headersFile());
      expect(existsSync(path.join(dist, SNAPSHOT_FILE))).toBe(false);

      const status = await publishStatus(product.db);
      expect(status.lastDone).toMatchObject({ trigger: 'start', catalogueVersion: status.catalogueVersion });
      const [version, folder] = readFileSync(log, 'utf8').trim().split(' ');
      expect(Number(version)).toBe(status.catalogueVersion);
      expect(folder).toMatch(/\.next-/);

      // An edit of one car: only its page (and the pages that are not car pages) is rendered;
      // the other car pages and the sitemap are the served files, taken over.
      const untouched = statSync(path.join(dist, 'car', '2', 'index.html')).ino;
      // The served build counts as built from today's sources even if someone edits them meanwhile
      // (a shared working tree): new sources would rightly build everything.
      writeFileSync(path.join(dist, '.build.json'), JSON.stringify({ ...readStamp(dist), sourceTime: Date.now() + 86_400_000, pageSourceTime: Date.now() + 86_400_000 }));
      const patched = await fetch(`${product.url}/api/admin/cars/1`, { method: 'PATCH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ retail_price: 123_456_789 }) });
      expect(patched.status).toBe(200);
      // The edit asked for a build already; this request joins it.
      await product.publish('edit');
      const edited = await (await fetch(`${product.url}/car/1`)).text();
      expect(edited).toContain('123,456,789');
      expect(brotliDecompressSync(readFileSync(path.join(dist, 'car', '1', 'index.html.br'))).toString()).toContain('123,456,789');
      expect(statSync(path.join(dist, 'car', '2', 'index.html')).ino).toBe(untouched);
      expect(await (await fetch(`${product.url}/sitemap-0.xml`)).text()).toMatch(/<loc>https:\/\/luxe\.example\/car\/64\/?<\/loc>/);
      expect(readFileSync(path.join(dist, '_redirects'), 'utf8')).toBe(redirectsFile());
      expect(existsSync(path.join(dist, SNAPSHOT_FILE))).toBe(false);
      const incremental = await publishStatus(product.db);
      expect(incremental.publishedVersion).toBe(incremental.catalogueVersion);

      // The sync refuses: the build fails with its message and the old pages keep serving.
      writeFileSync(flag, '');
      await product.db.update(cars).set({ retailPrice: 987_654_321 }).where(eq(cars.id, 1));
      await bumpCatalogueVersion(product.db);
      await expect(product.publish()).rejects.toThrow(/PUBLISH_COMMAND failed \(exit 3\):\s+bucket refused/);
      const after = await publishStatus(product.db);
      expect(after.lastFailed).toMatchObject({ trigger: 'publish', status: 'failed' });
      expect(after.lastFailed?.error).toContain('bucket refused');
      expect(after.publishedVersion).toBe(incremental.catalogueVersion);
      // (toBe on a whole page would print it all on failure.)
      expect((await (await fetch(`${product.url}/car/1`)).text()) === edited).toBe(true);
      expect(readdirSync(path.dirname(dist)).filter((n) => n.startsWith(`${path.basename(dist)}.next-`))).toEqual([]);
    } finally {
      await product.stop();
    }
  }, 400_000);

  it('reuses a build only with the same database and settings: a second DATA_DIR and a changed SITE_URL build again', async () => {
    const sharedDist = path.join(dir, 'shared', 'dist');
    const start = (data: string, site: string) =>
      startProduct({
        projectRoot: process.cwd(),
        config: loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(dir, data), DIST_DIR: sharedDist, SITE_URL: site, LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'stamp-secret-stamp-secret-stamp-secret' }),
      });
    const canonical = async (url: string) => (await (await fetch(`${url}/about`)).text()).match(/<link rel="canonical" href="([^"]+)"/)?.[1];
    let product = await start('stamp-a', 'https://a.luxe.example');
    const first = readStamp(sharedDist)!;
    expect(await canonical(product.url)).toBe('https://a.luxe.example/about/');
    await product.stop();
    // Same folder, same version number, same sources: reused.
    product = await start('stamp-a', 'https://a.luxe.example');
    expect(readStamp(sharedDist)?.builtAt).toBe(first.builtAt);
    await product.stop();
    // Another database whose catalogue version is the same number: built again from its own data.
    product = await start('stamp-b', 'https://a.luxe.example');
    const second = readStamp(sharedDist)!;
    expect(second.catalogueVersion).toBe(first.catalogueVersion);
    expect(second.database).not.toBe(first.database);
    expect(second.builtAt).not.toBe(first.builtAt);
    await product.stop();
    // Another SITE_URL: built again, and the pages say the new origin.
    product = await start('stamp-b', 'https://b.luxe.example');
    try {
      expect(readStamp(sharedDist)?.settings).not.toBe(second.settings);
      expect(await canonical(product.url)).toBe('https://b.luxe.example/about/');
    } finally {
      await product.stop();
    }
  }, 600_000);

  it('ships the photos its pages show with the build, as <picture>; an edit adding one renders the car page and links the photo; a photo the build lacks comes from the API', async () => {
    const photosDist = path.join(dir, 'photos', 'dist');
    const product = await startProduct({
      projectRoot: process.cwd(),
      config: loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'photos-data'), DIST_DIR: photosDist, LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'photo-secret-photo-secret-photo-secret', ADMIN_TOKEN: TEST_ADMIN_TOKEN }),
    });
    const admin = (method: string, p: string, body: unknown) =>
      fetch(`${product.url}/api/admin${p}`, { method, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) }));
    const photoOf = async (hue: number) => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600"><rect width="100%" height="100%" fill="hsl(${hue},50%,40%)"/><circle cx="1200" cy="800" r="500" fill="#eee"/></svg>`;
      const res = await admin('POST', '/uploads', { content_type: 'image/jpeg', data: (await sharp(Buffer.from(svg)).jpeg().toBuffer()).toString('base64') });
      expect(res.status).toBe(201);
      return res.body.data as { url: string; photo: { id: string } };
    };
    try {
      expect(existsSync(path.join(photosDist, 'photos'))).toBe(false);
      const { url, photo } = await photoOf(30);
      const art = (await (await fetch(`${product.url}/api/subscriptions/cars/1`)).json()).data.car.gallery as { src: string; alt: string }[];
      // Today's sources count as built (a shared working tree may be edited meanwhile): the edit builds incrementally.
      writeFileSync(path.join(photosDist, '.build.json'), JSON.stringify({ ...readStamp(photosDist), sourceTime: Date.now() + 86_400_000, pageSourceTime: Date.now() + 86_400_000 }));
      const untouched = statSync(path.join(photosDist, 'car', '2', 'index.html')).ino;
      const gallery = [{ src: url, alt: '노을 앞의 차량 정면 사진' }, ...art.map(({ src, alt }) => ({ src, alt }))];
      expect((await admin('PATCH', '/cars/1', { gallery })).status).toBe(200);
      await product.publish('edit');
      expect(statSync(path.join(photosDist, 'car', '2', 'index.html')).ino).toBe(untouched);

      // The twelve variants ship with the pages, under their content-hash names.
      const names = ['480', '800', '1200', '1600'].flatMap((w) => ['avif', 'webp', 'jpg'].map((ext) => `${photo.id}-${w}.${ext}`));
      expect(readdirSync(path.join(photosDist, 'photos')).sort()).toEqual(names.sort());
      const page = await (await fetch(`${product.url}/car/1`)).text();
      // (React writes srcSet and fetchPriority; HTML attribute names know no case.)
      const avif = page.match(/<source type="image\/avif"[^>]*>/)?.[0] ?? '';
      expect(avif.toLowerCase()).toContain(`srcset="/photos/${photo.id}-480.avif 480w, /photos/${photo.id}-800.avif 800w, /photos/${photo.id}-1200.avif 1200w, /photos/${photo.id}-1600.avif 1600w"`);
      const lcp = page.match(/<img [^>]*srcSet="\/photos\/[^>]*>/)?.[0] ?? '';
      for (const attribute of ['alt="노을 앞의 차량 정면 사진"', 'width="2400"', 'height="1600"', 'loading="eager"', 'fetchPriority="high"', `src="/photos/${photo.id}-800.jpg"`, 'background-color:#']) expect(lcp).toContain(attribute);
      expect(page).toContain(`<meta property="og:image" content="http://localhost:4321/photos/${photo.id}-1600.jpg"`);
      // The other images stay lazy and keep their own alt texts.
      expect(page).toContain(`alt="${art[1].alt}" width="800" height="450" loading="lazy"`);
      const served = await fetch(`${product.url}/photos/${photo.id}-480.avif`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/avif');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

      // Uploaded but in no build yet (a car the API already shows): the API's copy answers; an unknown name is a 404, not home.
      const newer = await photoOf(200);
      const early = await fetch(`${product.url}/photos/${newer.photo.id}-800.webp`);
      expect(early.status).toBe(200);
      expect(early.headers.get('content-type')).toBe('image/webp');
      expect(readdirSync(path.join(photosDist, 'photos'))).not.toContain(`${newer.photo.id}-800.webp`);
      const unknown = await fetch(`${product.url}/photos/0000000000000000-480.jpg`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get('content-type')).not.toContain('text/html');

      // The photo leaves every gallery: the next build no longer ships it.
      writeFileSync(path.join(photosDist, '.build.json'), JSON.stringify({ ...readStamp(photosDist), sourceTime: Date.now() + 86_400_000, pageSourceTime: Date.now() + 86_400_000 }));
      expect((await admin('PATCH', '/cars/1', { gallery: gallery.slice(1) })).status).toBe(200);
      await product.publish('edit');
      expect(existsSync(path.join(photosDist, 'photos'))).toBe(false);
      expect(await (await fetch(`${product.url}/car/1`)).text()).not.toContain('/photos/');
    } finally {
      await product.stop();
    }
  }, 400_000);

  it('kill -9 of the server mid-build ends the build child, and the next start removes the unfinished folder', async () => {
    const killDist = path.join(dir, 'killed', 'dist');
    const server = spawn(path.join('node_modules', '.bin', 'node'), ['--import', 'tsx', 'scripts/start.ts'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'killed-data'), DIST_DIR: killDist, LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'kill-secret-kill-secret-kill-secret' },
      stdio: 'ignore',
    });
    try {
      let child: number | undefined;
      for (let i = 0; i < 600 && !child; i++) {
        await sleep(100);
        child = buildChildOf(server.pid!);
      }
      expect(child).toBeDefined();
      // Let it get going (Astro loading): a build of the seed catalogue takes about 3 s in all.
      await sleep(500);
      server.kill('SIGKILL');
      let gone = false;
      for (let i = 0; i < 100 && !gone; i++) {
        await sleep(100);
        gone = !running(child!);
      }
      expect(gone).toBe(true);
      // What the next start does first: the unfinished staging folder goes.
      const removed = cleanStaleBuilds(process.cwd(), killDist);
      expect(removed).toHaveLength(1);
      expect(removed[0]).toMatch(/\.next-\d+-\d+$/);
      expect(existsSync(removed[0])).toBe(false);
    } finally {
      server.kill('SIGKILL');
    }
  }, 120_000);
});

/** The pid of a build-child.ts process whose parent is `parent`. */
function buildChildOf(parent: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.split(') ')[1].split(' ')[1]);
      if (ppid === parent && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('build-child.ts')) return Number(name);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return undefined;
}

/** Whether pid runs (a zombie waiting for its reaper has ended). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] !== 'Z';
  } catch {
    return false;
  }
}
