import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { createApp } from '../../src/api/app';
import { CatalogueCache } from '../../src/api/catalogue/cache/catalogue-cache';
import { memoryBus, pgChangeChannel } from '../../src/host/catalogue-changes';
import { insertUser } from '../../src/api/seed/factories';
import { butlerReservedDates } from '../../src/api/db/schema';
import { seedDatabase } from '../../src/api/seed/seed';
import { bumpCatalogueVersion, catalogueVersion } from '../../src/api/catalogue/catalogue';
import { issueSandboxBillingKey } from '../../src/api/billing/sandbox-provider';
import { openSession } from '../../src/api/accounts/sessions';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { createTestContext, type TestContext } from './helpers';

/**
 * The catalogue read cache as `npm start` mounts it (createApp with a CatalogueCache), on
 * the same database as the plain test app `t.app`.
 */
let t: TestContext;
let cache: CatalogueCache;
let app: ReturnType<typeof createApp>;
const ADMIN = TEST_ADMIN_TOKEN;
const MAX_ENTRIES = 60;
const MAX_BYTES = 4 * 1024 * 1024;

beforeAll(async () => {
  t = await createTestContext();
  await seedDatabase(t.database.db);
  cache = new CatalogueCache({ maxEntries: MAX_ENTRIES, maxBytes: MAX_BYTES });
  app = createApp({ db: t.database.db, config: t.config, catalogueCache: cache });
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}, on = app) => on.request(path, { headers });
const json = async (path: string, headers: Record<string, string> = {}, on = app) => {
  const res = await get(path, headers, on);
  expect(res.status, path).toBe(200);
  return (await res.json()) as { code: number; data: any };
};
const write = (method: string, path: string, body: unknown, token = ADMIN, on = app) =>
  on.request(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('repeat reads', () => {
  it('are answered from the cache with the same bytes, and Cache-Control for CDNs', async () => {
    const first = await get('/subscriptions/cars');
    const second = await get('/subscriptions/cars');
    expect(first.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=10, stale-while-revalidate=60');
    expect(second.headers.get('vary')).toBe('Accept-Encoding');
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('cover every catalogue read, with answers equal to the uncached app', async () => {
    for (const path of [
      '/subscriptions/cars', '/subscriptions/cars/3', '/subscriptions/garages?brand=ferrari&sort=mileage&order=desc', '/subscriptions/models',
      '/subscriptions/models/1', '/butlers/cars', '/butlers/cars/1', '/catalogue', '/services/faqs', '/services/faqs/1', '/services/terms', '/services/privacy-policies',
    ]) {
      await get(path);
      const cached = await get(path);
      expect(cached.headers.get('x-cache'), path).toBe('HIT');
      expect(cached.headers.get('etag'), path).toMatch(/^"[\w-]{27}"$/);
      const plain = await t.app.request(path);
      expect(await cached.json(), path).toEqual(await plain.json());
    }
  });

  it('HEAD answers the headers of the cached GET without a body', async () => {
    await get('/subscriptions/models');
    const res = await app.request('/subscriptions/models', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(await res.text()).toBe('');
  });
});

describe('an edit', () => {
  it('is visible on the next read of the car, the garage, the models and /catalogue', async () => {
    const car = (await json('/subscriptions/cars/5')).data.car;
    const garageBefore = (await json(`/subscriptions/garages?model=${car.model.id}`)).data;
    const modelsBefore = (await json('/subscriptions/models')).data.models;
    const catalogueBefore = (await json('/catalogue')).data;
    expect((await get('/subscriptions/cars/5')).headers.get('x-cache')).toBe('HIT');

    const patched = await write('PATCH', '/admin/cars/5', { sub_model: '방금 바뀐 세부 모델' });
    expect(patched.status).toBe(200);
    expect((await json('/subscriptions/cars/5')).data.car.sub_model).toBe('방금 바뀐 세부 모델');

    const created = await write('POST', '/admin/cars', { model_id: car.model.id, sub_model: '새로 들어온 차', subscription_fee_12: 3_000_000 });
    expect(created.status).toBe(201);
    const newId = (await created.json()).data.car.id;
    const garageAfter = (await json(`/subscriptions/garages?model=${car.model.id}`)).data;
    expect(garageAfter.pagination_info.count).toBe(garageBefore.pagination_info.count + 1);
    const modelsAfter = (await json('/subscriptions/models')).data.models;
    const count = (list: any[]) => list.find((m) => m.id === car.model.id).car_count;
    expect(count(modelsAfter)).toBe(count(modelsBefore) + 1);
    const catalogueAfter = (await json('/catalogue')).data;
    expect(catalogueAfter.version).toBe(catalogueBefore.version + 2);
    expect(catalogueAfter.cars.map((c: any) => c.id)).toContain(newId);
  });

  it('is visible on another replica as soon as the change notice arrives', async () => {
    const bus = memoryBus();
    const replicaA = createApp({ db: t.database.db, config: t.config, catalogueCache: new CatalogueCache({ channel: bus.channel() }) });
    const replicaB = createApp({ db: t.database.db, config: t.config, catalogueCache: new CatalogueCache({ channel: bus.channel() }) });
    await get('/subscriptions/cars/6', {}, replicaB);
    expect((await get('/subscriptions/cars/6', {}, replicaB)).headers.get('x-cache')).toBe('HIT');
    expect((await write('PATCH', '/admin/cars/6', { color: '새 색상' }, ADMIN, replicaA)).status).toBe(200);
    expect((await json('/subscriptions/cars/6', {}, replicaB)).data.car.color).toBe('새 색상');
  });
});

describe('validators', () => {
  it('If-None-Match answers 304 with an empty body, per coding, until the content changes', async () => {
    const first = await get('/subscriptions/garages?brand=porsche');
    const etag = first.headers.get('etag')!;
    const again = await get('/subscriptions/garages?brand=porsche', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toContain('public');

    const br = await get('/subscriptions/garages?brand=porsche', { 'accept-encoding': 'br' });
    expect(br.headers.get('etag')).toBe(etag.replace(/"$/, '-br"'));
    expect((await get('/subscriptions/garages?brand=porsche', { 'accept-encoding': 'br', 'if-none-match': `W/${br.headers.get('etag')}` })).status).toBe(304);
    expect((await get('/subscriptions/garages?brand=porsche', { 'if-none-match': '"something-else"' })).status).toBe(200);

    const target = (await json('/subscriptions/garages?brand=porsche')).data.cars[0].id;
    expect((await write('PATCH', `/admin/cars/${target}`, { mileage: 12_345 })).status).toBe(200);
    const changed = await get('/subscriptions/garages?brand=porsche', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('an edit that leaves an answer unchanged keeps its ETag (content hash), so clients keep their copy', async () => {
    const before = (await get('/services/faqs')).headers.get('etag');
    expect((await write('PATCH', '/admin/cars/7', { color: '무광 블랙' })).status).toBe(200);
    const after = await get('/services/faqs', { 'if-none-match': before! });
    expect(after.status).toBe(304);
    expect(after.headers.get('x-cache')).toBe('MISS');
  });
});

describe('compression', () => {
  it('br and gzip bodies decode to the same JSON, each compressed once', async () => {
    const path = '/subscriptions/garages?available_only=true&month=12';
    const plain = Buffer.from(await (await get(path)).arrayBuffer());
    const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get(path, { 'accept-encoding': 'gzip' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const brBody = Buffer.from(await br.arrayBuffer());
    const gzBody = Buffer.from(await gz.arrayBuffer());
    expect(brBody.length).toBeLessThan(plain.length / 2);
    expect(Number(br.headers.get('content-length'))).toBe(brBody.length);
    expect(JSON.parse(brotliDecompressSync(brBody).toString())).toEqual(JSON.parse(plain.toString()));
    expect(JSON.parse(gunzipSync(gzBody).toString())).toEqual(JSON.parse(plain.toString()));
    const brAgain = Buffer.from(await (await get(path, { 'accept-encoding': 'br' })).arrayBuffer());
    expect(brAgain.equals(brBody)).toBe(true);
  });

  it('small answers and clients that accept no coding get the JSON as it is', async () => {
    const res = await get('/subscriptions/garages?brand=nothing-like-this', { 'accept-encoding': 'identity' });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect((await res.json()).data.cars).toEqual([]);
  });
});

describe('cache keys', () => {
  it('are the same whatever the parameter order, repetition, case or unknown parameters', async () => {
    await get('/subscriptions/garages?brand=ferrari&brand=lamborghini&month=12&month=24');
    const size = cache.size;
    for (const variant of [
      '?brand=lamborghini&brand=ferrari&month=24&month=12',
      '?month=12&brand=Lamborghini&brand=ferrari&month=24&brand=ferrari',
      '?brand=ferrari&brand=lamborghini&month=12&month=24&utm_source=naver&fbclid=abc',
      '?brand=ferrari&brand=lamborghini&month=12&month=24&page=1&available_only=false&order=desc',
    ]) {
      const res = await get(`/subscriptions/garages${variant}`);
      expect(res.headers.get('x-cache'), variant).toBe('HIT');
    }
    expect(cache.size).toBe(size);
  });

  it('cannot be exploded: 10,000 random junk queries keep the cache within its bounds and the popular answers in it', async () => {
    const popular = '/subscriptions/garages?brand=ferrari';
    await get(popular);
    await get(popular); // read twice: protected
    const random = () => Math.random().toString(36).slice(2, 10);
    // Valid filters are 1 in 20 (each a new key and a database query: 500 keys for 60 places); the rest is junk.
    for (let i = 0; i < 10_000; i++) {
      const kind = i % 20;
      const query =
        kind === 0 ? `?brand=${random()}&x=${random()}` // valid: a new key each time
          : kind === 10 ? `?page=${1 + (i % 10_000)}&available_only=${i % 40 ? 'true' : 'false'}` // valid
            : kind % 3 === 0 ? `?${random()}=${random()}&${random()}=1` // unknown parameters: the same key as no query
              : kind % 3 === 1 ? `?page=${random()}` // invalid: 400, never cached
                : `?month=${1 + (i % 97)}&sort=${random()}`; // invalid
      const res = await get(`/subscriptions/garages${query}`);
      expect([200, 400]).toContain(res.status);
      await res.arrayBuffer();
      expect(cache.size).toBeLessThanOrEqual(MAX_ENTRIES);
    }
    expect(cache.size).toBeLessThanOrEqual(MAX_ENTRIES);
    expect(cache.bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect((await get(popular)).headers.get('x-cache')).toBe('HIT');
  }, 240_000);

  it('an invalid query still reaches the route: 400 with the Korean envelope, never cached', async () => {
    const size = cache.size;
    for (let i = 0; i < 2; i++) {
      const res = await get('/subscriptions/garages?page=0&month=5');
      expect(res.status).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('etag')).toBeNull();
      const body = await res.json();
      expect(body.message).toBe('입력값을 확인해주세요.');
      expect(body.code).not.toBe(0);
      expect(Object.keys(body.errors)).toContain('page');
      expect(Object.keys(body.errors).some((k) => k.startsWith('month'))).toBe(true);
    }
    const missing = await get('/subscriptions/cars/99999');
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe('차량 정보를 찾을 수 없습니다.');
    expect(cache.size).toBe(size);
  });
});

describe('butler reserved days', () => {
  it('the reservation hook drops cached /butlers/cars answers', async () => {
    const before = (await json('/butlers/cars/2')).data.car.butler_reservated_dates as string[];
    expect((await get('/butlers/cars/2')).headers.get('cache-control')).toBe('public, no-cache');
    const day = addDays(todayInKorea(new Date()), 200);
    expect(before).not.toContain(day);
    await t.database.db.insert(butlerReservedDates).values({ butlerCarId: 2, date: day });
    // Written behind the API's back: still the cached answer.
    expect((await json('/butlers/cars/2')).data.car.butler_reservated_dates).not.toContain(day);
    cache.changed('reservations'); // what deps.onReservationChange() does
    expect((await json('/butlers/cars/2')).data.car.butler_reservated_dates).toContain(day);
    expect((await json('/butlers/cars')).data.cars.find((c: any) => c.id === 2).butler_reservated_dates).toContain(day);
  });

  it('a booking through the API is visible on the next read of /butlers/cars', async () => {
    await json('/butlers/cars');
    expect((await get('/butlers/cars')).headers.get('x-cache')).toBe('HIT');
    const catalogueBefore = await json('/catalogue');
    const user = await insertUser(t.database.db);
    const token = (await openSession(t.database.db, t.config, user.id)).access_token;
    const day = addDays(todayInKorea(new Date()), 90);
    const start = `${day}T09:00:00+09:00`;
    const res = await write('POST', '/butlers/cars/3/request', {
      start_at: start, end_at: new Date(new Date(start).getTime() + 8 * 3_600_000).toISOString(),
      start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272', way_point_requests: [],
      passenger_count: 2, purpose: '비즈니스 미팅', memo: '', driver_preference: 'any', coupon_id: null, point_amount: null,
      billing_key: issueSandboxBillingKey(t.config),
    }, token);
    expect(res.status, await res.clone().text()).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const car = (await json('/butlers/cars')).data.cars.find((c: any) => c.id === 3);
    expect(car.butler_reservated_dates).toContain(day);
    const catalogueAfter = await json('/catalogue');
    expect(catalogueAfter.data.butler_cars.find((c: any) => c.id === 3).butler_reservated_dates).toContain(day);
    expect(catalogueBefore.data.butler_cars.find((c: any) => c.id === 3).butler_reservated_dates).not.toContain(day);
  });
});

describe('per-user answers', () => {
  it('are never cached and say no-store', async () => {
    const user = await insertUser(t.database.db);
    const token = (await openSession(t.database.db, t.config, user.id)).access_token;
    for (const path of ['/butlers/requests', '/butlers', '/health']) {
      const res = await app.request(path, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('etag'), path).toBeNull();
    }
    expect(cache.keys().some((k) => k.includes('request'))).toBe(false);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('replicas on PostgreSQL', () => {
  it('hear each other through LISTEN/NOTIFY, and the version poll catches writes that send no notice', async () => {
    const result = (await t.database.db.execute(sql`select current_database() as name`)) as { rows: { name: string }[] };
    const [{ name }] = result.rows;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const { db } = t.database;
    const channel = () =>
      pgChangeChannel({ url: url.toString(), send: (n, p) => db.execute(sql`select pg_notify(${n}, ${p})`), readVersion: () => catalogueVersion(db), pollMs: 200 });
    const channelA = channel();
    const channelB = channel();
    await Promise.all([channelA.ready, channelB.ready]);
    const cacheB = new CatalogueCache({ channel: channelB });
    const replicaA = createApp({ db, config: t.config, catalogueCache: new CatalogueCache({ channel: channelA }) });
    const replicaB = createApp({ db, config: t.config, catalogueCache: cacheB });
    try {
      await get('/subscriptions/cars/8', {}, replicaB);
      expect((await get('/subscriptions/cars/8', {}, replicaB)).headers.get('x-cache')).toBe('HIT');
      expect((await write('PATCH', '/admin/cars/8', { trim: '알림으로 전달' }, ADMIN, replicaA)).status).toBe(200);
      await expect.poll(async () => (await json('/subscriptions/cars/8', {}, replicaB)).data.car.trim, { timeout: 3000, interval: 20 }).toBe('알림으로 전달');

      await get('/services/faqs', {}, replicaB);
      expect(cacheB.size).toBeGreaterThan(0);
      await bumpCatalogueVersion(db); // e.g. a seed script: no NOTIFY
      await expect.poll(() => cacheB.size, { timeout: 3000, interval: 50 }).toBe(0);
    } finally {
      await channelA.close();
      await channelB.close();
    }
  });
});
