import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { precompress, watchParent } from '../../src/server/services/build-child';

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
});
