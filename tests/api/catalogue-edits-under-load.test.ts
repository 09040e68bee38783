import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/api/app';
import { CatalogueCache } from '../../src/api/catalogue/cache/catalogue-cache';
import { seedDatabase } from '../../src/api/seed/seed';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { createTestContext, type TestContext } from './helpers';

/**
 * Garage reads while the catalogue is edited (issue 47): each edit costs one version query
 * however many garage keys are recomputed, and while one request recomputes a key the others
 * get its previous answer for at most a second after the edit. Races are replayed by holding
 * the database's answer to the version query, never by timing.
 */
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  await seedDatabase(t.database.db);
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
  versionQueries.release();
});

/**
 * Counts the catalogue version queries (catalogueVersion) at the driver, and can hold their
 * answers: `hold()` makes the next ones wait (each already ran in the database) until `release()`.
 */
const versionQueries = (() => {
  let count = 0;
  let gate: Promise<void> | null = null;
  let open = () => {};
  let reached = () => {};
  let wrapped = false;
  return {
    get count() {
      return count;
    },
    wrap(client: { query: (...args: any[]) => Promise<unknown> }) {
      if (wrapped) return;
      wrapped = true;
      const real = client.query.bind(client);
      client.query = async (...args: any[]) => {
        const text: string = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '');
        const result = await real(...args);
        if (/^select "version" from "catalogue_state"/i.test(text)) {
          count++;
          reached();
          if (gate) await gate;
        }
        return result;
      };
    },
    reset() {
      count = 0;
    },
    /** Holds version answers; resolves once the first held query has run. */
    hold(): Promise<void> {
      gate = new Promise((resolve) => (open = resolve));
      return new Promise((resolve) => (reached = resolve));
    },
    release() {
      open();
      gate = null;
      reached = () => {};
    },
  };
})();

function appWith(catalogueCache?: CatalogueCache) {
  versionQueries.wrap((t.database.db as any).$client);
  // Its own db object: the garage index and its version are kept per db, so each app starts cold.
  const db = Object.create(t.database.db);
  return createApp({ db, config: t.config, catalogueCache });
}

const editPrice = async (app: ReturnType<typeof createApp>, id: number, price: number) => {
  const res = await app.request(`/admin/cars/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ retail_price: price }),
  });
  expect(res.status).toBe(200);
};
const garage = async (app: ReturnType<typeof createApp>, query = '') => {
  const res = await app.request(`/subscriptions/garages${query}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { cars: { id: number; retail_price: number | null }[] } };
  return { state: res.headers.get('x-cache'), cacheControl: res.headers.get('cache-control'), cars: body.data.cars };
};
const priceOf = (cars: { id: number; retail_price: number | null }[], id: number) => cars.find((c) => c.id === id)?.retail_price;

const FILTERS = ['', '?page=2', '?brand=ferrari', '?brand=porsche', '?sort=mileage&order=desc', '?month=12', '?brand=bmw', '?sort=release_date'];

describe('the catalogue version after an edit', () => {
  it('is read once for many concurrent garage reads', async () => {
    // The clock stands still: the one-second recheck never comes into it; only change notices do.
    vi.useFakeTimers({ toFake: ['Date'] });
    const app = appWith();
    const { cars } = await garage(app);
    await editPrice(app, cars[0].id, 123_450_000);
    versionQueries.reset();
    const answers = await Promise.all(FILTERS.map((q) => garage(app, q)));
    expect(versionQueries.count).toBe(1);
    expect(priceOf(answers[0].cars, cars[0].id)).toBe(123_450_000);
  });

  it('read before an edit committed is not trusted after it: the next read sees the edit', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const app = appWith();
    const { cars } = await garage(app);
    const id = cars[0].id;
    await editPrice(app, id, 111_000_000);
    // A read whose version query ran before the next edit and answers after it.
    const held = versionQueries.hold();
    const early = garage(app, '?page=1&sort=release_date');
    await held;
    await editPrice(app, id, 222_000_000);
    versionQueries.release();
    await early;
    expect(priceOf((await garage(app)).cars, id)).toBe(222_000_000);
  });
});

