import type { APIRequestContext } from '@playwright/test';
import { todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { loginAs, newPerson, newUser, orderableCar, storeSession, waitForSite } from './users';

/** Issue 12: an order is refused before the card window opens, a refused token leads to /login, and only verified accounts order. */

test.beforeAll(async ({ request }) => waitForSite(request));

/** A seeded car that takes orders only from a later day, with a 12-month fee. */
async function laterCar(request: APIRequestContext) {
  const today = todayInKorea();
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
  await expect(page.getByRole('button', { name: 'Inquire Now' })).toBeDisabled();

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
  await expect(page.getByRole('button', { name: '신청하기' })).toBeEnabled();
});

test('the butler form offers verification to an unverified account instead of the card window', async ({ page, request }) => {
  const user = await newUser(request, { unverified: true });
  await loginAs(page, user.token);
  await page.goto('/butler/request');
  await expect(page.getByTestId('identity-required')).toContainText('본인인증을 마친 회원만 의전 서비스를 신청할 수 있습니다.');
});
