import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Car } from '../../../src/domain/car';
import type { CatalogueRead } from '../../../src/integrations/build-snapshot';
import { watchParent } from '../../../src/host/publish/child/build-child';
import { applyDelta, carOfPage, pageFile, pagesToRender, pageUrlPath } from '../../../src/host/publish/child/pages';
import { shipPhotos } from '../../../src/host/publish/child/photos';
import { compressionLevels, precompress } from '../../../src/host/publish/child/precompress';
import { changedParts, partDigests, planChanges } from '../../../src/host/publish/incremental';

describe('watchParent (the build child ends when the server is gone)', () => {
  afterEach(() => vi.useRealTimers());

  it('fires once when the IPC channel closes', () => {
    const channel = new EventEmitter();
    const onOrphan = vi.fn();
    watchParent({ parentPid: 10, currentParent: () => 10, channel, onOrphan });
    channel.emit('disconnect');
    channel.emit('disconnect');
    expect(onOrphan).toHaveBeenCalledTimes(1);
  });

  it('fires when the parent pid changes (re-parented after kill -9)', () => {
    vi.useFakeTimers();
    let parent = 10;
    const onOrphan = vi.fn();
    watchParent({ parentPid: 10, currentParent: () => parent, intervalMs: 100, onOrphan });
    vi.advanceTimersByTime(350);
    expect(onOrphan).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(100);
    expect(onOrphan).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(onOrphan).toHaveBeenCalledTimes(1);
  });

  it('stops watching when told', () => {
    vi.useFakeTimers();
    const channel = new EventEmitter();
    const onOrphan = vi.fn();
    const stop = watchParent({ parentPid: 10, currentParent: () => 1, intervalMs: 100, channel, onOrphan });
    stop();
    vi.advanceTimersByTime(500);
    channel.emit('disconnect');
    expect(onOrphan).not.toHaveBeenCalled();
  });
});

describe('shipPhotos (in the build child)', () => {
  it('links every named variant into photos/, keeps one already there, and ships nothing when none is named', async () => {
    const from = mkdtempSync(path.join(tmpdir(), 'photos-from-'));
    const out = mkdtempSync(path.join(tmpdir(), 'photos-out-'));
    const names = Array.from({ length: 20 }, (_, i) => `car-${i}.avif`);
    for (const name of names) writeFileSync(path.join(from, name), name);
    mkdirSync(path.join(out, 'photos'));
    writeFileSync(path.join(out, 'photos', names[0]), 'already');
    await shipPhotos(from, names, out);
    for (const name of names.slice(1)) {
      expect(readFileSync(path.join(out, 'photos', name), 'utf8')).toBe(name);
      expect(statSync(path.join(out, 'photos', name)).ino).toBe(statSync(path.join(from, name)).ino);
    }
    expect(readFileSync(path.join(out, 'photos', names[0]), 'utf8')).toBe('already');
    const empty = mkdtempSync(path.join(tmpdir(), 'photos-none-'));
    await shipPhotos(from, [], empty);
    expect(existsSync(path.join(empty, 'photos'))).toBe(false);
  });

  it('fails the build on a variant it cannot find, rather than publish a page without it', async () => {
    const from = mkdtempSync(path.join(tmpdir(), 'photos-from-'));
    writeFileSync(path.join(from, 'here.webp'), 'x');
    const out = mkdtempSync(path.join(tmpdir(), 'photos-out-'));
    await expect(shipPhotos(from, ['here.webp', 'gone.webp'], out)).rejects.toThrow(/gone\.webp is neither in/);
  });
});

