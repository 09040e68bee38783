import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, publishBuilds } from '../../src/api/db/schema';
import { bumpCatalogueVersion } from '../../src/api/catalogue/catalogue';
import { publishStatus } from '../../src/api/catalogue/publish-builds';
import { alertPublishLag } from '../../src/api/catalogue/publish-lag-alert';
import { PUBLISH_LAG_ALERT_MS } from '../../src/domain/publish-lag';
import { TEMPLATES } from '../../src/api/notifications/templates';
import { failAbandonedBuilds, recordBuildEnd, recordBuildProgress, recordBuildStart } from '../../src/host/publish/publisher';
import { createTestContext, customer, type TestContext } from '../api/helpers';
import { setStaffRole } from '../../src/api/accounts/staff';

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

  it('tells staff once when the pages lag the catalogue by more than a minute, in the console and by a staff message', async () => {
    const { db } = ctx.database;
    const published = await bumpCatalogueVersion(db);
    await recordBuildEnd(db, await recordBuildStart(db, { catalogueVersion: published, trigger: 'edit', replica: 'test:1' }), {});
    expect((await publishStatus(db)).lag).toBeNull();
    // An edit whose build failed, asked for at `asked` (a fixed instant: the checks below say when "now" is).
    const edited = await bumpCatalogueVersion(db);
    const asked = new Date(Date.now() - 10 * 60_000);
    await db.insert(publishBuilds).values({ catalogueVersion: edited, status: 'failed', trigger: 'edit', replica: 'test:1', error: 'astro build failed: ERR_MODULE_NOT_FOUND\n  at x', startedAt: asked, finishedAt: asked });
    const at = (ms: number) => new Date(asked.getTime() + ms);
    const alerts = () => db.select().from(jobs).where(like(jobs.key, 'notify:staff.publish_lagging:%'));

    expect((await publishStatus(db, at(PUBLISH_LAG_ALERT_MS))).lag).toBeNull();
    expect(await alertPublishLag(db, at(PUBLISH_LAG_ALERT_MS))).toBe(false);
    expect(await alerts()).toHaveLength(0);

    expect((await publishStatus(db, at(PUBLISH_LAG_ALERT_MS + 30_000))).lag).toEqual({ since: asked.toISOString(), seconds: 90 });
    expect(await alertPublishLag(db, at(PUBLISH_LAG_ALERT_MS + 30_000))).toBe(true);
    // Every replica checks every few seconds: still one message for this stale spell.
    expect(await alertPublishLag(db, at(PUBLISH_LAG_ALERT_MS + 45_000))).toBe(false);
    const [alert] = await alerts();
    expect(alert.payload).toEqual({ type: 'staff.publish_lagging', catalogueVersion: edited, publishedVersion: published, since: asked.toISOString(), error: 'astro build failed: ERR_MODULE_NOT_FOUND' });
    expect(await alerts()).toHaveLength(1);
    const message = TEMPLATES['staff.publish_lagging'];
    const event = alert.payload as Parameters<typeof message.load>[1];
    expect(await message.load(db, event, new Date())).toMatchObject({ userId: null, vars: { 카탈로그버전: String(edited), 게시버전: String(published), 오류: 'astro build failed: ERR_MODULE_NOT_FOUND' } });

    // The console's publish status (GET /admin/publish) shows it to staff.
    const staff = await customer(ctx);
    await setStaffRole(db, staff.user.email!, true);
    const res = await ctx.call('GET', '/admin/publish', { token: staff.token });
    expect(res.status).toBe(200);
    expect((res.body as { data: { lag: unknown } }).data.lag).toMatchObject({ since: asked.toISOString(), seconds: expect.any(Number) });

    // Published again: no lag, and a later spell is a message of its own.
    await recordBuildEnd(db, await recordBuildStart(db, { catalogueVersion: edited, trigger: 'publish', replica: 'test:1' }), {});
    expect((await publishStatus(db)).lag).toBeNull();
    expect(await alertPublishLag(db)).toBe(false);
    // A message still queued when the pages caught up is not sent.
    expect(await message.load(db, event, new Date())).toEqual({ skip: expect.any(String) });
  });
});
