import { randomBytes, randomInt } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from '@playwright/test';
import { SESSION_KEYS } from '../../src/stores/session';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';

/**
 * The one place for e2e helpers: users (through the admin test route or the real signup),
 * sessions in the page, API calls, the sandbox providers, waiting for the site and islands.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const DAY_SECONDS = 86_400;

// ── Waiting ───────────────────────────────────────────────────────────────────

/**
 * The server answers /api while the storefront is still building (pages answer 503 until the
 * first build is in place): wait until pages are served. Takes the test's request context, or
 * the base URL (in beforeAll, where there is none).
 */
export async function waitForSite(site: APIRequestContext | string) {
  const request = typeof site === 'string' ? await playwrightRequest.newContext({ baseURL: site }) : site;
  try {
    await expect.poll(async () => (await request.get('/about')).status(), { timeout: 180_000 }).toBe(200);
  } finally {
    if (typeof site === 'string') await request.dispose();
  }
}

/** The same wait, under the storefront tests' name. */
export const siteReady = waitForSite;

/** Waits until the named island (or every island on the page) has hydrated: Astro drops `ssr` then. */
export async function hydrated(page: Page, component?: string) {
  if (component) await expect(page.locator(`astro-island[component-url*="${component}"]`).first()).not.toHaveAttribute('ssr', /.*/);
  else await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}

/** Accepts the next alert and returns its text once it has appeared. */
export function nextAlert(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', async (d) => {
      resolve(d.message());
      await d.accept();
    });
  });
}

// ── Users and sessions ────────────────────────────────────────────────────────

/** A fresh e2e user (via the admin-token test route) with points and coupons by code; identity-verified unless `unverified`. */
export async function newUser(request: APIRequestContext, opts: { points?: number; coupons?: string[]; unverified?: boolean; licence?: boolean; birth_date?: string } = {}) {
  const res = await request.post('/api/admin/test-users', { headers: ADMIN, data: opts });
  if (!res.ok()) throw new Error(`test user: ${res.status()} ${await res.text()}`);
  const { user, access_token } = (await res.json()).data as { user: { id: number; username: string; referral_code: string }; access_token: string };
  return { ...user, token: access_token };
}

/** A person nobody else in the run uses. */
export function newPerson() {
  const digits = String(randomInt(10_000_000, 99_999_999));
  const tag = randomBytes(4).toString('hex');
  return { name: `김테스트${tag.slice(0, 2)}`, mobile: `010${digits}`, email: `e2e-${tag}@example.com`, password: 'secret123' };
}

/** Passes the identity sandbox as a tester would; returns the identityVerificationId. */
export async function sandboxVerify(request: APIRequestContext, person: { name: string; mobile: string }, birthDate = '1990-01-01'): Promise<string> {
  const id = `identity-verification-${randomBytes(8).toString('hex')}`;
  const res = await request.post('/api/sandbox/identity/verify', {
    form: { identityVerificationId: id, redirectUrl: '/signup', name: person.name, phone: person.mobile, birthDate },
    maxRedirects: 0,
  });
  if (res.status() !== 303) throw new Error(`sandbox: ${res.status()} ${await res.text()}`);
  return id;
}

export interface SignedUp {
  person: ReturnType<typeof newPerson>;
  access_token: string;
  refresh_token: string;
  user: { id: number; name: string; referral_code: string; mobile: string };
}

/** A verified account made through the real signup API. */
export async function signupUser(request: APIRequestContext, opts: { birthDate?: string } = {}): Promise<SignedUp> {
  const person = newPerson();
  const identity_code = await sandboxVerify(request, person, opts.birthDate);
  const res = await request.post('/api/accounts', { data: { ...person, identity_code } });
  if (res.status() !== 201) throw new Error(`signup: ${res.status()} ${await res.text()}`);
  const account = { person, ...(await res.json()).data } as SignedUp;
  // A checked licence, as after the order page's 운전면허 확인 (tests/e2e/licences.spec.ts runs that step itself).
  const licence = await request.post('/api/admin/test-licences', { headers: ADMIN, data: { user_id: account.user.id } });
  if (!licence.ok()) throw new Error(`licence: ${licence.status()} ${await licence.text()}`);
  return account;
}

/** A signed-up account (email and password) that is staff: the console at /admin is theirs. */
export async function newStaff(request: APIRequestContext): Promise<SignedUp> {
  const account = await signupUser(request);
  const res = await request.post('/api/admin/test-staff', { headers: ADMIN, data: { email: account.person.email } });
  if (!res.ok()) throw new Error(`staff: ${res.status()} ${await res.text()}`);
  return account;
}

/**
 * Puts a session in the page's storage under the spec's keys before any script runs, as the
 * login page would; `expiresIn` seconds from now. With `once`, only on the test's first page
 * (later pages see what the app made of it, e.g. a logout); else on every page.
 */
async function putSession(page: Page, s: { access: string; refresh?: string; expiresIn: number; once: boolean }) {
  await page.addInitScript(
    ([keys, { access, refresh, expiresIn, once }]) => {
      if (once && sessionStorage.getItem('e2eSessionSet')) return;
      if (once) sessionStorage.setItem('e2eSessionSet', '1');
      localStorage.setItem(keys.access, access);
      if (refresh) localStorage.setItem(keys.refresh, refresh);
      localStorage.setItem(keys.expiry, String(Math.floor(Date.now() / 1000) + expiresIn));
    },
    [SESSION_KEYS, s] as const,
  );
}

/** Stores a signed-up session (tokens) on the first page only; `expiresIn` seconds from now (default 24 h). */
export async function storeSession(page: Page, s: { access_token: string; refresh_token?: string }, expiresIn = DAY_SECONDS) {
  await putSession(page, { access: s.access_token, refresh: s.refresh_token, expiresIn, once: true });
}