describe('precompress (in the build child)', () => {
  it('writes brotli and gzip twins of compressible files over 1 KB only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'precompress-'));
    mkdirSync(path.join(dir, 'car', '1'), { recursive: true });
    const page = '<p>안녕하세요</p>'.repeat(200);
    writeFileSync(path.join(dir, 'car', '1', 'index.html'), page);
    writeFileSync(path.join(dir, 'small.css'), 'a{}');
    writeFileSync(path.join(dir, 'photo.webp'), Buffer.alloc(4096));
    const progress: number[] = [];
    await precompress(dir, { onProgress: (done) => progress.push(done) });
    const file = path.join(dir, 'car', '1', 'index.html');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(page);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(page);
    expect(existsSync(path.join(dir, 'small.css.br'))).toBe(false);
    expect(existsSync(path.join(dir, 'photo.webp.br'))).toBe(false);
    expect(progress).toEqual([1]);
  });

  it('takes over the twins of files whose bytes the served build already has, and compresses the rest', async () => {
    const served = mkdtempSync(path.join(tmpdir(), 'precompress-served-'));
    const next = mkdtempSync(path.join(tmpdir(), 'precompress-next-'));
    const bundle = 'console.log("번들");'.repeat(100);
    for (const dir of [served, next]) writeFileSync(path.join(dir, 'bundle.js'), bundle);
    writeFileSync(path.join(served, 'page.html'), '<p>이전 가격</p>'.repeat(100));
    writeFileSync(path.join(next, 'page.html'), '<p>새 가격</p>'.repeat(100));
    writeFileSync(path.join(next, 'new.html'), '<p>새 페이지</p>'.repeat(100));
    await precompress(served);
    await precompress(next, { reuseFrom: served });
    // Same bytes: the very same compressed files (hard links), not compressed again.
    expect(statSync(path.join(next, 'bundle.js.br')).ino).toBe(statSync(path.join(served, 'bundle.js.br')).ino);
    expect(statSync(path.join(next, 'bundle.js.gz')).ino).toBe(statSync(path.join(served, 'bundle.js.gz')).ino);
    // Changed or new: compressed from this build's bytes.
    expect(statSync(path.join(next, 'page.html.br')).ino).not.toBe(statSync(path.join(served, 'page.html.br')).ino);
    expect(brotliDecompressSync(readFileSync(path.join(next, 'page.html.br'))).toString()).toBe('<p>새 가격</p>'.repeat(100));
    expect(gunzipSync(readFileSync(path.join(next, 'page.html.gz'))).toString()).toBe('<p>새 가격</p>'.repeat(100));
    expect(brotliDecompressSync(readFileSync(path.join(next, 'new.html.br'))).toString()).toBe('<p>새 페이지</p>'.repeat(100));
  });

  it('leaves the files whose twins the build wrote already (its pages, as they were rendered)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'precompress-done-'));
    const page = path.join(dir, 'page.html');
    writeFileSync(page, '<p>페이지</p>'.repeat(200));
    writeFileSync(`${page}.br`, 'made while rendering');
    await precompress(dir, { done: new Set([page]) });
    expect(readFileSync(`${page}.br`, 'utf8')).toBe('made while rendering');
    expect(existsSync(`${page}.gz`)).toBe(false);
  });

  it('compresses a file whose twins are missing from the served build', async () => {
    const served = mkdtempSync(path.join(tmpdir(), 'precompress-served-'));
    const next = mkdtempSync(path.join(tmpdir(), 'precompress-next-'));
    const page = '<p>같은 내용</p>'.repeat(100);
    for (const dir of [served, next]) writeFileSync(path.join(dir, 'page.html'), page);
    writeFileSync(path.join(served, 'page.html.br'), 'stale');
    await precompress(next, { reuseFrom: served });
    expect(brotliDecompressSync(readFileSync(path.join(next, 'page.html.br'))).toString()).toBe(page);
    expect(gunzipSync(readFileSync(path.join(next, 'page.html.gz'))).toString()).toBe(page);
  });
});

