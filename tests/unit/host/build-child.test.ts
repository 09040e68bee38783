import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { brotliQuality, fillFrom, precompress, watchParent } from '../../../src/host/publish/build-child';
import { carHashes, changedCars } from '../../../src/host/publish/incremental';

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

describe('precompress (in the build child)', () => {
  it('writes brotli and gzip twins of compressible files over 1 KB only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'precompress-'));
    mkdirSync(path.join(dir, 'car', '1'), { recursive: true });
    const page = '<p>안녕하세요</p>'.repeat(200);
    writeFileSync(path.join(dir, 'car', '1', 'index.html'), page);
    writeFileSync(path.join(dir, 'small.css'), 'a{}');
    writeFileSync(path.join(dir, 'photo.webp'), Buffer.alloc(4096));
    const progress: number[] = [];
    await precompress(dir, (done) => progress.push(done));
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
    await precompress(next, () => {}, served);
    // Same bytes: the very same compressed files (hard links), not compressed again.
    expect(statSync(path.join(next, 'bundle.js.br')).ino).toBe(statSync(path.join(served, 'bundle.js.br')).ino);
    expect(statSync(path.join(next, 'bundle.js.gz')).ino).toBe(statSync(path.join(served, 'bundle.js.gz')).ino);
    // Changed or new: compressed from this build's bytes.
    expect(statSync(path.join(next, 'page.html.br')).ino).not.toBe(statSync(path.join(served, 'page.html.br')).ino);
    expect(brotliDecompressSync(readFileSync(path.join(next, 'page.html.br'))).toString()).toBe('<p>새 가격</p>'.repeat(100));
    expect(gunzipSync(readFileSync(path.join(next, 'page.html.gz'))).toString()).toBe('<p>새 가격</p>'.repeat(100));
    expect(brotliDecompressSync(readFileSync(path.join(next, 'new.html.br'))).toString()).toBe('<p>새 페이지</p>'.repeat(100));
  });

  it('compresses a file whose twins are missing from the served build', async () => {
    const served = mkdtempSync(path.join(tmpdir(), 'precompress-served-'));
    const next = mkdtempSync(path.join(tmpdir(), 'precompress-next-'));
    const page = '<p>같은 내용</p>'.repeat(100);
    for (const dir of [served, next]) writeFileSync(path.join(dir, 'page.html'), page);
    writeFileSync(path.join(served, 'page.html.br'), 'stale');
    await precompress(next, () => {}, served);
    expect(brotliDecompressSync(readFileSync(path.join(next, 'page.html.br'))).toString()).toBe(page);
    expect(gunzipSync(readFileSync(path.join(next, 'page.html.gz'))).toString()).toBe(page);
  });
});

describe('incremental builds', () => {
  const cars = [
    { id: 1, price: 10 },
    { id: 2, price: 20 },
    { id: 3, price: 30 },
  ];

  it('renders only the cars whose data changed', () => {
    const before = carHashes(cars);
    expect(changedCars(before, carHashes(cars))).toEqual([]);
    expect(changedCars(before, carHashes([cars[0], { id: 2, price: 21 }, { id: 3, price: 31 }]))).toEqual([2, 3]);
  });

  it('falls back to a full build when cars come or go, too many changed, or nothing is known', () => {
    const before = carHashes(cars);
    expect(changedCars(before, carHashes([...cars, { id: 4, price: 40 }]))).toBeNull();
    expect(changedCars(before, carHashes(cars.slice(1)))).toBeNull();
    expect(changedCars(before, carHashes([{ id: 9, price: 10 }, cars[1], cars[2]]))).toBeNull();
    expect(changedCars(before, carHashes(cars.map((c) => ({ ...c, price: c.price + 1 }))), 2)).toBeNull();
    expect(changedCars(null, carHashes(cars))).toBeNull();
  });

  it('takes over the files the partial build did not render, as hard links, keeping what it rendered', async () => {
    const served = mkdtempSync(path.join(tmpdir(), 'served-'));
    const next = mkdtempSync(path.join(tmpdir(), 'next-'));
    for (const [rel, body] of [['car/1/index.html', 'old 1'], ['car/2/index.html', 'old 2'], ['car/2/index.html.br', 'br 2'], ['index.html', 'old home'], ['sitemap-0.xml', 'all cars'], ['.build.json', '{}']]) {
      mkdirSync(path.dirname(path.join(served, rel)), { recursive: true });
      writeFileSync(path.join(served, rel), body);
    }
    for (const [rel, body] of [['car/1/index.html', 'new 1'], ['index.html', 'new home']]) {
      mkdirSync(path.dirname(path.join(next, rel)), { recursive: true });
      writeFileSync(path.join(next, rel), body);
    }
    expect(await fillFrom(served, next, (rel) => rel === '.build.json')).toBe(3);
    const read = (rel: string) => readFileSync(path.join(next, rel), 'utf8');
    expect([read('car/1/index.html'), read('index.html'), read('car/2/index.html'), read('car/2/index.html.br'), read('sitemap-0.xml')]).toEqual(['new 1', 'new home', 'old 2', 'br 2', 'all cars']);
    expect(statSync(path.join(next, 'car/2/index.html')).ino).toBe(statSync(path.join(served, 'car/2/index.html')).ino);
    expect(existsSync(path.join(next, '.build.json'))).toBe(false);
    // The served files are untouched.
    expect(readFileSync(path.join(served, 'car/1/index.html'), 'utf8')).toBe('old 1');
  });
});

describe('brotli quality', () => {
  it('spends the most on hashed bundles, compressed once, and less on the many pages', () => {
    expect(brotliQuality(path.join('dist', '_astro', 'client.B1x2.js'))).toBe(11);
    expect(brotliQuality(path.join('dist', 'car', '1', 'index.html'))).toBe(6);
    expect(brotliQuality(path.join('dist', 'sitemap-0.xml'))).toBe(6);
  });
});
