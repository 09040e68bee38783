import { randomBytes, randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { addDays, todayInKorea } from '../../src/domain/dates';
import type { ButlerCar, ButlerRequestView, ButlerSubscriptionView } from '../../src/domain/butler';
import { apiAs, sandboxKey } from './users';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect } from './fixtures';

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

/** The seeded butler fleet. */
export async function butlerCars(request: APIRequestContext): Promise<ButlerCar[]> {
  const res = await request.get('/api/butlers/cars');
  return (await res.json()).data.cars as ButlerCar[];
}

// Tests share one database and run in parallel: each booking starts on a random day and walks
// forward when the car is taken that day (409).
let cursor = 5 + Math.floor(Math.random() * 150);

export interface Booking {
  /** Korean day YYYY-MM-DD; when given, only cars are tried on that day. */
  day?: string;
  /** Korean wall times HH:MM; end '' for an open end. */
  start?: string;
  end?: string;
  start_location?: string;
  end_location?: string;
  description?: string;
  way_point_requests?: { address: string; scheduled_time: string | null }[];
  point_amount?: number;
  coupon_id?: number;
  /** Cars to try, in order (all seeded cars by default). */
  carIds?: number[];
  /** The card (an approving sandbox key by default). */
  billing_key?: string;
  /** Other payload fields as the form sends them (memo, purpose, driver_preference, flight_number, passenger_count…). */
  extra?: Record<string, unknown>;
}

/** A butler request made through the API (sandbox billing key); returns it as the list shows it, with its day. */
export async function placeButler(request: APIRequestContext, token: string, b: Booking = {}): Promise<ButlerRequestView & { day: string }> {
  const cars = b.carIds ?? (await butlerCars(request)).map((c) => c.id);
  for (let attempt = 0; attempt < 40; attempt++) {
    const day = b.day ?? addDays(todayInKorea(new Date()), cursor++ % 170 + 3);
    const carId = cars[attempt % cars.length];
    const res = await apiAs(request, token, 'POST', `/butlers/cars/${carId}/request`, {
      start_at: `${day}T${b.start ?? '09:00'}:00+09:00`,
      end_at: b.end === '' ? null : `${day}T${b.end ?? '17:00'}:00+09:00`,
      start_location: b.start_location ?? '서울 중구 세종대로 110',
      end_location: b.end_location ?? '인천 중구 공항로 272',
      description: b.description ?? null,
      way_point_requests: b.way_point_requests ?? [],
      passenger_count: 2,
      coupon_id: b.coupon_id ?? null,
      point_amount: b.point_amount ?? null,
      billing_key: b.billing_key ?? (await sandboxKey(request)),
      ...b.extra,
    });
    if (res.status === 409) continue;
    if (res.status !== 201) throw new Error(`butler request: ${res.status} ${JSON.stringify(res.body)}`);
    return { ...(res.body.data.butler_request as ButlerRequestView), day };
  }
  throw new Error('no free butler car and day');
}

/** Staff confirmation: creates the butler subscription. */
export async function confirmButler(request: APIRequestContext, requestId: number): Promise<ButlerSubscriptionView> {
  const res = await request.post(`/api/admin/butler-requests/${requestId}/confirm`, { headers: ADMIN });
  if (!res.ok()) throw new Error(`confirm: ${res.status()} ${await res.text()}`);
  return (await res.json()).data.butler_subscription as ButlerSubscriptionView;
}

/** The user's held BUTLER coupon with this code. */
export async function butlerCouponId(request: APIRequestContext, token: string, code: string): Promise<number> {
  const res = await apiAs(request, token, 'GET', '/butlers/coupons');
  const held = (res.body.data.coupons as { id: number; coupon: { code: string } }[]).find((c) => c.coupon.code === code);
  if (!held) throw new Error(`coupon ${code} not held: ${JSON.stringify(res.body)}`);
  return held.id;
}

/** The user's butler requests as the API lists them. */
export async function butlerRequests(request: APIRequestContext, token: string): Promise<ButlerRequestView[]> {
  return (await apiAs(request, token, 'GET', '/butlers/requests')).body.data.butler_requests;
}

/** A roster driver with an account: added by staff, invited by email, accepted through the API (`label` starts the name). */
export async function driverWithAccount(request: APIRequestContext, label: string) {
  const name = `${label}${randomBytes(2).toString('hex')}`;
  const phone = `010${randomInt(10_000_000, 99_999_999)}`;
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name, phone, gender: 'male' } });
  expect(res.status()).toBe(201);
  const driver = (await res.json()).data.driver as { id: number };
  const email = `driver-${randomBytes(4).toString('hex')}@example.com`;
  expect((await request.post(`/api/admin/drivers/${driver.id}/invite`, { headers: ADMIN, data: { channel: 'email', email } })).status()).toBe(201);
  let code = '';
  await expect
    .poll(async () => {
      const messages = (await (await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(email)}`)).json()).data.messages as { event: string; text: string }[];
      code = /\/driver\?invite=([\w-]+)/.exec(messages.find((m) => m.event === 'driver.invited')?.text ?? '')?.[1] ?? '';
      return code;
    }, { timeout: 30_000 })
    .not.toBe('');
  const accepted = await request.post('/api/driver/invites/accept', { data: { code, password: 'driver123' } });
  expect(accepted.status()).toBe(201);
  return { id: driver.id, name, phone, token: (await accepted.json()).data.access_token as string };
}