describe('what an edit renders again', () => {
  const reads = new Map<string, CatalogueRead[]>([
    ['/', ['cars']],
    ['/garage/', ['cars', 'garageBrands']],
    ['/fleet/', ['butlerCars']],
    ['/faq/', ['faqs']],
    ['/about/', []],
    ['/car/1/', ['car:1']],
    ['/car/2/', ['car:2']],
    ['/car/3/', ['car:3']],
  ]);
  const none = { changed: [], added: [], removed: [], parts: [] };

  it('a car changed: its page and the pages that list the cars, nothing else', () => {
    expect(pagesToRender(reads, { ...none, changed: [2] })).toEqual(['/', '/garage/', '/car/2/']);
  });
  it('a car came or went: the lists and the new page, not the removed one', () => {
    reads.set('/car/4/', ['car:4']);
    expect(pagesToRender(reads, { ...none, added: [4], removed: [3] })).toEqual(['/', '/garage/', '/car/4/']);
  });
  it('another part changed: only the pages that read it', () => {
    expect(pagesToRender(reads, { ...none, parts: ['faqs'] })).toEqual(['/faq/']);
    expect(pagesToRender(reads, { ...none, parts: ['butlerCars', 'garageBrands'] })).toEqual(['/garage/', '/fleet/']);
    expect(pagesToRender(reads, none)).toEqual([]);
  });
  it('names pages as their URLs (directory format) and files as they are', () => {
    expect([pageUrlPath('/car/1'), pageUrlPath('/'), pageUrlPath('/robots.txt'), pageUrlPath('/garage/')]).toEqual(['/car/1/', '/', '/robots.txt', '/garage/']);
    expect([pageFile('/car/1/'), pageFile('/'), pageFile('/robots.txt'), pageFile('/%EC%B0%A8/')]).toEqual(['car/1/index.html', 'index.html', 'robots.txt', '차/index.html']);
    expect([carOfPage('/car/12/'), carOfPage('/car/fallback/'), carOfPage('/garage/')]).toEqual([12, null, null]);
  });
});

describe('a catalogue and an edit', () => {
  const car = (id: number, price = 1) => ({ id, retail_price: price }) as unknown as Car;
  const rest = { version: 2, butler_cars: [], garage_list: [], faqs: [], terms: [], privacy_policies: [] };
  const before = { ...rest, version: 1, cars: [car(1), car(2), car(3)] };

  it('takes the changed and new cars from the edit and keeps only live ones, by id', () => {
    const after = applyDelta(before, { liveIds: [4, 1, 3], cars: [car(3, 30), car(4, 40)], rest });
    expect(after).toEqual({ ...rest, cars: [car(1), car(3, 30), car(4, 40)] });
  });
  it('cannot apply an edit to another catalogue than it was made on (a live car it has no row of)', () => {
    expect(applyDelta(before, { liveIds: [1, 2, 3, 9], cars: [], rest })).toBeNull();
  });
});

describe('the served build and an edit (incremental.ts)', () => {
  const served = { versions: { '1': '100', '2': '101', '3': '102' }, parts: { faqs: 'a' }, models: 'm' };

  it('finds the cars whose row changed, came or went', () => {
    expect(planChanges(served, { versions: { '1': '100', '2': '150', '4': '151' }, models: 'm' })).toEqual({ changed: [2], added: [4], removed: [3] });
    expect(planChanges(served, { versions: served.versions, models: 'm' })).toEqual({ changed: [], added: [], removed: [] });
  });
  it('builds everything when brands or models changed, or more cars changed than a full build costs', () => {
    expect(planChanges(served, { versions: served.versions, models: 'other' })).toBeNull();
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [String(i), '1']));
    const manyChanged = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [String(i), i < 1300 ? '2' : '1']));
    expect(planChanges({ ...served, versions: many }, { versions: manyChanged, models: 'm' })).toBeNull();
    const fewChanged = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [String(i), i < 900 ? '2' : '1']));
    expect(planChanges({ ...served, versions: many }, { versions: fewChanged, models: 'm' })?.changed).toHaveLength(900);
  });
  it('names the parts whose digest moved', () => {
    const rest = { version: 1, butler_cars: [], garage_list: [], faqs: [{ id: 1 }], terms: [], privacy_policies: [] } as unknown as Parameters<typeof partDigests>[0];
    const now = partDigests(rest);
    expect(changedParts(now, now)).toEqual([]);
    expect(changedParts({ ...now, faqs: 'old' }, now)).toEqual(['faqs']);
    expect(changedParts({}, now)).toEqual(['butlerCars', 'faqs', 'terms', 'privacy', 'garageBrands']);
  });
});

describe('compression levels', () => {
  it('spends the most on hashed bundles, compressed once, and less on the many pages', () => {
    expect(compressionLevels(path.join('dist', '_astro', 'client.abc123.js'))).toEqual({ brotli: 11, gzip: 9 });
    expect(compressionLevels(path.join('dist', 'car', '1', 'index.html'))).toEqual({ brotli: 6, gzip: 6 });
    expect(compressionLevels(path.join('dist', 'sitemap-0.xml'))).toEqual({ brotli: 6, gzip: 6 });
  });
});
