import type { APIRequestContext, Page } from '@playwright/test';

const ADMIN = { authorization: 'Bearer e2e-admin-token' };

/** A fresh e2e user (via the admin-token test route) with points and coupons by code. */
export async function newUser(request: APIRequestContext, opts: { points?: number; coupons?: string[] } = {}) {
  const res = await request.post('/api/admin/test-users', { headers: ADMIN, data: opts });
  if (!res.ok()) throw new Error(`test user: ${res.status()} ${await res.text()}`);
  const { user, access_token } = (await res.json()).data as { user: { id: number; username: string; referral_code: string }; access_token: string };
  return { ...user, token: access_token };
}

/** Logs the page in before any script runs, as the login page would. */
export async function loginAs(page: Page, token: string) {
  await page.addInitScript((t) => {
    localStorage.setItem('subscribeAccessToken', t);
    localStorage.setItem('subscribeTokenExpiry', String(Math.floor(Date.now() / 1000) + 86_400));
  }, token);
}

/** Calls the API as a user. */
export async function apiAs(request: APIRequestContext, token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) {
  const res = await request.fetch(`/api${path}`, { method, headers: { authorization: `Bearer ${token}` }, data });
  return { status: res.status(), body: await res.json() };
}

/** A seeded car that can be ordered now for 12 months, with its 12-month fee. */
export async function orderableCar(request: APIRequestContext) {
  const res = await request.get('/api/subscriptions/garages?available_only=true&month=12');
  const { cars } = (await res.json()).data as { cars: { id: number; is_subscriptable: boolean; subscription_fee_12: number | null }[] };
  const car = cars.find((c) => c.is_subscriptable && c.subscription_fee_12 && c.subscription_fee_12 >= 3_000_000 && c.subscription_fee_12 <= 5_000_000)
    ?? cars.find((c) => c.is_subscriptable && c.subscription_fee_12);
  if (!car) throw new Error('no orderable car in the seed');
  return { id: car.id, fee: car.subscription_fee_12! };
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
export async function placeRequest(request: APIRequestContext, token: string, carId: number, body: { month: number; point_amount?: number; coupon_id?: number }) {
  const res = await apiAs(request, token, 'POST', `/subscriptions/cars/${carId}/request`, { ...body, billing_key: await sandboxKey(request) });
  if (res.status !== 201) throw new Error(`request: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.subscription_request as { id: number };
}

/**
 * The e2e server answers /api/health while the storefront is still building (pages answer 503
 * then); wait until pages are served so the first test does not meet the placeholder.
 */
export async function waitForSite(request: APIRequestContext) {
  for (let i = 0; i < 300; i++) {
    if ((await request.get('/faq')).status() === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the storefront was not built in time');
}
