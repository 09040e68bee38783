import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, orderableCar, waitForSite } from './users';

/**
 * Issue 47: the order's answer is lost after the card was charged (a frozen database answers 503).
 * The page asks again with the same billing key and shows the paid order; one payment exists.
 */
test.beforeAll(async ({ request }) => waitForSite(request));

const ORDER = '**/api/subscriptions/cars/*/request';
const UNAVAILABLE = { code: 1503, message: '일시적으로 서비스를 이용할 수 없습니다. 잠시 후 다시 시도해주세요.', errors: {} };
const PAID_NOTICE = '이미 결제된 구독 신청입니다. 다시 결제하지 않으셔도 됩니다.';

/** The first order request reaches the server (placed and charged); its answer is replaced by a 503. */
async function loseFirstAnswer(route: Route) {
  const real = await route.fetch();
  expect(real.status()).toBe(201);
  await route.fulfill({ status: 503, headers: { 'retry-after': '5' }, json: UNAVAILABLE });
}

/** From the order page to the sandbox card's approval; returns 오늘 결제 금액 as the page shows it. */
async function orderWithSandboxCard(page: Page, carId: number) {
  await page.goto(`/inquire?month=12&carId=${carId}`);
  await page.getByLabel('전체 동의').check();
  const paidToday = (await page.getByTestId('final-price').textContent())!;
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await page.getByRole('button', { name: /승인/ }).click();
  return paidToday;
}

async function onePaidPayment(request: Parameters<typeof apiAs>[0], token: string) {
  const payments = (await apiAs(request, token, 'GET', '/payments')).body.data.payments;
  expect(payments).toEqual([expect.objectContaining({ status: 'PAID', purpose: 'SUBSCRIPTION_FIRST' })]);
  expect((await apiAs(request, token, 'GET', '/subscriptions/requests')).body.data.subscription_requests).toHaveLength(1);
}

test('a 503 after the charge: the page sends the same key again and shows the paid order; one payment', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  const keys: string[] = [];
  await page.route(ORDER, async (route) => {
    keys.push(route.request().postDataJSON().billing_key);
    await (keys.length === 1 ? loseFirstAnswer(route) : route.continue());
  });
  const paidToday = await orderWithSandboxCard(page, car.id);

  const done = page.getByRole('dialog', { name: '구독 신청 완료' });
  // Two order requests and the page's first wait between them: more than the default 10 s on a busy machine.
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done.getByTestId('order-notice')).toHaveText(PAID_NOTICE);
  await expect(done.getByTestId('charged-sentence')).toHaveText(`등록하신 카드로 ${paidToday}이 결제되었습니다.`);
  await expect(done.getByTestId('payment-result')).toContainText(`결제 완료 · ${paidToday}`);
  await expect(page.getByText(/구독 신청에 실패했습니다/)).toHaveCount(0);
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
  await onePaidPayment(request, user.token);
});

test('answers lost on every resend: 다시 시도 (no new card), which sends the same key and shows the paid order; one payment', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  // The page's waits between resends are timers: the test moves its clock on instead of waiting.
  await page.clock.install();
  let down = true;
  const keys: string[] = [];
  await page.route(ORDER, async (route) => {
    keys.push(route.request().postDataJSON().billing_key);
    if (keys.length === 1) await loseFirstAnswer(route);
    else if (down) await route.fulfill({ status: 503, json: UNAVAILABLE });
    else await route.continue();
  });
  const paidToday = await orderWithSandboxCard(page, car.id);

  const unsure = page.getByTestId('payment-unsure');
  await expect(async () => {
    await page.clock.fastForward(10_000);
    await expect(unsure).toBeVisible({ timeout: 500 });
  }).toPass();
  await expect(unsure).toContainText('카드를 다시 등록하거나 새로 결제하지 마세요');
  await expect(page.getByText(/구독 신청에 실패했습니다/)).toHaveCount(0);
  // A new card would be a second order: 신청하기 stays off while the first one's state is unknown.
  await expect(page.getByRole('button', { name: '신청하기' })).toBeDisabled();
  expect(keys).toHaveLength(4);

  down = false;
  await unsure.getByRole('button', { name: '다시 시도' }).click();
  const done = page.getByRole('dialog', { name: '구독 신청 완료' });
  await expect(done).toBeVisible({ timeout: 30_000 });
  await expect(done.getByTestId('order-notice')).toHaveText(PAID_NOTICE);
  await expect(done.getByTestId('charged-sentence')).toHaveText(`등록하신 카드로 ${paidToday}이 결제되었습니다.`);
  expect(new Set(keys).size).toBe(1);
  expect(keys).toHaveLength(5);
  await onePaidPayment(request, user.token);
});
