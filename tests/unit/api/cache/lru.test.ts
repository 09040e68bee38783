import { describe, expect, it } from 'vitest';
import { cacheSegment, reweigh, type CacheEntry } from '../../../../src/api/catalogue/cache/catalogue-cache';

/** What the catalogue cache relies on from its lru-cache segments. */

/** An entry whose weight (JSON + twins + key + 200) is `weight`. */
function entry(key: string, weight: number, extra: Partial<CacheEntry> = {}): CacheEntry {
  return { key, hash: key, raw: Buffer.alloc(weight - key.length - 200), contentType: 'application/json', pending: {}, cacheControl: '', reservations: false, ...extra };
}
const keysOf = (segment: ReturnType<typeof cacheSegment>) => [...segment.rkeys()];

describe('catalogue cache segments', () => {
  it('evict the least recently used entry when the entry bound is reached', () => {
    const segment = cacheSegment(3, 10_000);
    for (const key of ['a', 'b', 'c']) segment.set(key, entry(key, 300));
    expect(segment.get('a')?.key).toBe('a'); // a is now the most recent; b is the oldest
    segment.set('d', entry('d', 300));
    expect(keysOf(segment)).toEqual(['c', 'a', 'd']);
    expect(segment.has('b')).toBe(false);
    expect(segment.size).toBe(3);
  });

  it('evict oldest entries until the byte bound holds', () => {
    const segment = cacheSegment(100, 1000);
    for (const key of ['a', 'b', 'c']) segment.set(key, entry(key, 400));
    expect(keysOf(segment)).toEqual(['b', 'c']);
    expect(segment.calculatedSize).toBe(800);
  });

  it('refuse an entry heavier than the whole byte bound and keep the rest', () => {
    const segment = cacheSegment(10, 1000);
    segment.set('a', entry('a', 500));
    segment.set('huge', entry('huge', 1001));
    expect(keysOf(segment)).toEqual(['a']);
    expect(segment.calculatedSize).toBe(500);
  });

  it('count a replaced key once, with its new weight', () => {
    const segment = cacheSegment(10, 10_000);
    segment.set('a', entry('a', 3000));
    const second = entry('a', 1000);
    segment.set('a', second);
    expect(segment.size).toBe(1);
    expect(segment.calculatedSize).toBe(1000);
    expect(segment.get('a')).toBe(second);
  });

  it('reweigh counts a new compressed twin, evicting older entries, never the reweighed one', () => {
    const segment = cacheSegment(10, 1000);
    const a = entry('a', 300);
    segment.set('a', a);
    segment.set('b', entry('b', 300));
    segment.set('c', entry('c', 300));
    a.br = Buffer.alloc(500); // weight 800
    reweigh(segment, a);
    expect(keysOf(segment)).toEqual(['a']);
    expect(segment.calculatedSize).toBe(800);
    a.gzip = Buffer.alloc(201); // weight 1001: too heavy alone
    reweigh(segment, a);
    expect(segment.size).toBe(0);
    expect(segment.calculatedSize).toBe(0);
  });

  it('reweigh leaves a key alone once it holds another entry', () => {
    const segment = cacheSegment(10, 10_000);
    const old = entry('a', 300);
    const current = entry('a', 400);
    segment.set('a', current);
    old.br = Buffer.alloc(5000);
    reweigh(segment, old);
    expect(segment.get('a')).toBe(current);
    expect(segment.calculatedSize).toBe(400);
  });

  it('stay within both bounds under many random writes and reads', () => {
    const segment = cacheSegment(50, 5000 * 10);
    for (let i = 0; i < 10_000; i++) {
      const key = `k${Math.floor(Math.random() * 500)}`;
      segment.set(key, entry(key, 210 + Math.floor(Math.random() * 3000)));
      if (i % 7 === 0) segment.get(`k${Math.floor(Math.random() * 500)}`);
      expect(segment.size).toBeLessThanOrEqual(50);
      expect(segment.calculatedSize).toBeLessThanOrEqual(50_000);
    }
  });
});
