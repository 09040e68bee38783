import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, TEST_ADMIN_TOKEN } from '../../src/api/env';
import { publishStatus } from '../../src/api/catalogue/publish-builds';
import { startProduct, type RunningProduct } from '../../src/host/main';
import { currentBuild } from '../../src/host/publish/dist-folders';
import { readStamp } from '../../src/host/publish/stamp';
import { persistentDatabase } from '../api/helpers';

/**
 * A failed edit build is tried again, then the whole site is built (src/host/publish/build-site.ts).
 * The failure is injected through PUBLISH_COMMAND, which an edit runs on its changed files
 * (PUBLISH_MODE=changes) and a full build on the whole folder: `once` fails the next edit's
 * command once, `refuse` fails every edit's.
 */
describe('a failed edit build, through the publisher', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'luxe-retry-'));
  const dist = path.join(dir, 'dist');
  const log = path.join(dir, 'published.log');
  const once = path.join(dir, 'once');
  const refuse = path.join(dir, 'refuse');
  let database: Awaited<ReturnType<typeof persistentDatabase>>;
  let product: RunningProduct;
  beforeAll(async () => {
    database = await persistentDatabase();
    product = await startProduct({
      projectRoot: process.cwd(),
      config: loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dir, 'data'),
        ...database.env,
        DIST_DIR: dist,
        SITE_URL: 'https://luxe.example',
        SEED_CARS: '3',
        PUBLISH_COMMAND: `echo "$PUBLISH_MODE" >> '${log}'; if [ "$PUBLISH_MODE" = changes ]; then test ! -e '${refuse}' || exit 3; if [ -e '${once}' ]; then rm '${once}'; echo bucket busy >&2; exit 4; fi; fi`,
        PUBLISH_EDITS: 'changes',
        LOG_LEVEL: 'error',
        NODE_ENV: 'test',
        JWT_SECRET: 'retry-secret-retry-secret-retry-secret',
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      }),
    });
    // The served build counts as built from today's sources even if someone edits them meanwhile: edits stay edits.
    writeFileSync(path.join(dist, '.build.json'), JSON.stringify({ ...readStamp(dist), sourceTime: Date.now() + 86_400_000, pageSourceTime: Date.now() + 86_400_000 }));
  }, 300_000);
  afterAll(async () => {
    await product?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const edit = async (id: number, price: number) => {
    writeFileSync(log, '');
    const res = await fetch(`${product.url}/api/admin/cars/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ retail_price: price }) });
    expect(res.status).toBe(200);
    await product.publish('edit');
  };
  /**
   * What PUBLISH_COMMAND was run for, from the edit's build on. A build the PATCH asked for may run
   * before the one publish() asks for (the 500 ms debounce ran out first); the second then finds
   * nothing changed and adds its lines after.
   */
  const published = (n: number) => readFileSync(log, 'utf8').trim().split('\n').slice(0, n);
  const page = async (id: number) => (await fetch(`${product.url}/car/${id}`)).text();

  it('fails once: the second try renders the edit into the served build', async () => {
    const served = currentBuild(dist);
    writeFileSync(once, '');
    await edit(2, 211_000_000);
    expect(existsSync(once)).toBe(false);
    expect(published(2)).toEqual(['changes', 'changes']);
    expect(readFileSync(log, 'utf8')).not.toContain('full');
    expect(await page(2)).toContain('211,000,000');
    expect(currentBuild(dist)).toBe(served);
  }, 300_000);

  it('fails every try: the whole site is built, and the build is recorded done', async () => {
    const served = currentBuild(dist);
    writeFileSync(refuse, '');
    try {
      await edit(3, 322_000_000);
    } finally {
      rmSync(refuse, { force: true });
    }
    expect(published(3)).toEqual(['changes', 'changes', 'full']);
    expect(await page(3)).toContain('322,000,000');
    expect(currentBuild(dist)).not.toBe(served);
    const status = await publishStatus(product.db);
    expect(status).toMatchObject({ publishedVersion: status.catalogueVersion, lag: null });
    expect(status.lastDone).toMatchObject({ trigger: 'edit', status: 'done' });
  }, 300_000);
});
