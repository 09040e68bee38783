import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertButlerCar, insertTestCar } from '../../src/api/seed/factories';
import { TEST_ADMIN_TOKEN } from '../../src/api/env';
import { chatSettings } from '../../src/api/chat/routes';
import { billingKey, createTestContext, customer, type TestContext } from './helpers';
import { seededRandom } from '../../src/api/seed/random';

/**
 * Bounded, seeded fuzz of every route of createApp (read from the app's route table, so new
 * routes are covered without editing this file): malformed paths, queries and bodies, with no
 * token, a user's and the admin's. No answer may be a 5xx, and every error answer must be the
 * envelope { code, message, errors }. Runs on PGlite, and on PostgreSQL as `api-pg`.
 */

/** Random requests after the sweep (which sends one per field of every route, about 2,000). */
const REQUESTS = 1_200;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** The seeded PRNG of src/domain/random.ts, so a failure can be replayed with FUZZ_SEED. */
function prng(seed: number) {
  const r = seededRandom(seed);
  const int = (n: number) => r.int(0, n - 1);
  return { next: r.next, int, pick: r.pick, chance: r.chance };
}

const LONG = 'x'.repeat(5_000);
/** Values in place of any scalar: wrong types, out-of-range numbers, NUL bytes, long and odd strings, impossible dates. */
const ODD_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.5, 2_147_483_647, 2_147_483_648, -2_147_483_649, 2 ** 53 + 2, 1e308, -1e308,
  '', ' ', '\u0000', 'a\u0000b', LONG, '가'.repeat(300), '😀'.repeat(100), '\ud800', '%00', 'NaN', '-0', '1e3', '0x10',
  '2024-02-30', '0000-01-01', '9999-12-31', '2026-13-45T25:61:00Z', '2026-02-30T09:00:00+09:00', '9999-12-31T23:59:59Z',
  "1'; DROP TABLE users; --", '<script>alert(1)</script>', '../../etc/passwd', 'http://evil.example/', '//evil.example',
  [], [1, 2, 3], ['\u0000'], [LONG], {}, { a: { b: { c: 1 } } }, { __proto__: { admin: true } }, [[[[[]]]]],
];
/** Odd values for a path segment (already URL-encoded where needed). */
const ODD_SEGMENTS = [
  '0', '-1', '1.5', '1e3', '2147483647', '2147483648', '99999999999999999999', 'abc', '%00', '1%00', '%F0%9F%98%80', '%ED%A0%80',
  '%25', '%2F', '..', 'null', 'undefined', ' ', '%20', 'a'.repeat(300), 'WELCOME', 'welcome-10', '가나다',
];
/**
 * The values that broke the API before, by the type of the value they replace: numbers beyond
 * int4, NUL bytes and strings beyond their column, impossible or overflowing dates.
 */
const HAZARDS = {
  number: [2_147_483_648, -2_147_483_649, 2_147_483_647, -2_147_483_648, 1e20, 0, -1, 1.5],
  string: ['\u0000', 'ok\u0000', 'x'.repeat(300), 'y'.repeat(2_100), `${'a'.repeat(300)}@example.com`, '', '\ud800'],
  date: ['2024-02-30', '0000-01-01', '9999-12-31', '2024-13-01', '2023-02-29', '9999-12-31T23:59:59+09:00', '0000-01-01T00:00:00Z'],
};
/** Query keys by path with a valid value each (the rest get the whole list), so a route's own parameters get odd values often. */
const ROUTE_QUERIES: [RegExp, Record<string, string | number>][] = [
  [/garages/, { brand: 'ferrari', model: 1, month: 12, page: 1, sort: 'subscription_fee_minimum', order: 'asc', available_only: 'true' }],
  [/coupons/, { service: 'SUBSCRIBE' }],
  [/sandbox\/billing/, { redirectUrl: '/inquire', issueName: '카드 등록', amount: '1000' }],
  [/sandbox\/identity/, { identityVerificationId: 'identity-verification-fuzz0001', redirectUrl: '/signup', name: '홍길동', phone: '01012345678' }],
];
const QUERY_KEYS = ['brand', 'model', 'month', 'page', 'sort', 'order', 'available_only', 'service', 'redirectUrl', 'identityVerificationId', 'amount', 'issueName', 'name', 'phone', 'q', 'status', 'limit', 'offset', 'id', 'x\u0000'];
const BROKEN_JSON = ['{"a":', '{', '[', '"', 'nul', '\u0000', '{"a":1}}', '\ufeff{"a":1}', '{"a":"\\u0000"}', "{'a':1}", '{"a":1,}', 'NaN', '[1,2', `${'['.repeat(5_000)}${']'.repeat(5_000)}`];
/** encodeURIComponent, with a lone surrogate sent as its raw (invalid) UTF-8 bytes. */
const encode = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
};
const CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=zz', 'application/xml', 'application/json; charset=latin1', 'application/problem+json', '', 'application/jsonx'];

