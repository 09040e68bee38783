import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CatalogueCache } from '../../../../src/api/catalogue/cache/catalogue-cache';
import { memoryBus } from '../../../../src/host/catalogue-changes';
import { catalogueRead, garageKey } from '../../../../src/api/catalogue/cache/catalogue-keys';
import { acceptedEncoding } from '../../../../src/api/catalogue/cache/catalogue-middleware';

const q = (search: string) => {
  const out: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(search)) (out[k] ??= []).push(v);
  return out;
};

describe('garage keys', () => {
  it('are the same for the same filters in any order, repeated, with unknown params or defaults spelled out', () => {
    const base = garageKey(q('brand=ferrari&brand=porsche&month=12&month=24'));
    expect(base).not.toBeNull();
    for (const other of [
      'brand=porsche&brand=ferrari&month=24&month=12',
      'month=12&brand=Ferrari&brand=porsche&month=24&brand=ferrari',
      'brand=ferrari&brand=porsche&month=12&month=24&utm_source=x&foo=bar',
      'brand=ferrari&brand=porsche&month=12&month=24&page=1&order=desc',
      'brand=ferrari&brand=porsche&month=12&month=24&available_only=false',
    ]) {
      expect(garageKey(q(other)), other).toBe(base);
    }
  });

  it('differ when the answer differs', () => {
    const keys = ['', 'page=2', 'brand=ferrari', 'available_only=true', 'sort=mileage', 'sort=mileage&order=desc', 'model=3', 'month=12'].map((s) => garageKey(q(s)));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('are refused for queries the route answers with 400', () => {
    for (const bad of ['page=0', 'page=x', 'month=5', 'sort=price', 'order=up', 'available_only=maybe', 'model=-1', `brand=${'x'.repeat(51)}`]) {
      expect(garageKey(q(bad)), bad).toBeNull();
    }
  });
});

describe('catalogue reads', () => {
  const none = () => ({});
  it('cover the catalogue paths and nothing per-user', () => {
    expect(catalogueRead('/subscriptions/cars', '', none)).toEqual({ key: 'cars', reservations: false });
    expect(catalogueRead('/subscriptions/cars/7', '', none)).toEqual({ key: 'car:7', reservations: false });
    expect(catalogueRead('/subscriptions/models/2', '', none)?.key).toBe('model:2');
    expect(catalogueRead('/butlers/cars', '', none)).toEqual({ key: 'butler-cars', reservations: true });
    expect(catalogueRead('/catalogue', '', none)?.reservations).toBe(true);
    expect(catalogueRead('/services/faqs', '', none)?.key).toBe('faqs');
    for (const other of ['/subscriptions/orders', '/butlers', '/butlers/requests', '/butlers/coupons', '/users/me', '/health', '/services/contacts', '/subscriptions/cars/1/x']) {
      expect(catalogueRead(other, '', none), other).toBeNull();
    }
  });
  it('ignore the query of routes that read none, and refuse invalid ids', () => {
    expect(catalogueRead('/subscriptions/cars', 'x=1', () => q('x=1'))?.key).toBe('cars');
    expect(catalogueRead('/subscriptions/cars/abc', '', none)).toBeNull();
    expect(catalogueRead('/subscriptions/cars/0', '', none)).toBeNull();
  });
  it('remember the garage key of a raw query string, valid or not', () => {
    let parsed = 0;
    const parse = (search: string) => () => (parsed++, q(search));
    const first = catalogueRead('/subscriptions/garages', 'brand=bmw&month=12', parse('brand=bmw&month=12'));
    expect(catalogueRead('/subscriptions/garages', 'brand=bmw&month=12', parse('brand=bmw&month=12'))).toEqual(first);
    expect(catalogueRead('/subscriptions/garages', 'page=-1', parse('page=-1'))).toBeNull();
    expect(catalogueRead('/subscriptions/garages', 'page=-1', parse('page=-1'))).toBeNull();
    expect(parsed).toBe(2);
  });
});

describe('CatalogueCache', () => {
  const json = (n: number) => Buffer.from(JSON.stringify({ code: 0, message: 'OK', data: { list: Array.from({ length: n }, (_, i) => ({ i, name: `car ${i}` })) } }));

  it('a catalogue bump makes every old key unreachable and frees the memory', () => {
    const cache = new CatalogueCache({ today: () => '2026-01-01' });
    const key = cache.keyOf('cars', false);
    cache.store(key, json(3), false);
    expect(cache.get(key)).toBeDefined();
    cache.changed('catalogue');
    expect(cache.keyOf('cars', false)).not.toBe(key);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('a reservations bump drops only answers with reserved days', () => {
    const cache = new CatalogueCache({ today: () => '2026-01-01' });
    const cars = cache.keyOf('cars', false);
    const butler = cache.keyOf('butler-cars', true);
    cache.store(cars, json(1), false);
    cache.store(butler, json(1), true);
    cache.changed('reservations');
    expect(cache.get(cars)).toBeDefined();
    expect(cache.get(butler)).toBeUndefined();
    expect(cache.keyOf('butler-cars', true)).not.toBe(butler);
    expect(cache.keyOf('cars', false)).toBe(cars);
  });

  it('does not keep an answer computed across a bump', () => {
    const cache = new CatalogueCache({ today: () => '2026-01-01' });
    const key = cache.keyOf('cars', false);
    cache.changed('catalogue'); // a write lands while the answer is being computed
    const entry = cache.store(key, json(1), false);
    expect(entry.raw.length).toBeGreaterThan(0);
    expect(cache.size).toBe(0);
  });

  it('keys change with the Korean day', () => {
    let day = '2026-01-01';
    const cache = new CatalogueCache({ today: () => day });
    const before = cache.keyOf('garage:x', false);
    day = '2026-01-02';
    expect(cache.keyOf('garage:x', false)).not.toBe(before);
  });

  it('compresses each entry once per coding, and both decode to the same bytes', async () => {
    const cache = new CatalogueCache();
    const raw = json(200);
    const entry = cache.store(cache.keyOf('cars', false), raw, false);
    const [br1, br2] = await Promise.all([cache.encoded(entry, 'br'), cache.encoded(entry, 'br')]);
    expect(br1).toBe(br2);
    expect(cache.encoded(entry, 'br')).toBe(br1); // now synchronous: the stored twin
    const gz = await cache.encoded(entry, 'gzip');
    expect(brotliDecompressSync(br1).equals(raw)).toBe(true);
    expect(gunzipSync(gz).equals(raw)).toBe(true);
    expect(cache.bytes).toBeGreaterThan(raw.length + br1.length + gz.length);
  });

  it('one-off keys churn only the probation segment: entries read twice survive a flood', () => {
    const cache = new CatalogueCache({ maxEntries: 40, today: () => '2026-01-01' });
    const popular = cache.keyOf('cars', false);
    cache.store(popular, json(1), false);
    expect(cache.get(popular)).toBeDefined(); // second read: promoted
    for (let i = 0; i < 10_000; i++) cache.store(cache.keyOf(`garage:${i}`, false), json(1), false);
    expect(cache.size).toBeLessThanOrEqual(40);
    expect(cache.get(popular)).toBeDefined();
  });

  it('stays within its byte bound', () => {
    const cache = new CatalogueCache({ maxEntries: 1000, maxBytes: 100_000, today: () => '2026-01-01' });
    for (let i = 0; i < 500; i++) {
      const key = cache.keyOf(`k${i}`, false);
      cache.store(key, json(20), false);
      cache.get(key);
    }
    expect(cache.bytes).toBeLessThanOrEqual(100_000);
  });

  it('hears other replicas through its channel and tells them about its own writes', () => {
    const bus = memoryBus();
    const a = new CatalogueCache({ channel: bus.channel(), today: () => '2026-01-01' });
    const b = new CatalogueCache({ channel: bus.channel(), today: () => '2026-01-01' });
    const keyB = b.keyOf('cars', false);
    b.store(keyB, json(1), false);
    const keyA = a.keyOf('cars', false);
    a.changed('catalogue');
    expect(b.size).toBe(0);
    expect(b.keyOf('cars', false)).not.toBe(keyB);
    expect(a.keyOf('cars', false)).not.toBe(keyA);
  });
});

describe('acceptedEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['identity', null],
    ['*', 'br'],
    ['gzip;q=0, *;q=0.1', 'br'],
    ['deflate', null],
  ] as const)('%s → %s', (header, expected) => {
    expect(acceptedEncoding(header)).toBe(expected);
  });
});
