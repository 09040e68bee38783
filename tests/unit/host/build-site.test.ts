import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/api/db/client';
import type { BuildOptions } from '../../../src/host/publish/build-inputs';
import { buildSite, EDIT_ATTEMPTS, type BuildSteps } from '../../../src/host/publish/build-site';
import type { SiteBuilder } from '../../../src/host/publish/site-builder';
import { writeStamp, type BuildStamp } from '../../../src/host/publish/stamp';

/** A served build an edit can be rendered into (same database, settings and page sources), and what buildSite is given. */
function servedSite() {
  const root = mkdtempSync(path.join(tmpdir(), 'build-site-'));
  const distDir = path.join(root, 'dist');
  mkdirSync(distDir);
  const served: BuildStamp = { catalogueVersion: 4, database: 'db-1', settings: 'settings-1', sourceTime: 0, pageSourceTime: 0, builtAt: '2026-01-01T00:00:00.000Z', parts: {}, models: 'models-1' };
  writeStamp(distDir, served);
  const failures: { error: string; next: 'retry' | 'full' }[] = [];
  const opts: BuildOptions = {
    projectRoot: root,
    distDir,
    db: {} as Db,
    dataDir: root,
    catalogueVersion: 5,
    settings: { env: {}, digest: 'settings-1' },
    database: 'db-1',
    builder: { stop() {} } as unknown as SiteBuilder,
    onEditFailed: (err, next) => failures.push({ error: (err as Error).message, next }),
  };
  return { root, opts, failures };
}

/** Builds that record their calls; the edit fails its first `editFailures` tries. */
function steps(editFailures: number) {
  const calls: string[] = [];
  const stamp = (kind: string): BuildStamp => ({ catalogueVersion: 5, sourceTime: 0, builtAt: kind });
  const s: BuildSteps = {
    edit: () => {
      calls.push('edit');
      if (calls.filter((c) => c === 'edit').length <= editFailures) return Promise.reject(new Error(`render failed ${calls.length}`));
      return Promise.resolve(stamp('edit'));
    },
    full: () => {
      calls.push('full');
      return Promise.resolve(stamp('full'));
    },
  };
  return { calls, steps: s };
}

describe('a failed edit build', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('is tried once more, and its second try publishes the edit', async () => {
    const site = servedSite();
    roots.push(site.root);
    const run = steps(1);
    expect((await buildSite(site.opts, run.steps)).builtAt).toBe('edit');
    expect(run.calls).toEqual(['edit', 'edit']);
    expect(site.failures).toEqual([{ error: 'render failed 1', next: 'retry' }]);
  });

  it(`falls back to building the whole site after ${EDIT_ATTEMPTS} failed tries`, async () => {
    const site = servedSite();
    roots.push(site.root);
    const run = steps(EDIT_ATTEMPTS);
    expect((await buildSite(site.opts, run.steps)).builtAt).toBe('full');
    expect(run.calls).toEqual([...Array(EDIT_ATTEMPTS).fill('edit'), 'full']);
    expect(site.failures.map((f) => f.next)).toEqual([...Array(EDIT_ATTEMPTS - 1).fill('retry'), 'full']);
  });

  it('is not tried again when the server is stopping', async () => {
    const site = servedSite();
    roots.push(site.root);
    const controller = new AbortController();
    controller.abort();
    const run = steps(1);
    await expect(buildSite({ ...site.opts, signal: controller.signal }, run.steps)).rejects.toThrow('render failed 1');
    expect(run.calls).toEqual(['edit']);
  });

  it('a full build that fails fails the build (the publisher records it)', async () => {
    const site = servedSite();
    roots.push(site.root);
    const run = steps(EDIT_ATTEMPTS);
    run.steps.full = () => Promise.reject(new Error('astro build failed: out of memory'));
    await expect(buildSite(site.opts, run.steps)).rejects.toThrow('out of memory');
    expect(run.calls).toEqual(Array(EDIT_ATTEMPTS).fill('edit'));
  });
});
