import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEE_TERMS, GARAGE_PAGE_SIZE, type Car } from '../../src/domain/car';
import { seedDatabase } from '../../src/api/seed/seed';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { unrouted } from './client';
import { createTestContext, type TestContext } from './helpers';

let t: TestContext;
const TODAY = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestContext();
  await seedDatabase(t.database.db);
});
afterAll(() => t.close());

const garage = async (query: string) => {
  const res = await t.call('GET', `/subscriptions/garages${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

function expectFailure(res: { status: number; body: any }, status: number, field?: string) {
  expect(res.status).toBe(status);
  expect(res.body.code).not.toBe(0);
  expect(res.body.message).toMatch(/[가-힣]/);
  if (field) expect(Object.keys(res.body.errors)).toContain(field);
}

describe('GET /subscriptions/cars', () => {
  it('returns new and hot cars in the Car shape', async () => {
    const res = await t.call('GET', '/subscriptions/cars');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 0, message: 'OK' });
    const { new_cars, hot_cars } = res.body.data;
    expect(new_cars.length).toBeGreaterThan(0);
    expect(hot_cars.length).toBeGreaterThan(0);
    expect(new_cars.every((c: Car) => c.is_new)).toBe(true);
    expect(hot_cars.every((c: Car) => c.is_hot)).toBe(true);
    const car = new_cars[0];
    for (const key of ['id', 'model', 'sub_model', 'trim', 'images', 'color', 'mileage', 'license_plate', 'description', 'retail_price', 'is_new', 'is_hot', 'is_subscriptable', 'subscription_available_from', 'release_date', 'subscription_fee_minimum', ...FEE_TERMS.map((m) => `subscription_fee_${m}`)]) {
      expect(car).toHaveProperty(key);
    }
    expect(car.model).toMatchObject({ name: expect.any(String), brand: { id: expect.any(Number), name: expect.any(String) } });
  });
});

describe('GET /subscriptions/cars/{id}', () => {
  it('returns one car under data.car', async () => {
    const res = await t.call('GET', '/subscriptions/cars/1');
    expect(res.status).toBe(200);
    expect(res.body.data.car.id).toBe(1);
  });
  it('answers 404 in Korean for a car that does not exist', async () => {
    const res = await t.call('GET', '/subscriptions/cars/99999');
    expectFailure(res, 404);
    expect(res.body.message).toBe('차량 정보를 찾을 수 없습니다.');
  });
  it.each(['abc', '0', '-3', '1.5', '99999999999999999999'])('rejects the id %s with field errors', async (id) => {
    expectFailure(await t.call('GET', `/subscriptions/cars/${id}`), 400, 'id');
  });
});

describe('GET /subscriptions/garages', () => {
  it('returns the first page of 12 with brands, models and counts', async () => {
    const data = await garage('');
    expect(data.cars).toHaveLength(GARAGE_PAGE_SIZE);
    expect(data.pagination_info).toEqual({ next: 2, current_page: 1, total_pages: Math.ceil(64 / 12), count: 64 });
    expect(data.garage_list.map((b) => b.slug).slice(0, 5)).toEqual(['ferrari', 'lamborghini', 'mercedes', 'porsche', 'bmw']);
    expect(data.garage_list.length).toBeGreaterThanOrEqual(8);
    const ferrari = data.garage_list[0];
    expect(ferrari.name).toBe('Ferrari');
    expect(ferrari.model_list[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), car_count: expect.any(Number) });
    const total = data.garage_list.flatMap((b) => b.model_list).reduce((n, m) => n + m.car_count, 0);
    expect(total).toBe(64);
  });

  it('pages through every car exactly once', async () => {
    const first = await garage('');
    const seen = new Set<number>();
    for (let page = 1; page <= first.pagination_info.total_pages; page++) {
      const data = await garage(`?page=${page}`);
      data.cars.forEach((c) => seen.add(c.id));
      expect(data.pagination_info.next).toBe(page < first.pagination_info.total_pages ? page + 1 : null);
    }
    expect(seen.size).toBe(64);
  });

  it('returns an empty page past the end', async () => {
    const data = await garage('?page=50');
    expect(data.cars).toEqual([]);
    expect(data.pagination_info.next).toBeNull();
  });

  it('filters by brand slug, repeated brands and others', async () => {
    const ferrari = await garage('?brand=ferrari');
    expect(ferrari.pagination_info.count).toBeGreaterThan(0);
    expect(ferrari.cars.every((c) => c.model.brand.name === 'Ferrari')).toBe(true);
    const two = await garage('?brand=ferrari&brand=bmw');
    expect(two.pagination_info.count).toBe(ferrari.pagination_info.count + (await garage('?brand=bmw')).pagination_info.count);
    const mercedes = await garage('?brand=mercedes');
    expect(mercedes.cars.every((c) => c.model.brand.name === 'Mercedes Benz')).toBe(true);
    const others = await garage('?brand=others');
    expect(others.pagination_info.count).toBeGreaterThan(0);
    expect(others.cars.every((c) => !['Ferrari', 'Lamborghini', 'Mercedes Benz', 'Porsche', 'BMW'].includes(c.model.brand.name))).toBe(true);
  });

  it('returns no cars for an unknown brand (the client then resets to All)', async () => {
    const data = await garage('?brand=trabant');
    expect(data.cars).toEqual([]);
    expect(data.pagination_info.count).toBe(0);
    expect(data.garage_list.length).toBeGreaterThan(0);
  });

  it('filters by repeated model ids', async () => {
    const list = (await garage('')).garage_list.flatMap((b) => b.model_list);
    const [a, b] = list;
    const data = await garage(`?model=${a.id}&model=${b.id}`);
    expect(data.pagination_info.count).toBe(a.car_count + b.car_count);
    expect(data.cars.every((c) => [a.id, b.id].includes(c.model.id))).toBe(true);
  });

  it('filters by months: each car offers at least one chosen term', async () => {
    const data = await garage('?month=1&month=3');
    expect(data.pagination_info.count).toBeGreaterThan(0);
    expect(data.pagination_info.count).toBeLessThan(64);
    expect(data.cars.every((c) => c.subscription_fee_1 !== null || c.subscription_fee_3 !== null)).toBe(true);
  });

  it('keeps only subscriptable cars available today with available_only=true', async () => {
    const data = await garage('?available_only=true');
    expect(data.pagination_info.count).toBeLessThan(64);
    for (let page = 1; page <= data.pagination_info.total_pages; page++) {
      for (const c of (await garage(`?available_only=true&page=${page}`)).cars) {
        expect(c.is_subscriptable).toBe(true);
        if (c.subscription_available_from) expect(c.subscription_available_from <= TODAY).toBe(true);
      }
    }
    expect((await garage('?available_only=false')).pagination_info.count).toBe(64);
  });

  it.each(['subscription_fee_minimum', 'mileage', 'release_date', 'subscription_available_from'] as const)('sorts by %s both ways with empty values last', async (sort) => {
    for (const order of ['asc', 'desc'] as const) {
      const values: (string | number | null)[] = [];
      for (let page = 1; page <= 6; page++) values.push(...(await garage(`?sort=${sort}&order=${order}&page=${page}`)).cars.map((c) => c[sort]));
      expect(values).toHaveLength(64);
      const present = values.filter((v) => v !== null);
      const sorted = [...present].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      expect(present).toEqual(order === 'asc' ? sorted : sorted.reverse());
      expect(values.slice(present.length).every((v) => v === null)).toBe(true);
    }
  });

  it.each([
    ['?page=0', 'page'],
    ['?page=-1', 'page'],
    ['?page=abc', 'page'],
    ['?page=1.5', 'page'],
    ['?page=10001', 'page'],
    ['?page=999999999999999999999', 'page'],
    ['?sort=price', 'sort'],
    ['?order=up', 'order'],
    ['?month=2', 'month.0'],
    ['?month=1&month=abc', 'month.1'],
    ['?model=x', 'model.0'],
    ['?available_only=maybe', 'available_only'],
  ])('rejects %s with a Korean message and field errors', async (query, field) => {
    expectFailure(await t.call('GET', `/subscriptions/garages${query}`), 400, field);
  });
});

describe('models', () => {
  it('lists models with brand and car count, and shows one with its cars', async () => {
    const list = await t.call('GET', '/subscriptions/models');
    expect(list.status).toBe(200);
    const model = list.body.data.models[0];
    expect(model).toMatchObject({ id: expect.any(Number), name: expect.any(String), brand: { name: expect.any(String) }, car_count: expect.any(Number) });
    const one = await t.call('GET', `/subscriptions/models/${model.id}`);
    expect(one.body.data.model.cars).toHaveLength(model.car_count);
    expectFailure(await t.call('GET', '/subscriptions/models/99999'), 404);
    expectFailure(await t.call('GET', '/subscriptions/models/x'), 400, 'id');
  });
});

describe('butler cars', () => {
  it('lists the fleet with fees and future reserved dates', async () => {
    const res = await t.call('GET', '/butlers/cars');
    expect(res.status).toBe(200);
    const cars = res.body.data.cars;
    expect(cars.length).toBeGreaterThanOrEqual(8);
    for (const car of cars) {
      expect(car).toMatchObject({ id: expect.any(Number), butler_fee: expect.any(Number), model: { name: expect.any(String), brand: { name: expect.any(String) } } });
      expect(car.butler_reservated_dates.every((d: string) => /^\d{4}-\d{2}-\d{2}$/.test(d) && d >= TODAY)).toBe(true);
    }
    expect(cars.some((c: any) => c.butler_overtime_fee === null)).toBe(true);
  });
  it('shows one butler car, 404 when missing, 400 for a bad id', async () => {
    expect((await t.call('GET', '/butlers/cars/1')).body.data.car.id).toBe(1);
    expectFailure(await t.call('GET', '/butlers/cars/9999'), 404);
    expectFailure(await t.call('GET', '/butlers/cars/abc'), 400, 'id');
  });
});

describe('services: FAQs and policy documents', () => {
  it('lists FAQs and shows one', async () => {
    const res = await t.call('GET', '/services/faqs');
    expect(res.body.data.faqs.length).toBeGreaterThanOrEqual(8);
    const first = res.body.data.faqs[0];
    expect((await t.call('GET', `/services/faqs/${first.id}`)).body.data.faq).toEqual(first);
    expectFailure(await t.call('GET', '/services/faqs/9999'), 404);
  });
  it('lists the terms and the privacy policy with details', async () => {
    const terms = (await t.call('GET', '/services/terms')).body.data.terms;
    expect(terms[0]).toMatchObject({ title: '서비스 이용약관', content: expect.stringContaining('제1조') });
    expect((await t.call('GET', `/services/terms/${terms[0].id}`)).body.data.term.id).toBe(terms[0].id);
    const privacy = (await t.call('GET', '/services/privacy-policies')).body.data.privacy_policies;
    expect(privacy[0].title).toBe('개인정보 처리방침');
    // Version 1.2: the processors, the drivers' location records and the 위치정보관리책임자, the retention after withdrawal, the licences checked.
    expect(privacy[0].version).toBe('1.2');
    for (const text of ['운전면허 정보(면허번호, 면허 종류, 성명, 생년월일)', '도로교통공단에 운전자의 면허번호', '운전면허 정보와 운전자격 확인 기록: 구독 계약 종료 후 5년', '포트원(PortOne)', '솔라피(SOLAPI)', '카카오 로그인', '메일 발송 대행사', '클라우드 호스팅', '위치정보 이용·제공사실 확인자료: 6개월', '위치정보관리책임자: 고객센터', '대금결제 및 재화 등의 공급에 관한 기록: 5년', '소비자의 불만 또는 분쟁처리에 관한 기록: 3년', '웹사이트 접속기록: 3개월']) {
      expect(privacy[0].content).toContain(text);
    }
    expect((await t.call('GET', `/services/privacy-policies/${privacy[0].id}`)).status).toBe(200);
    // A terms id is not a privacy policy id.
    expectFailure(await t.call('GET', `/services/privacy-policies/${terms[0].id}`), 404);
    expectFailure(await t.call('GET', '/services/terms/abc'), 400, 'id');
  });
});

describe('POST /services/contacts', () => {
  const valid = { name: '김민준', email: 'minjun@example.com', subject: '구독 문의', message: '911 구독 가능 일정이 궁금합니다.' };
  it('stores a valid message', async () => {
    const res = await t.call('POST', '/services/contacts', { json: valid });
    expect(res.status).toBe(201);
    expect(res.body.data.id).toEqual(expect.any(Number));
  });
  it('names every missing or wrong field', async () => {
    const res = await t.call('POST', '/services/contacts', { json: { name: ' ', email: 'not-an-email' } });
    expectFailure(res, 400);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'message', 'name', 'subject']);
    expect(res.body.errors.email[0]).toMatch(/이메일/);
  });
  it('answers 400, not 500, to broken JSON, a non-object and an oversized body', async () => {
    expectFailure(await t.call('POST', '/services/contacts', { body: '{"name":', headers: { 'content-type': 'application/json' } }), 400);
    expectFailure(await t.call('POST', '/services/contacts', { json: [1, 2] }), 400);
    expectFailure(await t.call('POST', '/services/contacts', { json: { ...valid, message: 'x'.repeat(1_100_000) } }), 400);
  });
});

describe('GET /catalogue (the build snapshot)', () => {
  it('returns everything the static build needs with a version', async () => {
    const { data } = (await t.call('GET', '/catalogue')).body;
    expect(data.version).toBeGreaterThan(0);
    expect(data.cars).toHaveLength(64);
    expect(data.butler_cars.length).toBeGreaterThanOrEqual(8);
    expect(data.faqs.length).toBeGreaterThanOrEqual(8);
    expect(data.terms.length).toBeGreaterThan(0);
    expect(data.privacy_policies.length).toBeGreaterThan(0);
  });
});

describe('admin catalogue writes', () => {
  it('refuses without the staff token', async () => {
    expectFailure(await t.call('POST', '/admin/cars', { json: {} }), 403);
    expectFailure(await t.call('POST', '/admin/cars', { json: {}, token: 'wrong' }), 403);
  });
  it('adds a car, derives its minimum fee and bumps the catalogue version', async () => {
    const before = (await t.call('GET', '/catalogue')).body.data.version;
    const res = await t.call('POST', '/admin/cars', {
      token: TEST_ADMIN_TOKEN,
      json: { model_id: 1, sub_model: '신규 입고', subscription_fee_12: 5_000_000, subscription_fee_36: 4_200_000, is_new: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.car).toMatchObject({ sub_model: '신규 입고', subscription_fee_minimum: 4_200_000, subscription_fee_1: null });
    expect((await t.call('GET', '/catalogue')).body.data.version).toBe(before + 1);
    const patched = await t.call('PATCH', `/admin/cars/${res.body.data.car.id}`, { token: TEST_ADMIN_TOKEN, json: { subscription_fee_36: null } });
    expect(patched.body.data.car.subscription_fee_minimum).toBe(5_000_000);
  });
  it('validates the body', async () => {
    expectFailure(await t.call('POST', '/admin/cars', { token: TEST_ADMIN_TOKEN, json: { model_id: 'x', subscription_fee_12: -5 } }), 400, 'model_id');
    expectFailure(await t.call('POST', '/admin/cars', { token: TEST_ADMIN_TOKEN, json: { model_id: 9999 } }), 400, 'model_id');
  });
});

describe('envelope for unknown routes and failures', () => {
  it('answers unknown routes with a 404 envelope', async () => {
    const res = await t.call('GET', unrouted('/no/such/route'));
    expectFailure(res, 404);
  });
  it('answers an unexpected failure with a 500 envelope and no stack trace', async () => {
    const broken = await createTestContext();
    await broken.database.close();
    const res = await broken.call('GET', '/subscriptions/cars');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 1500, message: expect.stringMatching(/[가-힣]/) });
    expect(JSON.stringify(res.body)).not.toMatch(/\bat \S+:\d+|Error:/);
  });
});
