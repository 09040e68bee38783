import { describe, expect, it } from 'vitest';
import { Lru } from '../../../../src/api/cache/lru';

describe('Lru', () => {
  it('evicts the least recently used entry when the entry bound is reached', () => {
    const lru = new Lru<string>(3, 1000);
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    lru.set('c', 'C', 1);
    expect(lru.get('a')).toBe('A'); // a is now the most recent; b is the oldest
    lru.set('d', 'D', 1);
    expect(lru.keys()).toEqual(['c', 'a', 'd']);
    expect(lru.has('b')).toBe(false);
    expect(lru.size).toBe(3);
  });

  it('evicts oldest entries until the byte bound holds', () => {
    const lru = new Lru<number>(100, 10);
    lru.set('a', 1, 4);
    lru.set('b', 2, 4);
    lru.set('c', 3, 4);
    expect(lru.keys()).toEqual(['b', 'c']);
    expect(lru.bytes).toBe(8);
  });

  it('refuses a value larger than the whole byte bound and keeps the rest', () => {
    const lru = new Lru<number>(10, 10);
    lru.set('a', 1, 5);
    expect(lru.set('huge', 2, 11)).toBe(false);
    expect(lru.keys()).toEqual(['a']);
    expect(lru.bytes).toBe(5);
  });

  it('replacing a key updates its weight instead of counting it twice', () => {
    const lru = new Lru<number>(10, 100);
    lru.set('a', 1, 30);
    lru.set('a', 2, 10);
    expect(lru.size).toBe(1);
    expect(lru.bytes).toBe(10);
    expect(lru.get('a')).toBe(2);
  });

  it('resize grows an entry and evicts older ones, never the resized one', () => {
    const lru = new Lru<number>(10, 10);
    lru.set('a', 1, 3);
    lru.set('b', 2, 3);
    lru.set('c', 3, 3);
    lru.resize('a', 8);
    expect(lru.keys()).toEqual(['a']);
    expect(lru.bytes).toBe(8);
    lru.resize('a', 11);
    expect(lru.size).toBe(0);
    expect(lru.bytes).toBe(0);
    lru.resize('missing', 5);
    expect(lru.size).toBe(0);
  });

  it('deleteWhere and clear keep the byte count right', () => {
    const lru = new Lru<{ keep: boolean }>(10, 100);
    lru.set('a', { keep: true }, 5);
    lru.set('b', { keep: false }, 7);
    lru.set('c', { keep: false }, 9);
    expect(lru.deleteWhere((_, v) => !v.keep)).toBe(2);
    expect(lru.keys()).toEqual(['a']);
    expect(lru.bytes).toBe(5);
    lru.clear();
    expect(lru.size).toBe(0);
    expect(lru.bytes).toBe(0);
  });

  it('stays within both bounds under many random writes', () => {
    const lru = new Lru<number>(50, 5000);
    for (let i = 0; i < 10_000; i++) {
      lru.set(`k${Math.floor(Math.random() * 500)}`, i, 1 + Math.floor(Math.random() * 300));
      if (i % 7 === 0) lru.get(`k${Math.floor(Math.random() * 500)}`);
      expect(lru.size).toBeLessThanOrEqual(50);
      expect(lru.bytes).toBeLessThanOrEqual(5000);
    }
  });

  it('needs room for at least one entry', () => {
    expect(() => new Lru(0, 10)).toThrow(RangeError);
  });
});
