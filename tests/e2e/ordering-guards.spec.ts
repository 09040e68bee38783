import type { APIRequestContext } from '@playwright/test';
import type { ButlerCar } from '../../src/domain/butler';
import { prefillToSearch } from '../../src/domain/butler-prefill';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { apiAs, loginAs, newPerson, newUser, nextAlert, orderableCar, sandboxKey, storeSession, waitForSite } from './users';

/** Issue 12: an order is refused before the card window opens, a refused token leads to /login, and only verified accounts order. */

test.beforeAll(async ({ request }) => waitForSite(request));

/** A seeded car that takes orders only from a later day, with a 12-month fee. */
async function laterCar(request: APIRequestContext) {
  const today = todayInKorea(new Date());
  for (let page = 1; page <= 20; page++) {
    const res = await request.get(`/api/subscriptions/garages?page=${page}`);
    const { cars } = (await res.json()).data as { cars: { id: number; is_subscriptable: boolean; subscription_available_from: string | null; subscription_fee_12: number | null }[] };
    const car = cars.find((c) => c.is_subscriptable && c.subscription_fee_12 && c.subscription_available_from && c.subscription_available_from.slice(0, 10) > today);
    if (car) return { id: car.id, from: car.subscription_available_from!.slice(0, 10) };
    if (!cars.length) break;
  }
  throw new Error('no later car in the seed');
}

test('a car not open for orders yet says so on its page and on the order page, and no card window opens', async ({ page, request }) => {
  const car = await laterCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/car/${car.id}`);
  await expect(page.getByTestId('order-refusal')).toHaveText(`${car.from}부터 구독할 수 있는 차량입니다.`);
  await expect(page.getByRole('button', { name: '구독 신청하기' })).toBeDisabled();

  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await expect(page.getByTestId('order-refusal')).toContainText(`${car.from}부터 구독할 수 있는 차량입니다.`);
  await page.getByLabel('전체 동의').check();
  await expect(page.getByRole('button', { name: '신청하기' })).toBeDisabled();
  await expect(page).toHaveURL(/\/inquire\?/);
});

test('a token the API refuses leads from the order page to /login, back to the order afterwards', async ({ page, request }) => {
  const car = await orderableCar(request);
  await storeSession(page, { access_token: 'revoked-or-expired-token' });
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await expect(page).toHaveURL(/\/login\/?$/);
  expect(await page.evaluate(() => localStorage.getItem('redirectAfterLogin'))).toBe(`/inquire?month=12&carId=${car.id}`);
  await expect(page.getByRole('button', { name: '신청하기' })).toHaveCount(0);
});

test('an unverified account verifies on the order page, then orders', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request, { unverified: true });
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  const gate = page.getByTestId('identity-required');
  await expect(gate).toContainText('본인인증을 마친 회원만 구독 서비스를 신청할 수 있습니다.');
  await page.getByLabel('전체 동의').check();
  await expect(page.getByRole('button', { name: '신청하기' })).toBeDisabled();

  await gate.getByRole('button', { name: '본인인증하기' }).click();
  await expect(page.getByText('테스트 환경 · 실제 본인인증이 아닙니다')).toBeVisible();
  const person = newPerson();
  await page.getByLabel('이름').fill(person.name);
  await page.getByLabel('휴대폰 번호').fill(person.mobile);
  await page.getByRole('button', { name: '인증 완료' }).click();

  await expect(page).toHaveURL(new RegExp(`/inquire\\?month=12&carId=${car.id}$`));
  await expect(gate).toHaveCount(0);
  await page.getByLabel('전체 동의').check();
  // Verified, the order waits for the 운전면허 확인, checked by the name and birth date just verified.
  await expect(page.getByRole('button', { name: '신청하기' })).toBeDisabled();
  const licences = page.getByTestId('order-licences');
  await licences.getByLabel('면허번호').fill('11-15-246810-01');
  await licences.getByRole('button', { name: '면허 확인' }).click();
  await expect(page.getByTestId('holder-licence')).toContainText(`${person.name} · 2종 보통 · 11-15-******-** 확인 완료`);
  await expect(page.getByRole('button', { name: '신청하기' })).toBeEnabled();
});

test('the butler form offers verification to an unverified account instead of the card window', async ({ page, request }) => {
  const user = await newUser(request, { unverified: true });
  await loginAs(page, user.token);
  await page.goto('/butler/request');
  await expect(page.getByTestId('identity-required')).toContainText('본인인증을 마친 회원만 의전 서비스를 신청할 수 있습니다.');
});

/** The butler form with every required value, for a car and a day. */
const butlerForm = (car: ButlerCar, day: string) =>
  `/butler/request?${prefillToSearch({ carId: car.id, date: day, time: '10:00', origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272', passengers: 2, purpose: '비즈니스 미팅' })}`;

test('the butler form refuses a day the car is already booked on before the card window', async ({ page, request }) => {
  const [car] = (await (await request.get('/api/butlers/cars')).json()).data.cars as ButlerCar[];
  let day = addDays(todayInKorea(new Date()), 100 + Math.floor(Math.random() * 60));
  while (car.butler_reservated_dates.includes(day)) day = addDays(day, 1);
  const other = await newUser(request);
  const booked = await apiAs(request, other.token, 'POST', `/butlers/cars/${car.id}/request`, {
    start_at: `${day}T09:00:00+09:00`, end_at: `${day}T17:00:00+09:00`, start_location: '서울 강남구 테헤란로 152', end_location: '인천 중구 공항로 272',
    way_point_requests: [], passenger_count: 1, purpose: '비즈니스 미팅', memo: '', driver_preference: 'any', coupon_id: null, point_amount: null, billing_key: await sandboxKey(request),
  });
  expect(booked.status).toBe(201);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(butlerForm(car, day));
  await expect(page.getByTestId('trip-problems')).toContainText(`선택한 날짜에 이미 예약된 차량입니다. (${day})`);
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  await expect(page.getByRole('dialog', { name: '정기결제(카드 등록)' })).toBeHidden();
});

test('a token the API refuses on the butler form leads to /login on submit, the form kept', async ({ page, request }) => {
  const [car] = (await (await request.get('/api/butlers/cars')).json()).data.cars as ButlerCar[];
  let day = addDays(todayInKorea(new Date()), 30);
  while (car.butler_reservated_dates.includes(day)) day = addDays(day, 1);
  await storeSession(page, { access_token: 'revoked-or-expired-token' });
  await page.goto(butlerForm(car, day));
  await expect.poll(() => page.evaluate(() => localStorage.getItem('subscribeAccessToken'))).toBeNull();
  const alert = nextAlert(page);
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  expect(await alert).toBe('로그인이 필요합니다.');
  await expect(page).toHaveURL(/\/login\/?$/);
  expect(await page.evaluate(() => localStorage.getItem('redirectAfterLogin'))).toMatch(/^\/butler\/request\?/);
});
