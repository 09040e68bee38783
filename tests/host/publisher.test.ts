import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { openCatalogueCache } from '../../src/host/catalogue-changes';
import { openDatabase, type Database } from '../../src/api/db/client';
import { seedDatabase } from '../../src/api/seed/seed';
import { TEST_ADMIN_TOKEN, testConfig } from '../../src/api/env';
import { bumpCatalogueVersion, catalogueVersion } from '../../src/api/catalogue/catalogue';
import { publishStatus } from '../../src/api/catalogue/publish-builds';
import { createPublisher, type SiteBuilder } from '../../src/host/publish/publisher';
import { createTestContext, type TestContext } from '../api/helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fake DIST_DIR: the version it holds; builds take `ms` and record what they built. */
function fakeSite(ms = 150) {
  const site = { version: null as number | null, builds: [] as number[], fail: null as string | null };
  const build: SiteBuilder = async (version, onProgress, signal) => {
    site.builds.push(version);
    onProgress(50);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => (clearTimeout(t), reject(new Error('stopped'))), { once: true });
    });
    if (site.fail) throw new Error(site.fail);
    site.version = version;
  };
  return { site, build, isFresh: (v: number) => site.version === v, hasSite: () => site.version !== null };
}

describe('the publisher (one per replica)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('coalesces edits that arrive during a build into one more build, and records both', async () => {
    const { db } = t.database;
    const fake = fakeSite(1_000);
    const publisher = createPublisher({ db, ...fake, debounceMs: 20 });
    const first = publisher.request('start');
    // The build is under way (its row written, half done), however busy the machine: no fixed wait.
    await expect.poll(async () => (await publishStatus(db)).running?.progress, { timeout: 5_000, interval: 10 }).toBe(50);
    expect((await publishStatus(db)).running).toMatchObject({ trigger: 'start', progress: 50 });
    const edits: Promise<void>[] = [];
    for (let i = 0; i < 3; i++) {
      await bumpCatalogueVersion(db);
      edits.push(publisher.request('edit'));
    }
    await Promise.all([first, ...edits]);
    const version = await catalogueVersion(db);
    expect(fake.site.builds).toHaveLength(2);
    expect(fake.site.version).toBe(version);
    const status = await publishStatus(db);
    expect(status).toMatchObject({ catalogueVersion: version, publishedVersion: version, running: null });
    expect(status.lastDone).toMatchObject({ trigger: 'edit', status: 'done', progress: 100 });
    // Nothing changed since: an edit notice builds nothing; a publish builds anyway.
    await publisher.request('edit');
    expect(fake.site.builds).toHaveLength(2);
    await publisher.request('publish', { force: true });
    expect(fake.site.builds).toHaveLength(3);
    expect((await publishStatus(db)).lastDone?.trigger).toBe('publish');
    await publisher.stop();
  });

  it('fails the request and the build row with the error, and stop() ends a running build', async () => {
    const { db } = t.database;
    const fake = fakeSite(100);
    const publisher = createPublisher({ db, ...fake });
    fake.site.fail = 'PUBLISH_COMMAND failed (exit 3): bucket refused';
    await expect(publisher.request('webhook', { force: true })).rejects.toThrow(/bucket refused/);
    expect((await publishStatus(db)).lastFailed).toMatchObject({ trigger: 'webhook', status: 'failed', error: 'PUBLISH_COMMAND failed (exit 3): bucket refused' });

    fake.site.fail = null;
    const slow = fakeSite(60_000);
    const stopping = createPublisher({ db, ...slow });
    const pending = stopping.request('publish', { force: true });
    await expect.poll(async () => (await publishStatus(db)).running?.trigger, { timeout: 5_000, interval: 10 }).toBe('publish');
    await stopping.stop();
    await pending;
    expect((await publishStatus(db)).running).toBeNull();
    expect((await publishStatus(db)).lastFailed?.error).toBe('stopped');
    await publisher.stop();
  });
});

// Two replicas on one PostgreSQL database: the admin edit on one reaches the other (LISTEN/NOTIFY)
// and the storefront is built once for the new catalogue version (advisory lock + publish_builds).
describe.skipIf(process.env.TEST_DB !== 'postgres')('two replicas on PostgreSQL', () => {
  const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://localhost/x');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  const replicas: { database: Database; stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  });
  afterAll(async () => {
    for (const r of replicas) await r.stop();
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('an edit on one replica is one build, and both serve the new version', async () => {
    // One shared DIST_DIR (a volume both replicas serve), as docs/deployment describes.
    const shared = fakeSite(500);
    const start = async (replica: string) => {
      const database = await openDatabase({ url: url.toString() });
      const config = testConfig({ databaseUrl: url.toString() });
      const publisher = createPublisher({ db: database.db, databaseUrl: url.toString(), ...shared, replica, debounceMs: 50 });
      const onCatalogueChange = () => void publisher.request('edit').catch(() => {});
      const cache = await openCatalogueCache(database, { url: url.toString(), pollMs: 60_000, onRemoteChange: (kind) => kind === 'catalogue' && onCatalogueChange() });
      const app = createApp({ db: database.db, config, catalogueCache: cache, onCatalogueChange });
      const r = {
        database,
        app,
        publisher,
        stop: async () => {
          await publisher.stop();
          await cache.close();
          await database.close();
        },
      };
      replicas.push(r);
      return r;
    };
    const a = await start('replica-a');
    const b = await start('replica-b');
    await seedDatabase(a.database.db, { cars: 4 });
    // Both start at the same time: one builds, the other finds that version built.
    await Promise.all([a.publisher.request('start'), b.publisher.request('start')]);
    expect(shared.site.builds).toHaveLength(1);

    const carPrice = async (app: typeof a.app) => (await (await app.request('/subscriptions/cars/1')).json()).data.car.retail_price;
    const before = await carPrice(b.app);
    const edited = await a.app.request('/admin/cars/1', { method: 'PATCH', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ retail_price: before + 1000 }) });
    expect(edited.status).toBe(200);
    const version = await catalogueVersion(a.database.db);

    for (let i = 0; i < 100 && shared.site.version !== version; i++) await sleep(100);
    // The other replica heard it too and queued its own request; give it the time to decide.
    await sleep(1500);
    expect(shared.site.version).toBe(version);
    expect(shared.site.builds.filter((v) => v === version)).toHaveLength(1);
    const status = await publishStatus(b.database.db);
    expect(status).toMatchObject({ catalogueVersion: version, publishedVersion: version, running: null });
    expect(await carPrice(a.app)).toBe(before + 1000);
    expect(await carPrice(b.app)).toBe(before + 1000);
  });
});
