import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishBuilds } from '../../src/api/db/schema';
import { bumpCatalogueVersion } from '../../src/api/catalogue/catalogue';
import { publishStatus } from '../../src/api/catalogue/publish-builds';
import { failAbandonedBuilds, recordBuildEnd, recordBuildProgress, recordBuildStart } from '../../src/host/publish/publisher';
import { createTestContext, type TestContext } from '../api/helpers';

describe('publish status', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('reports nothing published before the first build', async () => {
    const status = await publishStatus(ctx.database.db);
    expect(status).toMatchObject({ publishedVersion: null, running: null, lastDone: null, lastFailed: null });
    expect(typeof status.catalogueVersion).toBe('number');
  });

  it('follows a build from running with progress to done, then a failure with its error', async () => {
    const { db } = ctx.database;
    const version = await bumpCatalogueVersion(db);
    const id = await recordBuildStart(db, { catalogueVersion: version, trigger: 'publish', replica: 'test:1' });
    await recordBuildProgress(db, id, 42.4);
    let status = await publishStatus(db);
    expect(status.running).toMatchObject({ id, status: 'running', progress: 42, trigger: 'publish', replica: 'test:1', catalogueVersion: version, finishedAt: null });
    expect(new Date(status.running!.startedAt).toISOString()).toBe(status.running!.startedAt);
    await recordBuildEnd(db, id, {});
    status = await publishStatus(db);
    expect(status.running).toBeNull();
    expect(status.publishedVersion).toBe(version);
    expect(status.lastDone).toMatchObject({ id, status: 'done', progress: 100, error: null });
    expect(status.lastDone!.durationMs).toBeGreaterThanOrEqual(0);
    expect(typeof status.lastDone!.finishedAt).toBe('string');

    const next = await bumpCatalogueVersion(db);
    const failed = await recordBuildStart(db, { catalogueVersion: next, trigger: 'edit', replica: 'test:1' });
    await recordBuildEnd(db, failed, { error: new Error('sync exited 3') });
    status = await publishStatus(db);
    expect(status.catalogueVersion).toBe(next);
    expect(status.publishedVersion).toBe(version);
    expect(status.lastFailed).toMatchObject({ id: failed, status: 'failed', error: 'sync exited 3', trigger: 'edit' });
  });

  it('marks builds of a replica that died as failed at start', async () => {
    const { db } = ctx.database;
    const id = await recordBuildStart(db, { catalogueVersion: 1, trigger: 'start', replica: 'web-1' });
    await db.insert(publishBuilds).values({ catalogueVersion: 1, status: 'running', trigger: 'edit', replica: 'web-2', startedAt: new Date(Date.now() - 2 * 3600_000) });
    expect((await publishStatus(db)).running?.id).toBe(id);
    await failAbandonedBuilds(db, 'web-1');
    const status = await publishStatus(db);
    expect(status.running).toBeNull();
    expect(status.lastFailed?.id).toBe(id);
  });
});
