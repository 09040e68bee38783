import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, TEST_ADMIN_TOKEN } from '../../src/api/env';
import { startProduct, type RunningProduct } from '../../src/host/main';
import { currentBuild } from '../../src/host/publish/dist-folders';
import { readStamp } from '../../src/host/publish/stamp';
import { persistentDatabase } from '../api/helpers';

/**
 * The layout of docs/deployment (DIST_DIR on a volume outside the checkout) across a restart:
 * the restarted replica's build child warms up before its first edit, and that warm-up's
 * server chunks must still find the project's node_modules (issue 47: every edit failed with
 * ERR_MODULE_NOT_FOUND and the car pages kept the old price). Two places outside: a temporary
 * folder, and a folder beside the checkout whose name starts like it (/srv/luxe beside
 * /srv/luxe-dist), which Astro, comparing path prefixes, takes for a folder inside.
 */
const layouts = {
  'in the temporary folder': () => path.join(mkdtempSync(path.join(tmpdir(), 'luxe-restart-')), 'dist'),
  'beside the checkout, named like it': () => `${process.cwd()}-restart-${randomBytes(4).toString('hex')}`,
};

describe.each(Object.entries(layouts))('edits after a restart, with DIST_DIR outside the project %s', (_, distOf) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'luxe-restart-'));
  const dist = distOf();
  let database: Awaited<ReturnType<typeof persistentDatabase>>;
  beforeAll(async () => {
    database = await persistentDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
    // DIST_DIR, its cache and its builds beside it.
    const parent = path.dirname(dist);
    for (const name of readdirSync(parent)) if (name === path.basename(dist) || name.startsWith(`${path.basename(dist)}.`)) rmSync(path.join(parent, name), { recursive: true, force: true });
  });

  const start = () =>
    startProduct({
      projectRoot: process.cwd(),
      config: loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, 'data'),
        ...database.env,
        DIST_DIR: dist,
        SITE_URL: 'https://luxe.example',
        SEED_CARS: '3',
        LOG_LEVEL: 'error',
        NODE_ENV: 'test',
        JWT_SECRET: 'restart-secret-restart-secret-restart',
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      }),
    });
  const setPrice = async (p: RunningProduct, id: number, price: number) => {
    const res = await fetch(`${p.url}/api/admin/cars/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ retail_price: price }) });
    expect(res.status).toBe(200);
  };

  it('a full build, a restart, then price edits one after another: each reaches its car page in the served build', async () => {
    const first = await start();
    // The served build counts as built from today's sources even if someone edits them meanwhile
    // (a shared working tree): the restart reuses it, and edits stay edits.
    writeFileSync(path.join(dist, '.build.json'), JSON.stringify({ ...readStamp(dist), sourceTime: Date.now() + 86_400_000, pageSourceTime: Date.now() + 86_400_000 }));
    await first.stop();

    const product = await start();
    try {
      const served = currentBuild(dist);
      expect(served).not.toBeNull();
      for (const [id, price, shown] of [
        [1, 111_111_000, '111,111,000'],
        [2, 222_222_000, '222,222,000'],
        [1, 133_333_000, '133,333,000'],
      ] as const) {
        await setPrice(product, id, price);
        await product.publish('edit');
        expect(await (await fetch(`${product.url}/car/${id}`)).text()).toContain(shown);
        // Rendered into the served build by the warm child, not a full build swapped in.
        expect(currentBuild(dist)).toBe(served);
      }
      // Asked for again with nothing changed since (the edit's own build ran first): no page to render, and no failure.
      await product.publish('edit');
      expect(await (await fetch(`${product.url}/car/1`)).text()).toContain('133,333,000');
      expect(currentBuild(dist)).toBe(served);
    } finally {
      await product.stop();
    }
  }, 600_000);
});