describe('while a key is recomputed after an edit', () => {
  it('the first reader gets the edit; the others the previous answer, only within the window', async () => {
    let now = 1_000_000;
    const cache = new CatalogueCache({ staleMs: 1000, now: () => now });
    const app = appWith(cache);
    const before = await garage(app, '?brand=ferrari');
    await garage(app, '?brand=ferrari');
    const id = before.cars[0].id;

    // Sequential edit, then read: nobody else computes the key, so this read does, and sees the edit.
    await editPrice(app, id, 310_000_000);
    const first = await garage(app, '?brand=ferrari');
    expect(first.state).toBe('MISS');
    expect(priceOf(first.cars, id)).toBe(310_000_000);

    // Another edit; the first reader's computation is held at its version query.
    await editPrice(app, id, 320_000_000);
    const held = versionQueries.hold();
    const computing = garage(app, '?brand=ferrari');
    await held;
    const follower = await garage(app, '?brand=ferrari');
    expect(follower.state).toBe('STALE');
    expect(priceOf(follower.cars, id)).toBe(310_000_000);
    expect(follower.cacheControl).toBe('public, no-cache');
    expect(cache.stats.stale).toBe(1);

    // Past the window a follower waits for the computation, and gets the edit.
    now += 1000;
    const late = garage(app, '?brand=ferrari');
    versionQueries.release();
    expect(priceOf((await computing).cars, id)).toBe(320_000_000);
    expect(priceOf((await late).cars, id)).toBe(320_000_000);
    expect(cache.stats.stale).toBe(1);
  });
});

describe('stand-ins in the cache', () => {
  const keyOf = (cache: CatalogueCache, read: string, reservations = false) => cache.keyOf(read, reservations);

  it('are answered only while their key is being computed', () => {
    const cache = new CatalogueCache({ staleMs: 1000, now: () => 0, today: () => '2026-01-01' });
    cache.store(keyOf(cache, 'garage:a'), Buffer.from('old'), false);
    cache.changed('catalogue');
    const key = keyOf(cache, 'garage:a');
    expect(cache.stale(key)).toBeUndefined();
    const finish = cache.begin(key);
    expect(cache.stale(key)?.raw.toString()).toBe('old');
    finish(null);
    expect(cache.stale(key)).toBeUndefined();
  });

  it('never stand in longer than the window after the edit they miss, across edits', () => {
    let now = 0;
    const cache = new CatalogueCache({ staleMs: 1000, now: () => now, today: () => '2026-01-01' });
    cache.store(keyOf(cache, 'garage:a'), Buffer.from('a0'), false);
    cache.store(keyOf(cache, 'garage:b'), Buffer.from('b0'), false);
    cache.changed('catalogue'); // edit 1 at 0: both stand in until 1000
    now = 200;
    cache.store(keyOf(cache, 'garage:b'), Buffer.from('b1'), false); // b recomputed after edit 1
    now = 500;
    cache.changed('catalogue'); // edit 2 at 500: b1 until 1500, a0 still only until 1000
    now = 999;
    const a = keyOf(cache, 'garage:a');
    const b = keyOf(cache, 'garage:b');
    cache.begin(a);
    cache.begin(b);
    expect(cache.stale(a)?.raw.toString()).toBe('a0');
    expect(cache.stale(b)?.raw.toString()).toBe('b1');
    now = 1000;
    expect(cache.stale(a)).toBeUndefined();
    expect(cache.stale(b)?.raw.toString()).toBe('b1');
    now = 1500;
    expect(cache.stale(b)).toBeUndefined();
  });

  it('with bookings in them are dropped by a booking change', () => {
    const cache = new CatalogueCache({ staleMs: 1000, now: () => 0, today: () => '2026-01-01' });
    cache.store(keyOf(cache, 'garage:available', true), Buffer.from('taken: 1'), true);
    cache.store(keyOf(cache, 'garage:all'), Buffer.from('all'), false);
    cache.changed('catalogue');
    cache.changed('reservations');
    const available = keyOf(cache, 'garage:available', true);
    const all = keyOf(cache, 'garage:all');
    cache.begin(available);
    cache.begin(all);
    expect(cache.stale(available)).toBeUndefined();
    expect(cache.stale(all)?.raw.toString()).toBe('all');
  });

  it('are off with staleMs 0', () => {
    const cache = new CatalogueCache({ staleMs: 0, now: () => 0, today: () => '2026-01-01' });
    cache.store(keyOf(cache, 'garage:a'), Buffer.from('old'), false);
    cache.changed('catalogue');
    const key = keyOf(cache, 'garage:a');
    cache.begin(key);
    expect(cache.stale(key)).toBeUndefined();
  });
});
