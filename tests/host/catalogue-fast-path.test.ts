import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serve, type ServerType } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { CatalogueCache } from '../../src/api/catalogue/cache/catalogue-cache';
import { CatalogueFastPath } from '../../src/host/fast-path';
import { catalogueRead } from '../../src/api/catalogue/cache/catalogue-keys';
import { compressJsonAnswers } from '../../src/host/compression';
import { cars } from '../../src/api/db/schema';
import { seedDatabase } from '../../src/api/seed/seed';
import { bumpCatalogueVersion } from '../../src/api/catalogue/catalogue';
import { createTestContext, type TestContext } from '../api/helpers';

/**
 * The product's composition over a real socket (as src/host/main.ts serves it): the fast
 * path in front, compressJsonAnswers on /api/*, the API with its catalogue cache.
 */
let t: TestContext;
let cache: CatalogueCache;
let fast: CatalogueFastPath;
let server: ServerType;
let base: string;
let day = '2026-11-23';

beforeAll(async () => {
  t = await createTestContext();
  await seedDatabase(t.database.db);
  cache = new CatalogueCache({ today: () => day });
  fast = new CatalogueFastPath(cache);
  const site = new Hono();
  site.use('/api/*', compressJsonAnswers());
  site.route('/api', createApp({ db: t.database.db, config: t.config, catalogueCache: cache }));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: fast.recording(site.fetch), createServer: fast.serverFactory(), port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

const GARAGE = '/subscriptions/garages?brand=ferrari&sort=mileage&order=asc';
const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers: { 'accept-encoding': 'identity', ...headers } });
/** The headers a client sees, without the per-response Date. */
const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([name]) => name !== 'date' && name !== 'connection' && name !== 'keep-alive'));

async function servedFast<T>(run: () => Promise<T>): Promise<{ value: T; fast: boolean }> {
  const before = fast.stats.served;
  const value = await run();
  return { value, fast: fast.stats.served > before };
}

describe('the catalogue fast path', () => {
  it('replays the full pipeline answer for the same URL: same bytes, same headers, x-cache HIT', async () => {
    const first = await servedFast(() => get(GARAGE));
    expect(first.fast).toBe(false);
    const firstBody = await first.value.text();
    const second = await servedFast(() => get(GARAGE));
    expect(second.fast).toBe(true);
    expect(await second.value.text()).toBe(firstBody);
    expect(headersOf(second.value)).toEqual({ ...headersOf(first.value), 'x-cache': 'HIT' });
    expect(second.value.headers.get('content-length')).toBe(String(Buffer.byteLength(firstBody)));
  });

  it('keeps codings apart: a br client gets the br twin, an identity client the JSON', async () => {
    const br = { 'accept-encoding': 'br' };
    await get('/subscriptions/cars', br);
    const { value: res, fast: wasFast } = await servedFast(() => get('/subscriptions/cars', br));
    expect(wasFast).toBe(true);
    expect(res.headers.get('content-encoding')).toBe('br');
    // fetch decodes the br body (it fails on a broken one).
    const decoded = await res.json();
    const plain = await (await get('/subscriptions/cars')).json();
    expect(decoded).toEqual(plain);
  });

  it('answers If-None-Match with 304 and no body', async () => {
    const etag = (await get(GARAGE)).headers.get('etag')!;
    const { value: res, fast: wasFast } = await servedFast(() => get(GARAGE, { 'if-none-match': etag }));
    expect(wasFast).toBe(true);
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
  });

  it('never replays an answer an edit made stale', async () => {
    const path = '/subscriptions/cars/1';
    await get(path);
    expect((await servedFast(() => get(path))).fast).toBe(true);
    await t.database.db.update(cars).set({ retailPrice: 123_456_789 }).where(eq(cars.id, 1));
    await bumpCatalogueVersion(t.database.db);
    cache.changed('catalogue');
    const after = await servedFast(() => get(path));
    expect(after.fast).toBe(false);
    const body = (await after.value.json()) as { data: { car: { retail_price: number } } };
    expect(body.data.car.retail_price).toBe(123_456_789);
  });

  it('right after an edit replays the previous answer only while another request computes it, and says so', async () => {
    const path = '/subscriptions/cars/2';
    const before = await (await get(path)).text();
    expect((await servedFast(() => get(path))).fast).toBe(true);
    await t.database.db.update(cars).set({ retailPrice: 222_333_444 }).where(eq(cars.id, 2));
    await bumpCatalogueVersion(t.database.db);
    cache.changed('catalogue');
    // Another request computing the key: the fast path answers the stand-in, marked, not for CDNs to keep.
    const finish = cache.begin(cache.keyOf(catalogueRead('/subscriptions/cars/2', '', () => ({}))!.key, false));
    const standIn = await servedFast(() => get(path));
    expect(standIn.fast).toBe(true);
    expect(standIn.value.headers.get('x-cache')).toBe('STALE');
    expect(standIn.value.headers.get('cache-control')).toBe('public, no-cache');
    expect(await standIn.value.text()).toBe(before);
    // Once it is done (here with nothing kept), the next request computes and gets the edit.
    finish(null);
    const after = await servedFast(() => get(path));
    expect(after.fast).toBe(false);
    expect(((await after.value.json()) as { data: { car: { retail_price: number } } }).data.car.retail_price).toBe(222_333_444);
  });

  it('never replays across a Korean day (answers with "today" in them change with it)', async () => {
    await get('/subscriptions/models');
    expect((await servedFast(() => get('/subscriptions/models'))).fast).toBe(true);
    day = '2026-11-24';
    expect((await servedFast(() => get('/subscriptions/models'))).fast).toBe(false);
    day = '2026-11-23';
  });

  it('leaves cross-origin requests, HEAD and invalid queries to the full pipeline', async () => {
    await get(GARAGE);
    expect((await servedFast(() => get(GARAGE, { origin: 'https://elsewhere.example' }))).fast).toBe(false);
    expect((await servedFast(() => fetch(base + GARAGE, { method: 'HEAD' }))).fast).toBe(false);
    for (let i = 0; i < 2; i++) {
      const { value: res, fast: wasFast } = await servedFast(() => get('/subscriptions/garages?page=-1'));
      expect(wasFast).toBe(false);
      expect(res.status).toBe(400);
    }
  });
});

describe('JSON compression', () => {
  const big = { code: 0, message: 'OK', data: { rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `차량 ${i}` })) } };
  const app = new Hono();
  app.use('*', compressJsonAnswers());
  app.get('/big', (c) => c.json(big));
  app.get('/small', (c) => c.json({ code: 0, message: 'OK', data: {} }));
  app.get('/stream', (c) => c.body('data: 1\n\n', 200, { 'content-type': 'text/event-stream' }));

  it('sends small answers as they are, with a Content-Length', async () => {
    const res = await app.request('/small', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBe((await res.text()).length);
  });

  it('compresses large answers for clients that accept it, and only then', async () => {
    const br = await app.request('/big', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString())).toEqual(big);
    const gz = await app.request('/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(big);
    const plain = await app.request('/big');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(big);
  });

  it('leaves event streams alone', async () => {
    const res = await app.request('/stream', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe('data: 1\n\n');
  });
});