/** Logs every page of the test in with an access token (24 h). */
export async function loginAs(page: Page, token: string) {
  await putSession(page, { access: token, expiresIn: DAY_SECONDS, once: false });
}

/** A valid-looking session the API does not know (pages that only check for a login), for an hour. */
export async function logIn(page: Page) {
  await putSession(page, { access: 'e2e-token', expiresIn: 3600, once: false });
}

/** What the page holds in local storage under the spec's keys. */
export async function storedSession(page: Page) {
  return page.evaluate((keys) => ({
    access: localStorage.getItem(keys.access),
    refresh: localStorage.getItem(keys.refresh),
    expiry: Number(localStorage.getItem(keys.expiry)),
    verified: localStorage.getItem(keys.identity),
    redirect: localStorage.getItem(keys.redirect),
    now: Math.floor(Date.now() / 1000),
  }), SESSION_KEYS);
}

// ── API, ordering and the sandbox providers ───────────────────────────────────

/** Calls the API as a user. */
export async function apiAs(request: APIRequestContext, token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, headers: { authorization: `Bearer ${token}` }, data });
  return { status: res.status(), body: await res.json() };
}

/**
 * A car that can be ordered for 12 months from tomorrow, with its 12-month fee. Since issue 38 a
 * car is one plate: an order holds it, so each order of a run needs a car nobody holds. The
 * desktop and mobile projects share one server, so every (project, worker) pair is a lane that
 * takes its own cars (every `lanes`-th by id), and a car is handed out once per run: a car
 * "구독 가능" from tomorrow may still carry a term another test confirmed from a later day. The
 * cars handed out are kept in a file per lane, so a worker restarted after a failure remembers.
 */
export async function orderableCar(request: APIRequestContext) {
  type Row = { id: number; is_subscriptable: boolean; subscription_fee_12: number | null; subscription_available_from: string | null };
  const cars: Row[] = [];
  // The whole garage, not "지금 구독 가능": that list shrinks as other lanes order, and the lanes
  // below must stay the same for every worker.
  for (let page = 1; page <= 40; page++) {
    const res = await request.get(`/api/subscriptions/garages?month=12&page=${page}`);
    const rows = ((await res.json()).data?.cars ?? []) as Row[];
    cars.push(...rows);
    if (rows.length === 0) break;
  }
  const today = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
  const orderable = cars
    .filter((c) => c.is_subscriptable && c.subscription_fee_12 && (!c.subscription_available_from || c.subscription_available_from.slice(0, 10) <= today))
    .sort((a, b) => a.id - b.id);
  const lane = currentLane();
  const handedOut = new Set(existsSync(lane.file) ? readFileSync(lane.file, 'utf8').split('\n').filter(Boolean).map(Number) : []);
  const mine = orderable.filter((c, i) => i % lane.count === lane.index && !handedOut.has(c.id));
  const inRange = (c: Row) => c.subscription_fee_12! >= 3_000_000 && c.subscription_fee_12! <= 5_000_000;
  const preferred = [...mine.filter(inRange), ...mine.filter((c) => !inRange(c))];
  const live = preferred.length ? ((await (await request.get(`/api/subscriptions/availability?ids=${preferred.map((c) => c.id).join(',')}`)).json()).data?.availability ?? []) as { car_id: number; text: string }[] : [];
  const free = new Set(live.filter((a) => a.text === '구독 가능').map((a) => a.car_id));
  const car = preferred.find((c) => free.has(c.id));
  if (!car) throw new Error(`no orderable car left for lane ${lane.index} of ${lane.count} (raise SEED_CARS in playwright.config.ts)`);
  appendFileSync(lane.file, `${car.id}\n`);
  return { id: car.id, fee: car.subscription_fee_12! };
}

/** This test's lane: (project, worker) → index among `count`, and the file of cars it handed out. */
function currentLane() {
  try {
    const info = test.info();
    const projects = info.config.projects.map((p) => p.name);
    const workers = Math.max(1, info.config.workers);
    const index = Math.max(0, projects.indexOf(info.project.name)) * workers + info.parallelIndex;
    return { index, count: workers * Math.max(1, projects.length), file: path.join(info.project.outputDir, `.orderable-cars-lane-${index}`) };
  } catch {
    // Outside a test: the whole list, remembered for this process only.
    return { index: 0, count: 1, file: path.join(tmpdir(), `orderable-cars-${process.pid}`) };
  }
}

/** Staff confirmation through the admin API. */
export async function confirm(request: APIRequestContext, requestId: number, start: string) {
  const res = await request.post(`/api/admin/subscription-requests/${requestId}/confirm`, { headers: ADMIN, data: { start_date: start } });
  if (!res.ok()) throw new Error(`confirm: ${res.status()} ${await res.text()}`);
}

/** A billing key from the sandbox provider, as its approve button would hand it back. */
export async function sandboxKey(request: APIRequestContext) {
  const res = await request.post('/api/sandbox/billing-key/approve', { form: { redirectUrl: '/inquire' }, maxRedirects: 0 });
  const location = res.headers()['location'];
  const key = new URL(location, 'http://localhost').searchParams.get('billingKey');
  if (!key) throw new Error(`sandbox: ${res.status()} ${location}`);
  return key;
}

/** A subscription request made through the API. */
export async function placeRequest(request: APIRequestContext, token: string, carId: number, body: { month: number; point_amount?: number; coupon_id?: number; start_date?: string }) {
  const res = await apiAs(request, token, 'POST', `/subscriptions/cars/${carId}/request`, { ...body, billing_key: await sandboxKey(request) });
  if (res.status !== 201) throw new Error(`request: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.subscription_request as { id: number };
}
