import type { ButlerRequestView } from '../../src/domain/butler';
import { prefillToSearch } from '../../src/domain/butler-prefill';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { apiAs, confirm, loginAs, newUser, orderableCar, placeRequest, waitForSite } from './users';

/**
 * BUTLER_LEGAL_MODEL=own-car (docs/decisions/legal.md §2) at 390 px: from the subscription in
 * /my, "이 차량으로 의전 기사 예약" opens the booking with that car chosen; no fleet car is offered;
 * the driver-only price is paid and the booking names the customer's car. The e2e server runs the
 * default (partner): this spec asks for own-car by the test-only cookie (src/api/orders/butler-legal.ts).
 */
test.beforeAll(async ({ request }) => waitForSite(request));

test('own-car: a driver for the subscription car, booked from /my at 390 px', { tag: '@phone' }, async ({ page, request, context, baseURL }) => {
  test.setTimeout(120_000);
  const user = await newUser(request);
  const car = await orderableCar(request);
  const today = todayInKorea(new Date());
  const start = addDays(today, 1);
  const order = await placeRequest(request, user.token, car.id, { month: 12, start_date: start });
  await confirm(request, order.id, start);

  // Under the default model /my offers nothing of the kind.
  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await expect(page.getByTestId('subscription-item')).toBeVisible();
  await expect(page.getByTestId('own-car-butler-link')).toHaveCount(0);

  await context.addCookies([{ name: 'luxe_test_butler_model', value: 'own-car', url: baseURL! }]);
  await page.reload();
  const link = page.getByRole('link', { name: '이 차량으로 의전 기사 예약' });
  await expect(link).toBeVisible();
  await link.click();
  await page.waitForURL(/\/butler\/request\?subscription=\d+/);

  const step = page.getByTestId('customer-car-step');
  await expect(step).toBeVisible();
  await expect(step.getByRole('radio', { name: /이용 중인 구독 차량/ })).toBeChecked();
  await expect(page.locator('#car-button')).toHaveCount(0);
  await expect(page.getByTestId('own-car-rate')).toContainText('시간당 45,000원');

  // The trip (addresses come from the search dialog; a prefill link fills them here).
  const day = addDays(today, 5);
  await page.goto(`${page.url()}&${prefillToSearch({ date: day, time: '10:00', origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272', waypoints: [], passengers: 2, purpose: '', memo: '' })}`);
  await expect(step.getByRole('radio', { name: /이용 중인 구독 차량/ })).toBeChecked();
  // 10:00–18:00: the 8 hours at 45,000원.
  await expect(page.getByText('360,000원').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Their own car instead: the plate and the insurance statement are required.
  await step.getByRole('radio', { name: '내 차량 직접 입력' }).check();
  await step.getByLabel('제조사/모델').fill('BMW 520i');
  await step.getByLabel('차량번호').fill('12가34');
  const submit = page.getByRole('button', { name: '예약 요청하기' });
  await submit.click();
  await expect(step.getByTestId('customer-car-problem')).toContainText('차량번호를 정확히 입력해주세요');
  await step.getByLabel('차량번호').fill('12가3456');
  await submit.click();
  await expect(step.getByTestId('customer-car-problem')).toContainText('보험');
  // Back to the subscription car, and book it.
  await step.getByRole('radio', { name: /이용 중인 구독 차량/ }).check();
  await submit.click();
  const cardDialog = page.getByRole('dialog', { name: '정기결제(카드 등록)' });
  await expect(cardDialog).toContainText('360,000원');
  await cardDialog.getByRole('button', { name: '동의하고 진행' }).click();
  const back = page.waitForURL((u) => u.searchParams.has('billingKey'));
  await page.getByRole('button', { name: /승인/ }).click();
  await back;
  await expect(page.getByRole('dialog', { name: '신청이 완료되었습니다' })).toBeVisible();

  const made: ButlerRequestView[] = (await apiAs(request, user.token, 'GET', '/butlers/requests')).body.data.butler_requests;
  expect(made).toHaveLength(1);
  expect(made[0]).toMatchObject({ final_price: 360_000, customer_car: { kind: 'subscription' }, legal: { model: 'own-car' } });
});
