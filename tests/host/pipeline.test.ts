import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProduct } from '../../src/host/main';
import { loadConfig } from '../../src/api/env';
import { openDatabase } from '../../src/api/db/client';
import { buildSite } from '../../src/host/publish/build-site';
import { buildSettings } from '../../src/host/publish/stamp';

describe('the npm start pipeline', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'luxe-start-'));
  const config = () =>
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'), DIST_DIR: path.join(dir, 'dist'), LOG_LEVEL: 'error', NODE_ENV: 'test', JWT_SECRET: 'pipeline-secret-pipeline-secret' });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds, builds and serves the site and the API on one port, then reuses the build', async () => {
    const first = await startProduct({ projectRoot: process.cwd(), config: config() });
    try {
      const api = await fetch(`${first.url}/api/subscriptions/cars/1`);
      expect(api.status).toBe(200);
      const page = await fetch(`${first.url}/car/1`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain((await api.json()).data.car.model.name);
      // A car without a static page gets the client fallback shell; any other path shows home.
      expect(await (await fetch(`${first.url}/car/424242`)).text()).toMatch(/<html/);
      expect((await fetch(`${first.url}/some-unknown-product`)).status).toBe(200);
      // Keep-alive sockets outlive Node's default 5 s (proxies keep theirs 60 s): one idle for 6 s is reused, not reset.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const get = () =>
        new Promise<{ status?: number; reused: boolean }>((resolve, reject) => {
          const req = http.get(`${first.url}/api/health`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, reused: req.reusedSocket }));
          });
          req.on('error', reject);
        });
      try {
        expect(await get()).toEqual({ status: 200, reused: false });
        await new Promise((resolve) => setTimeout(resolve, 6000));
        expect(await get()).toEqual({ status: 200, reused: true });
      } finally {
        agent.destroy();
      }
    } finally {
      await first.stop();
    }
    const stamp = readFileSync(path.join(dir, 'dist', '.build.json'), 'utf8');
    const second = await startProduct({ projectRoot: process.cwd(), config: config() });
    await second.stop();
    expect(readFileSync(path.join(dir, 'dist', '.build.json'), 'utf8')).toBe(stamp);
  }, 240_000);

  it('fails the build with a clear message when the catalogue is empty, and publishes nothing', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    const dist = path.join(dir, 'never');
    try {
      const building = buildSite({ projectRoot: process.cwd(), distDir: dist, db: database.db, dataDir: mkdtempSync(path.join(tmpdir(), 'no-photos-')), catalogueVersion: 0, quiet: true, settings: buildSettings({}, {}), database: 'empty' });
      await expect(building).rejects.toThrow(/astro build failed.*has no cars\. The build stops rather than publish an empty shop/s);
    } finally {
      await database.close();
    }
    expect(existsSync(dist)).toBe(false);
    expect(readdirSync(dir).filter((name) => /^never\.(next|live|link|old)-/.test(name))).toEqual([]);
  }, 200_000);
});