describe('fuzz: every route, malformed input, no 5xx and always the envelope', () => {
  let ctx: TestContext;
  let ids: number[] = [];
  let key = '';
  beforeAll(async () => {
    ctx = await createTestContext();
    chatSettings.chunkDelayMs = 0;
    const db = ctx.database.db;
    const { model, car } = await insertTestCar(db);
    const butler = await insertButlerCar(db, model.id);
    ids = [car.id, butler.id, model.id, 1, 2];
    key = billingKey(ctx);
  });
  afterAll(() => ctx?.close());

  it(`a sweep of every field, then ${REQUESTS} random requests`, { timeout: 240_000 }, async () => {
    const r = prng(SEED);
    const app = ctx.app;
    type Route = (typeof app.routes)[number];
    const routes = [...new Map(app.routes.filter((x) => x.method !== 'ALL').map((x) => [`${x.method} ${x.path}`, x])).values()];
    expect(routes.length).toBeGreaterThan(30);

    /** Valid-looking bodies of known fields, so mutations reach past the first check; new routes get them all. */
    const base = (): Record<string, unknown> => ({
      name: '홍길동', email: 'fuzz@example.com', subject: '문의', message: '안녕하세요', mobile: '010-1234-5678', password: 'secret123',
      identity_code: 'identity-verification-fuzz0001', identityVerificationId: 'identity-verification-fuzz0001', refresh_token: 'r'.repeat(40),
      code: '123456', purpose: 'email', current_password: 'secret123', marketing_consent: true, profile_image: 'https://example.com/a.png',
      month: 12, coupon_id: 0, point_amount: 0, billing_key: key, start_date: '2026-12-01', end_date: '2027-11-30', is_active: true,
      points: 1000, coupons: ['WELCOME'], model_id: ids[2], mileage: 100, gallery: [{ src: '/a.jpg', alt: '사진' }], release_date: '2024-01-01', retail_price: 1000,
      subscription_fee_12: 1000, is_new: false, start_at: '2030-01-01T09:00:00+09:00', end_at: '2030-01-01T18:00:00+09:00',
      start_location: '서울역', end_location: '강남역', way_point_requests: [], way_points: [], passenger_count: 2, memo: '메모',
      carId: ids[1], car_id: ids[1], state: {}, redirect_uri: 'http://localhost/login', title: '제목', content: '내용', status: 'PENDING',
    });
    /** An odd value in place of `value`: mostly a hazard of its own type (what a schema may let through), else anything. */
    const odd = (value: unknown) => {
      if (r.chance(0.3)) return r.pick(ODD_VALUES);
      if (typeof value === 'number') return r.pick(HAZARDS.number);
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return r.pick(HAZARDS.date);
      if (typeof value === 'string' && /^\d+$/.test(value)) return String(r.pick(HAZARDS.number));
      return r.pick(HAZARDS.string);
    };
    // Mostly one field at a time: the others stay valid, so the odd one reaches whatever the schema lets through.
    const mutate = (body: Record<string, unknown>) => {
      const keys = Object.keys(body);
      const n = r.chance(0.7) ? 1 : 2 + r.int(3);
      for (let i = 0; i < n; i++) {
        const k = r.pick(keys);
        body[k] = odd(body[k]);
      }
      if (r.chance(0.2)) body[r.pick(QUERY_KEYS)] = odd(undefined);
      if (r.chance(0.1)) for (const k of keys) if (r.chance(0.5)) delete body[k];
      return body;
    };
    const segment = (name: string, pattern?: string) => {
      if (pattern && r.chance(0.6)) return r.pick(pattern.split('|'));
      if (r.chance(0.35)) return String(r.pick(ids));
      if (name === 'code' && r.chance(0.3)) return r.pick(['WELCOME', 'ABC-123', 'NOPE']);
      return r.pick(ODD_SEGMENTS);
    };
    const fillPath = (path: string) =>
      path.replace(/:(\w+)(?:\{([^}]*)\})?/g, (_, name: string, pattern?: string) => segment(name, pattern)) + (r.chance(0.05) ? '/' : '');
    /** The route's valid query with one or two values made odd, or odd keys for routes without a known query. */
    const query = (path: string) => {
      const known = ROUTE_QUERIES.find(([re]) => re.test(path))?.[1];
      if (r.chance(known ? 0.1 : 0.5)) return '';
      const values: Record<string, unknown> = { ...(known ?? {}) };
      const keys = Object.keys(values);
      for (let i = 0, n = r.chance(0.7) ? 1 : 2; i < n; i++) {
        const k = keys.length && r.chance(0.9) ? r.pick(keys) : r.pick(QUERY_KEYS);
        values[k] = odd(values[k]);
      }
      const parts = Object.entries(values).map(([k, v]) => {
        const text = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
        return `${encode(k)}=${r.chance(0.05) ? r.pick(['%00', '%FF', '%', '%E0%A4%A']) : encode(text.slice(0, 3_000))}`;
      });
      return `?${parts.join('&')}`;
    };
    const body = (): { body?: string; type?: string } => {
      const kind = r.int(10);
      if (kind <= 4) return { body: JSON.stringify(mutate(base())), type: 'application/json' };
      if (kind === 5) return { body: r.pick(BROKEN_JSON), type: 'application/json' };
      if (kind === 6) return { body: JSON.stringify(r.pick(ODD_VALUES)), type: r.chance(0.5) ? 'application/json' : r.pick(CONTENT_TYPES) };
      if (kind === 7) return { body: JSON.stringify(base()), type: r.pick(CONTENT_TYPES) };
      if (kind === 8) {
        const form = new URLSearchParams();
        for (const [k, v] of Object.entries(mutate(base()))) form.set(k, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
        if (r.chance(0.3)) form.set('redirectUrl', r.pick(['/signup', 'http://evil.example/', '/x\u0000', '']));
        return { body: form.toString(), type: 'application/x-www-form-urlencoded' };
      }
      return r.chance(0.5) ? {} : { body: '', type: r.chance(0.5) ? 'application/json' : undefined };
    };

    let userToken = (await customer(ctx, 100_000)).token;
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    /** One request; records a 5xx or an error answer without the envelope. */
    const send = async (route: Route, method: string, url: string, who: 'none' | 'user' | 'admin' | 'odd', b: { body?: string; type?: string }, extra: Record<string, string> = {}) => {
      const headers: Record<string, string> = { host: 'localhost', 'x-forwarded-for': r.chance(0.9) ? '127.0.0.1' : `10.77.${r.int(3)}.${r.int(3)}`, ...extra };
      if (who === 'user') headers.authorization = `Bearer ${userToken}`;
      if (who === 'admin') headers.authorization = `Bearer ${TEST_ADMIN_TOKEN}`;
      if (who === 'odd') headers.authorization = r.pick(['Bearer ', 'Bearer x.y.z', `Bearer ${'a'.repeat(3_000)}`, 'Basic abc', 'Bearer \u00e9']);
      if (b.type) headers['content-type'] = b.type;
      const label = `#${sent} ${method} ${url.slice(0, 200)} ${who} ${b.type ?? ''} ${(b.body ?? '').slice(0, 200)}`;
      sent++;
      let res: Response;
      try {
        res = await app.request(url, { method, headers, body: b.body });
      } catch (err) {
        failures.push(`${label} → threw ${String(err)}`);
        return;
      }
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const text = await res.text();
      // The fuzz may log the user out, change the password or withdraw the account: carry on with a new one.
      if (res.status === 401 && who === 'user') userToken = (await customer(ctx, 100_000)).token;
      // A social login whose provider has no keys is the documented 501 "not configured" (README), not a failure.
      const notConfigured = res.status === 501 && route.path.startsWith('/accounts/:provider') && text.includes('"code":1301');
      if (res.status >= 500 && !notConfigured) {
        failures.push(`${label} → ${res.status} ${text.slice(0, 200)}`);
        return;
      }
      if (res.status < 400 || method === 'HEAD') return;
      // The identity sandbox shows its form again (HTML) when the tester's input is incomplete.
      if (res.headers.get('content-type')?.startsWith('text/html') && route.path.startsWith('/sandbox/')) return;
      let parsed: any = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* checked below */
      }
      const envelope = parsed && typeof parsed.code === 'number' && parsed.code !== 0 && typeof parsed.message === 'string' && /[가-힣]/.test(parsed.message) && parsed.errors && typeof parsed.errors === 'object';
      if (!envelope) failures.push(`${label} → ${res.status} without the envelope: ${text.slice(0, 200)}`);
      else {
        const messages = Object.values(parsed.errors as Record<string, unknown>).flat();
        if (!messages.every((m) => typeof m === 'string' && /[가-힣]/.test(m))) failures.push(`${label} → ${res.status} field messages not in Korean: ${JSON.stringify(parsed.errors).slice(0, 200)}`);
      }
    };
    /** The fields of each known route's body (from its schema); other routes get every field of base(), sampled. */
    const FIELDS: [RegExp, string[]][] = [
      [/^POST \/accounts(\/signup)?$/, ['name', 'mobile', 'email', 'password', 'identity_code', 'marketing_consent']],
      [/^PUT \/accounts$/, ['name', 'email', 'password', 'current_password', 'profile_image', 'marketing_consent']],
      [/^POST \/accounts\/(check-email|login|send-code|verify-code)$/, ['email', 'password', 'purpose', 'code']],
      [/^POST \/accounts\/(refresh|logout)$/, ['refresh_token']],
      [/^POST \/accounts\/(portone|reset-password)$/, ['identity_code', 'identityVerificationId']],
      [/^POST \/accounts\/:provider/, ['code', 'redirect_uri', 'state']],
      [/^POST \/services\/contacts$/, ['name', 'email', 'subject', 'message']],
      [/^POST \/services\/gpt/, ['message', 'carId', 'state']],
      [/^(POST|PUT) \/subscriptions\//, ['month', 'coupon_id', 'point_amount', 'billing_key']],
      [/^(POST|PUT) \/butlers\//, ['car_id', 'start_at', 'end_at', 'start_location', 'end_location', 'way_point_requests', 'way_points', 'passenger_count', 'memo', 'coupon_id', 'point_amount', 'billing_key', 'month']],
      [/^(POST|PATCH) \/admin\/cars(\/:id)?$/, ['model_id', 'mileage', 'gallery', 'images', 'release_date', 'subscription_available_from', 'retail_price', 'subscription_fee_12', 'is_new', 'color', 'license_plate', 'sub_model', 'trim', 'description']],
      [/^POST \/admin\/subscription-requests\/:id\/confirm$/, ['start_date', 'end_date']],
      [/^PATCH \/admin\/subscriptions\//, ['is_active']],
      [/^POST \/admin\/test-users$/, ['points', 'coupons', 'name']],
    ];
    const whoFor = (route: Route) => (route.path.startsWith('/admin') ? 'admin' : 'user');
    const validPath = (path: string) => path.replace(/:(\w+)(?:\{([^}]*)\})?/g, (_, name: string, pattern?: string) => (pattern ? pattern.split('|')[0] : name === 'code' ? 'WELCOME' : String(r.pick(ids))));

    // Sweep: every field of every route once with a hazard of its type, the rest valid (what a schema forgets shows up here).
    const hazardAt = (value: unknown, n: number) => {
      if (typeof value === 'number') return HAZARDS.number[n % HAZARDS.number.length];
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) return HAZARDS.date[n % HAZARDS.date.length];
      if (typeof value === 'string' && /^\d+$/.test(value)) return String(HAZARDS.number[n % HAZARDS.number.length]);
      return HAZARDS.string[n % HAZARDS.string.length];
    };
    for (const [n, route] of routes.entries()) {
      const known = ROUTE_QUERIES.find(([re]) => re.test(route.path))?.[1];
      if (route.method === 'GET') {
        for (const [k, v] of Object.entries(known ?? {})) {
          for (const h of typeof v === 'number' ? HAZARDS.number : [hazardAt(v, n), hazardAt(v, n + 1), hazardAt(v, n + 2)]) {
            const q = new URLSearchParams(Object.entries({ ...known, [k]: String(h) }).map(([a, b]) => [a, String(b)]));
            await send(route, 'GET', `${validPath(route.path)}?${q}`, whoFor(route), {});
          }
        }
        continue;
      }
      if (route.method === 'DELETE') continue;
      const all = base();
      const fields = FIELDS.find(([re]) => re.test(`${route.method} ${route.path}`))?.[1] ?? Object.keys(all).filter(() => r.chance(0.3));
      for (const [i, k] of fields.entries()) {
        for (const h of [hazardAt(all[k], n + i), hazardAt(all[k], n + i + 3)]) {
          await send(route, route.method, validPath(route.path), whoFor(route), { body: JSON.stringify({ ...all, [k]: h }), type: 'application/json' });
        }
      }
    }
    const swept = sent;

    // Random: odd paths, queries, bodies, content types, methods and tokens, every route in turn.
    for (let i = 0; i < REQUESTS; i++) {
      const route = routes[i % routes.length];
      const method = r.chance(0.05) ? r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']) : route.method;
      const url = fillPath(route.path) + query(route.path);
      const who = r.chance(0.03) && !route.path.startsWith('/admin') ? 'odd' : r.pick(['none', 'user', 'admin'] as const);
      const extra: Record<string, string> = r.chance(0.2) ? { accept: r.pick(['application/json', 'text/event-stream', '*/*']) } : {};
      await send(route, method, url, who, method === 'GET' || method === 'HEAD' ? {} : body(), extra);
    }
    expect(failures.slice(0, 20), `${failures.length} failures in ${sent} requests (${swept} swept); statuses ${JSON.stringify(Object.fromEntries(statuses))}`).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(2_000);
    // The fuzz reached past validation and authentication, not only into 400s.
    expect([...statuses.keys()].filter((s) => s < 300).length).toBeGreaterThan(0);
    expect(statuses.get(400)).toBeGreaterThan(REQUESTS / 10);
  });
});
