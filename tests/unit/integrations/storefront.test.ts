import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegration } from 'astro';
import { describe, expect, it, vi } from 'vitest';
import type { BuildSnapshot, CatalogueSnapshot } from '../../../src/domain/catalogue';
import { currentCatalogue, DEFAULT_SNAPSHOT, noteRead, readBuildSnapshot, snapshotFile, snapshotState, writeBuildSnapshot, type CatalogueRead } from '../../../src/integrations/build-snapshot';
import { SNAPSHOT_MODULE, storefront } from '../../../src/integrations/storefront';

const catalogue = (cars: number) => ({ version: 3, cars: Array.from({ length: cars }, (_, i) => ({ id: i + 1 })), butler_cars: [], garage_list: [], faqs: [], terms: [], privacy_policies: [] }) as unknown as CatalogueSnapshot;

async function snapshotIn(dir: string, snapshot: BuildSnapshot): Promise<string> {
  const file = path.join(dir, 'build-snapshot.json');
  await writeBuildSnapshot(file, snapshot);
  return file;
}

/** Runs the integration's config hook as Astro would, with these integrations after it; returns the module's code. */
async function moduleCode(root: string, later: AstroIntegration[]): Promise<string> {
  const integration = storefront();
  const updateConfig = vi.fn();
  const setup = integration.hooks['astro:config:setup'] as (o: unknown) => Promise<void>;
  await setup({ config: { root: pathToFileURL(`${root}/`), integrations: [integration, ...later] }, updateConfig });
  const [plugin] = updateConfig.mock.calls[0][0].vite.plugins;
  const id = plugin.resolveId(SNAPSHOT_MODULE);
  return plugin.load(id);
}

describe('the build snapshot module', () => {
  it("gives the pages the named snapshot's catalogue (the last snapshotFile of the inline config wins)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-'));
    const first = await snapshotIn(mkdtempSync(path.join(tmpdir(), 'snapshot-a-')), { catalogue: catalogue(2), settings: {} });
    const file = await snapshotIn(dir, { catalogue: catalogue(5), settings: { SITE_URL: 'https://a.kr' } });
    const code = await moduleCode(dir, [snapshotFile(first), snapshotFile(file)]);
    expect(code).toContain('export { currentCatalogue, noteRead }');
    expect(snapshotState().file).toBe(file);
    expect(currentCatalogue().cars).toHaveLength(5);
  });

  it('reads the default snapshot of the project when no build names one (astro build, astro check)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'project-'));
    await snapshotIn(path.dirname(path.join(root, DEFAULT_SNAPSHOT)), { catalogue: catalogue(1), settings: {} });
    await moduleCode(root, []);
    expect(snapshotState().file).toBe(path.join(root, DEFAULT_SNAPSHOT));
    expect(currentCatalogue().cars).toHaveLength(1);
  });

  it('notes what a page reads while it renders, and nothing outside a render', () => {
    const reads = new Set<CatalogueRead>();
    noteRead('faqs');
    snapshotState().reads = reads;
    noteRead('cars');
    noteRead('car:3');
    snapshotState().reads = undefined;
    noteRead('terms');
    expect([...reads]).toEqual(['cars', 'car:3']);
  });

  it('holds a model cars share once, and each car as it was written', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-'));
    const model = (id: number, name: string) => ({ id, name, image: `/cars/${name}.svg`, brand: { id: 1, name: 'Ferrari', image: '/brands/ferrari.svg' } });
    const cars = [
      { id: 1, model: model(5, 'Roma'), color: 'Rosso Corsa', images: ['/cars/roma-1.svg'] },
      { id: 2, model: model(5, 'Roma'), color: 'Rosso Corsa', images: ['/cars/roma-1.svg'] },
      { id: 3, model: model(6, '296'), color: 'Giallo', images: [] },
      // The same id with other fields (never in one read, but never merged either).
      { id: 4, model: model(5, 'Roma Spider'), color: 'Nero', images: [] },
    ];
    const file = await snapshotIn(dir, { catalogue: { ...catalogue(0), cars } as unknown as CatalogueSnapshot, settings: {} });
    const read = readBuildSnapshot(file).catalogue.cars;
    expect(read).toEqual(cars);
    expect(read[0].model).toBe(read[1].model);
    expect(read[0].model).not.toBe(read[2].model);
    expect(read[3].model.name).toBe('Roma Spider');
  });

  it('fails with a clear message on a missing snapshot or one without cars: an empty shop is never published', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-'));
    expect(() => readBuildSnapshot(path.join(dir, 'none.json'))).toThrow(/No build snapshot at .*none\.json/);
    const empty = await snapshotIn(dir, { catalogue: catalogue(0), settings: {} });
    expect(() => readBuildSnapshot(empty)).toThrow(/has no cars\. The build stops rather than publish an empty shop/);
    await expect(moduleCode(dir, [snapshotFile(empty)])).rejects.toThrow(/empty shop/);
    // Written whole: no temporary file stays beside it.
    expect(readdirSync(dir)).toEqual(['build-snapshot.json']);
  });
});

describe('the static-host files', () => {
  it('are written into the finished build', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'out-'));
    writeFileSync(path.join(dir, 'index.html'), 'x');
    const done = storefront({ hostFiles: () => ({ _redirects: '/* / 200\n', _headers: '/*\n  x-frame-options: DENY\n' }) }).hooks['astro:build:done'] as (o: unknown) => Promise<void>;
    await done({ dir: pathToFileURL(`${dir}/`), pages: [], assets: new Map() });
    expect(readFileSync(path.join(dir, '_redirects'), 'utf8')).toBe('/* / 200\n');
    expect(readFileSync(path.join(dir, '_headers'), 'utf8')).toBe('/*\n  x-frame-options: DENY\n');
  });

  it('reads back what it wrote, a car a line, across read chunks and multi-byte text; a snapshot of one line too', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'snapshot-'));
    // Long Korean texts with newlines in them: lines cross the reader's 1-MB chunks mid-character.
    const cars = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, description: `${'한글 설명 '.repeat(500 + i)}\n둘째 줄 ${i}` }));
    const snapshot = { catalogue: { ...catalogue(0), cars, faqs: [{ question: '줄\n바꿈' }] }, settings: { SITE_URL: 'https://a.kr' } } as unknown as BuildSnapshot;
    const file = await snapshotIn(dir, snapshot);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(cars.length + 2);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(snapshot);
    expect(readBuildSnapshot(file)).toEqual(snapshot);
    const whole = path.join(dir, 'whole.json');
    writeFileSync(whole, JSON.stringify(snapshot, null, 2));
    expect(readBuildSnapshot(whole)).toEqual(snapshot);
  });
});
