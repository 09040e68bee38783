import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app';
import { auditLog, cars, subscriptionRequests } from '../../src/api/db/schema';
import { seedDatabase } from '../../src/api/seed/seed';
import { loadConfig, TEST_ADMIN_TOKEN } from '../../src/api/env';
import { listStaff, setStaffRole } from '../../src/api/accounts/staff';
import { unrouted, type Answer, type Method, type RoutePath, type Routed, type Unrouted } from './client';
import { createTestContext, customer, type TestContext } from './helpers';

let t: TestContext;
let staff: string;
let userToken: string;
let staffEmail: string;
const dataDir = mkdtempSync(path.join(tmpdir(), 'admin-console-'));

beforeAll(async () => {
  t = await createTestContext({ dataDir });
  await seedDatabase(t.database.db, { cars: 12 });
  const s = await customer(t);
  staffEmail = s.user.email!;
  expect(await setStaffRole(t.database.db, staffEmail, true)).toMatchObject({ id: s.user.id });
  staff = s.token;
  userToken = (await customer(t)).token;
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type PathOf<M extends Method> = RoutePath<M> | Unrouted | (string & {});
/** Calls with `token`, each path checked and its answer typed as `ctx.call`'s. */
const as = (token: string) => ({
  get: <P extends PathOf<'GET'>>(p: Routed<'GET', P>): Promise<Answer<'GET', P>> => t.call('GET', p, { token }),
  post: <P extends PathOf<'POST'>>(p: Routed<'POST', P>, json: unknown = {}): Promise<Answer<'POST', P>> => t.call('POST', p, { token, json }),
  patch: <P extends PathOf<'PATCH'>>(p: Routed<'PATCH', P>, json: unknown): Promise<Answer<'PATCH', P>> => t.call('PATCH', p, { token, json }),
  del: <P extends PathOf<'DELETE'>>(p: Routed<'DELETE', P>): Promise<Answer<'DELETE', P>> => t.call('DELETE', p, { token }),
});

describe('roles', () => {
  it('lets staff and the machine token in, refuses customers (403) and anonymous callers', async () => {
    expect((await as(staff).get('/admin/cars')).status).toBe(200);
    expect((await as(TEST_ADMIN_TOKEN).get('/admin/cars')).status).toBe(200);
    const refused = await as(userToken).get('/admin/cars');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/권한이 없습니다/);
    expect((await t.call('GET', '/admin/cars')).status).toBe(403);
  });
  it('keeps publishing to staff and the webhook to the machine token', async () => {
    expect((await as(userToken).post('/admin/publish')).status).toBe(403);
    expect((await as(TEST_ADMIN_TOKEN).post('/admin/publish')).status).toBe(401);
    expect((await as(staff).post('/admin/webhooks/publish')).status).toBe(403);
  });
  it('lists staff and takes the role back', async () => {
    expect((await listStaff(t.database.db)).map((s) => s.email)).toContain(staffEmail);
    expect(await setStaffRole(t.database.db, 'nobody@example.com', true)).toBeNull();
  });
  it('refuses a machine token shorter than 32 characters at start', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN: 'short-token', JWT_SECRET: 'x'.repeat(32) })).toThrow(/ADMIN_TOKEN must be at least 32/);
    expect(() => loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN: 'a'.repeat(32), JWT_SECRET: 'x'.repeat(32) })).not.toThrow();
  });
  it('keeps only the digest of the machine token in the config', () => {
    expect(JSON.stringify(t.config)).not.toContain(TEST_ADMIN_TOKEN);
  });
  it('rate-limits guesses per client IP with a Korean 429', async () => {
    const guess = (ip: string) => t.call('GET', '/admin/cars', { token: `guess-${ip}-${'x'.repeat(32)}`, headers: { 'x-forwarded-for': ip } });
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await guess('203.0.113.9')).status);
    expect(statuses.slice(0, 20).every((s) => s === 403)).toBe(true);
    const limited = await guess('203.0.113.9');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/요청이 너무 많습니다/);
    // Someone else's wrong guesses from the same address never lock the right token out (nor a staff session); another IP is unaffected.
    expect((await t.call('GET', '/admin/cars', { token: TEST_ADMIN_TOKEN, headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(200);
    expect((await t.call('POST', '/admin/webhooks/publish', { token: TEST_ADMIN_TOKEN, headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(202);
    expect((await guess('203.0.113.9')).status).toBe(429);
    expect((await guess('203.0.113.10')).status).toBe(403);
  });
});

describe('partial updates', () => {
  it('PATCH {retail_price} changes only the price: images, tags and availability stay', async () => {
    const before = (await as(staff).get('/admin/cars/4')).body.data.car;
    await t.database.db.update(cars).set({ isNew: true, isHot: true, isSubscriptable: false }).where(eq(cars.id, 4));
    const res = await as(staff).patch('/admin/cars/4', { retail_price: 1 });
    expect(res.status).toBe(200);
    const after = res.body.data.car;
    expect(after.retail_price).toBe(1);
    expect(after.images).toEqual(before.images);
    expect(after.gallery).toEqual(before.gallery);
    expect(after.images.length).toBeGreaterThan(0);
    expect(after).toMatchObject({ is_new: true, is_hot: true, is_subscriptable: false, sub_model: before.sub_model, color: before.color, model_id: before.model.id });
    for (const k of Object.keys(before).filter((k) => k.startsWith('subscription_fee_')) as (keyof typeof before)[]) expect(after[k]).toBe(before[k]);
  });
  it('a fee sent keeps the other terms and recomputes the minimum', async () => {
    const before = (await as(staff).get('/admin/cars/5')).body.data.car;
    const after = (await as(staff).patch('/admin/cars/5', { subscription_fee_1: 100 })).body.data.car;
    expect(after.subscription_fee_1).toBe(100);
    expect(after.subscription_fee_minimum).toBe(100);
    expect(after.subscription_fee_12).toBe(before.subscription_fee_12);
  });
  it('null clears a field', async () => {
    expect((await as(staff).patch('/admin/cars/5', { color: null })).body.data.car.color).toBeNull();
  });
});

describe('validation', () => {
  it('answers bad input with the Korean 400 on the field, never 500', async () => {
    const cases: [string, string, unknown, string][] = [
      ['PATCH', '/admin/cars/4', { retail_price: -1 }, 'retail_price'],
      ['PATCH', '/admin/cars/4', { mileage: 2 ** 31 }, 'mileage'],
      ['PATCH', '/admin/cars/4', { release_date: '2024-02-30' }, 'release_date'],
      ['PATCH', '/admin/cars/4', { gallery: [{ src: 'javascript:alert(1)', alt: '사진' }] }, 'gallery.0.src'],
      ['PATCH', '/admin/cars/4', { gallery: [{ src: '/cars/x.svg', alt: ' ' }] }, 'gallery.0.alt'],
      ['PATCH', '/admin/cars/4', { gallery: ['/cars/x.svg'] }, 'gallery.0'],
      ['PATCH', '/admin/cars/4', { images: ['/cars/x.svg'] }, 'images'],
      ['PATCH', '/admin/butler-cars/1', { gallery: [{ src: '/api/images/0123456789abcdef-480.jpg', alt: '사진' }] }, 'gallery.0.src'],
      ['PATCH', '/admin/cars/4', { model_id: 999_999 }, 'model_id'],
      ['POST', '/admin/brands', { name: '', slug: 'Bad Slug' }, 'slug'],
      ['POST', '/admin/policies', { kind: 'other', title: 'x', content: 'x', version: '1', effective_date: '2026-01-01' }, 'kind'],
      ['POST', '/admin/faqs', { question: '질문' }, 'answer'],
      ['POST', '/admin/uploads', { content_type: 'image/gif', data: 'R0lGOD' }, 'content_type'],
    ];
    for (const [method, p, json, field] of cases) {
      const res = await t.call(method as Method, unrouted(p), { token: staff, json });
      expect(res.status, `${method} ${p} ${JSON.stringify(json)}`).toBe(400);
      expect(res.body.message).toMatch(/[가-힣]/);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
    expect((await as(staff).get('/admin/cars/abc')).status).toBe(400);
    expect((await as(staff).get('/admin/cars?page=0')).status).toBe(400);
    expect((await as(staff).get('/admin/cars/999999')).status).toBe(404);
  });
  it('never answers 5xx to malformed values of any field of any console write', async () => {
    const bad: unknown[] = [null, -1, 2 ** 31, 1.5, 'x'.repeat(6000), '\u0000', {}, [], [null], true, '2024-02-30', '0000-01-01', 'NaN'];
    const fields = ['model_id', 'brand_id', 'sub_model', 'images', 'gallery', 'mileage', 'retail_price', 'is_new', 'release_date', 'subscription_fee_12', 'butler_fee', 'name', 'slug', 'sort_order', 'question', 'answer', 'kind', 'effective_date', 'content_type', 'data'];
    const targets: [string, string][] = [
      ['PATCH', '/admin/cars/4'], ['POST', '/admin/cars'], ['PATCH', '/admin/butler-cars/1'], ['POST', '/admin/brands'], ['PATCH', '/admin/models/1'],
      ['POST', '/admin/faqs'], ['PATCH', '/admin/policies/1'], ['POST', '/admin/uploads'],
    ];
    const statuses = new Set<number>();
    for (const [method, p] of targets) {
      for (const field of fields) {
        for (const value of bad) {
          const res = await t.call(method as Method, unrouted(p), { token: staff, json: { [field]: value } });
          statuses.add(res.status);
          expect(res.status, `${method} ${p} ${field}=${JSON.stringify(value)?.slice(0, 20)}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body.message).toMatch(/[가-힣]/);
        }
      }
    }
    for (const q of ['?page=-1', '?page=abc', '?archived=x', '?q=%00', `?q=${'a'.repeat(200)}`]) expect((await as(staff).get(`/admin/cars${q}`)).status).toBe(400);
    expect(statuses.has(400)).toBe(true);
  }, 300_000);
  it('refuses a duplicate brand slug with 409', async () => {
    const { brands } = (await as(staff).get('/admin/brands')).body.data;
    const res = await as(staff).post('/admin/brands', { name: '중복', slug: brands[0].slug });
    expect(res.status).toBe(409);
  });
});

describe('audit log', () => {
  it('records who changed what with the row before and after', async () => {
    await as(staff).patch('/admin/cars/6', { trim: '감사 기록' });
    const { entries } = (await as(staff).get('/admin/audit?entity=car&entity_id=6')).body.data;
    expect(entries[0]).toMatchObject({ actor: staffEmail, action: 'update', entity: 'car', entity_id: '6' });
    expect(entries[0].after!.trim).toBe('감사 기록');
    expect(entries[0].before!.trim).not.toBe('감사 기록');
    expect(entries[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
  it('names the machine token as the actor of its writes', async () => {
    await as(TEST_ADMIN_TOKEN).patch('/admin/cars/6', { color: '기계' });
    const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, '6')).orderBy(auditLog.id).limit(1).offset(1);
    expect(row).toMatchObject({ actor: 'machine-token', actorUserId: null });
  });
  it('leaves no audit row and no change when the write fails', async () => {
    const count = async () => (await t.database.db.select().from(auditLog)).length;
    const n = await count();
    expect((await as(staff).patch('/admin/cars/999999', { trim: 'x' })).status).toBe(404);
    expect(await count()).toBe(n);
  });
  it('bumps the catalogue version with each write', async () => {
    const v = (await t.call('GET', '/catalogue')).body.data.version;
    await as(staff).patch('/admin/cars/6', { mileage: 1234 });
    expect((await t.call('GET', '/catalogue')).body.data.version).toBe(v + 1);
  });
});

describe('catalogue editing', () => {
  it('creates, edits and deletes brands, models, FAQs and policies', async () => {
    const brand = (await as(staff).post('/admin/brands', { name: '테스트 브랜드', slug: 'test-brand' })).body.data.brand;
    expect(brand).toMatchObject({ name: '테스트 브랜드', slug: 'test-brand', sort_order: 100 });
    const model = (await as(staff).post('/admin/models', { brand_id: brand.id, name: '모델 X' })).body.data.model;
    expect(model.brand_id).toBe(brand.id);
    expect((await as(staff).del(`/admin/brands/${brand.id}`)).status).toBe(409);
    expect((await as(staff).patch(`/admin/models/${model.id}`, { name: '모델 Y' })).body.data.model.name).toBe('모델 Y');
    expect((await as(staff).del(`/admin/models/${model.id}`)).status).toBe(200);
    expect((await as(staff).del(`/admin/brands/${brand.id}`)).status).toBe(200);

    const faq = (await as(staff).post('/admin/faqs', { question: '새 질문', answer: '새 답변' })).body.data.faq;
    expect((await t.call('GET', '/catalogue')).body.data.faqs.map((f: { id: number }) => f.id)).toContain(faq.id);
    expect((await as(staff).patch(`/admin/faqs/${faq.id}`, { answer: '바뀐 답변' })).body.data.faq).toMatchObject({ question: '새 질문', answer: '바뀐 답변' });
    expect((await as(staff).del(`/admin/faqs/${faq.id}`)).status).toBe(200);

    const policy = (await as(staff).post('/admin/policies', { kind: 'terms', title: '이용약관 v9', content: '본문', version: '9.0', effective_date: '2026-01-01' })).body.data.policy;
    expect((await as(staff).get('/admin/policies?kind=terms')).body.data.policies.map((p: { id: number }) => p.id)).toContain(policy.id);
    expect((await as(staff).patch(`/admin/policies/${policy.id}`, { title: '이용약관 v9.1' })).body.data.policy).toMatchObject({ content: '본문', version: '9.0' });
  });
  it('creates and edits a butler car', async () => {
    const { brands } = (await as(staff).get('/admin/brands')).body.data;
    const created = await as(staff).post('/admin/butler-cars', { model_id: brands[0].models[0].id, butler_fee: 500_000, sub_model: '의전용' });
    expect(created.status).toBe(201);
    const id = created.body.data.butler_car.id;
    const patched = (await as(staff).patch(`/admin/butler-cars/${id}`, { butler_fee: 600_000 })).body.data.butler_car;
    expect(patched).toMatchObject({ butler_fee: 600_000, sub_model: '의전용' });
    expect((await t.call('GET', '/butlers/cars')).body.data.cars.map((c: { id: number }) => c.id)).toContain(id);
    await as(staff).post(`/admin/butler-cars/${id}/archive`);
    expect((await t.call('GET', '/butlers/cars')).body.data.cars.map((c: { id: number }) => c.id)).not.toContain(id);
    expect((await as(staff).del(`/admin/butler-cars/${id}`)).status).toBe(200);
  });
  it('searches the car list', async () => {
    const car = (await as(staff).get('/admin/cars/7')).body.data.car;
    const { cars: found } = (await as(staff).get(`/admin/cars?q=${encodeURIComponent(car.model.name)}`)).body.data;
    expect(found.map((c: { id: number }) => c.id)).toContain(7);
    expect((await as(staff).get('/admin/cars?q=7')).body.data.cars.map((c: { id: number }) => c.id)).toContain(7);
  });
});

describe('archive', () => {
  it('takes the car out of every public catalogue query and brings it back on restore', async () => {
    const id = 8;
    const pub = async () => {
      const [home, snapshot, one, garage] = await Promise.all([
        t.call('GET', '/subscriptions/cars'),
        t.call('GET', '/catalogue'),
        t.call('GET', `/subscriptions/cars/${id}`),
        t.call('GET', '/subscriptions/garages?page=1'),
      ]);
      const ids = [...home.body.data.new_cars, ...home.body.data.hot_cars, ...snapshot.body.data.cars, ...garage.body.data.cars].map((c: { id: number }) => c.id);
      return { listed: ids.includes(id), single: one.status, count: garage.body.data.pagination_info.count };
    };
    const before = await pub();
    expect(before).toMatchObject({ listed: true, single: 200 });
    const archived = await as(staff).post(`/admin/cars/${id}/archive`);
    expect(archived.body.data.car.archived_at).toMatch(/^\d{4}-/);
    const after = await pub();
    expect(after).toMatchObject({ listed: false, single: 404, count: before.count - 1 });
    expect((await as(staff).get('/admin/cars?archived=only')).body.data.cars.map((c: { id: number }) => c.id)).toEqual([id]);
    await as(staff).post(`/admin/cars/${id}/restore`);
    expect(await pub()).toMatchObject({ listed: true, single: 200 });
  });
  it('deletes a car nothing references', async () => {
    const { brands } = (await as(staff).get('/admin/brands')).body.data;
    const car = (await as(staff).post('/admin/cars', { model_id: brands[0].models[0].id, subscription_fee_12: 1_000_000 })).body.data.car;
    expect(car).toMatchObject({ is_new: false, is_hot: false, is_subscriptable: true, images: [], gallery: [] });
    expect((await as(staff).del(`/admin/cars/${car.id}`)).status).toBe(200);
    expect((await as(staff).get(`/admin/cars/${car.id}`)).status).toBe(404);
  });
});

describe('uploads', () => {
  // A real 1×1 PNG: file-type reads past the signature (chunks), so a signature alone is not a PNG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  it('encodes an image and serves it at the returned address; a gallery takes it with its alt text', async () => {
    const res = await as(staff).post('/admin/uploads', { content_type: 'image/png', data: png.toString('base64') });
    expect(res.status).toBe(201);
    expect(res.body.data.url).toMatch(/^\/api\/images\/[a-f0-9]{16}-1\.jpg$/);
    const served = await t.app.request(res.body.data.url.replace(/^\/api/, ''));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    const patched = await as(staff).patch('/admin/cars/9', { gallery: [{ src: res.body.data.url, alt: '흰 배경의 점 하나' }] });
    expect(patched.body.data.car.images).toEqual([res.body.data.url]);
    expect(patched.body.data.car.gallery).toEqual([{ src: res.body.data.url, alt: '흰 배경의 점 하나', photo: { id: res.body.data.photo.id, width: 1, height: 1, placeholder: res.body.data.photo.placeholder } }]);
  });
  it('takes multipart/form-data too', async () => {
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'car.png');
    const res = await t.app.request('/admin/uploads', { method: 'POST', body: form, headers: { authorization: `Bearer ${staff}` } });
    expect(res.status).toBe(201);
    expect((await res.json()).data.url).toMatch(/^\/api\/images\/[a-f0-9]{16}-1\.jpg$/);
    const gif = new FormData();
    gif.append('file', new Blob(['GIF89a'], { type: 'image/gif' }), 'x.gif');
    expect((await t.app.request('/admin/uploads', { method: 'POST', body: gif, headers: { authorization: `Bearer ${staff}` } })).status).toBe(400);
    const none = new FormData();
    none.append('name', 'x');
    expect((await t.app.request('/admin/uploads', { method: 'POST', body: none, headers: { authorization: `Bearer ${staff}` } })).status).toBe(400);
  });
  it('refuses content that is not the declared image type', async () => {
    const res = await as(staff).post('/admin/uploads', { content_type: 'image/png', data: Buffer.from('<svg onload=alert(1)>').toString('base64') });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('이미지 파일이 아니거나 형식이 맞지 않습니다.');
    // A real image of another type than declared, and an image type we do not take.
    expect((await as(staff).post('/admin/uploads', { content_type: 'image/jpeg', data: png.toString('base64') })).status).toBe(400);
    expect((await as(staff).post('/admin/uploads', { content_type: 'image/png', data: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1').toString('base64') })).status).toBe(400);
    expect((await t.app.request('/uploads/../../etc/passwd')).status).toBe(404);
    expect((await t.app.request('/uploads/00000000000000000000000000000000.png')).status).toBe(404);
  });
});

describe('order desk and publishing', () => {
  it('lists subscription requests by status; staff cancel; an archived car keeps its orders and cannot be deleted', async () => {
    const { user } = await customer(t);
    const [r] = await t.database.db
      .insert(subscriptionRequests)
      .values({ userId: user.id, carId: 3, month: 12, billingKey: `desk-${Date.now()}`, billingProvider: 'sandbox', fee: 1_000_000, finalFee: 1_000_000 })
      .returning();
    const pending = (await as(staff).get('/admin/subscription-requests?status=PENDING')).body.data;
    expect(pending.requests.map((x: { id: number }) => x.id)).toContain(r.id);
    expect(pending.requests.find((x: { id: number }) => x.id === r.id)).toMatchObject({ status: 'PENDING', month: 12, car: { id: 3 }, user: { id: user.id } });
    await as(staff).post('/admin/cars/3/archive');
    expect((await as(staff).del('/admin/cars/3')).status).toBe(409);
    expect((await as(staff).get('/admin/subscription-requests')).body.data.requests.map((x: { id: number }) => x.id)).toContain(r.id);
    expect((await as(staff).post(`/admin/subscription-requests/${r.id}/cancel`)).status).toBe(200);
    expect((await as(staff).get('/admin/subscription-requests?status=CANCELLED')).body.data.requests.map((x: { id: number }) => x.id)).toContain(r.id);
    expect((await as(staff).post(`/admin/subscription-requests/${r.id}/cancel`)).status).toBe(409);
    const audit = (await as(staff).get(`/admin/audit?entity=subscription_request&entity_id=${r.id}`)).body.data.entries;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'cancel', actor: staffEmail, before: { id: r.id, status: 'PENDING' }, after: { id: r.id } });
    expect(JSON.stringify(audit[0])).not.toContain(r.billingKey);
    await as(staff).post('/admin/cars/3/restore');
  });
  it('lists butler requests and validates the status', async () => {
    expect((await as(staff).get('/admin/butler-requests')).body.data).toMatchObject({ requests: expect.any(Array), pagination_info: { current_page: 1 } });
    expect((await as(staff).get('/admin/butler-requests?status=NOPE')).status).toBe(400);
    expect((await as(userToken).get('/admin/subscription-requests')).status).toBe(403);
  });
  it('shows the publish status and asks for a build (202): staff publish, machine webhook', async () => {
    const calls: string[] = [];
    const app = createApp({ db: t.database.db, config: t.config, onPublishRequest: (trigger) => void calls.push(trigger) });
    const call = (method: string, p: string, token: string) => app.request(p, { method, headers: { authorization: `Bearer ${token}` } });
    const status = await call('GET', '/admin/publish', staff);
    expect(status.status).toBe(200);
    expect((await status.json()).data).toMatchObject({ catalogueVersion: expect.any(Number), running: null });
    expect((await call('POST', '/admin/publish', staff)).status).toBe(202);
    expect((await call('POST', '/admin/webhooks/publish', TEST_ADMIN_TOKEN)).status).toBe(202);
    expect(calls).toEqual(['publish', 'webhook']);
    expect((await call('POST', '/admin/webhooks/publish', staff)).status).toBe(403);
    expect(calls).toHaveLength(2);
  });
});
