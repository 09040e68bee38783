import { todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { formatNumber, won } from '../../src/domain/money';
import { apiAs, confirm, hydrated, loginAs, newStaff, newUser, orderableCar, placeRequest, waitForSite } from './users';

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

test('주행거리 on my page: the customer reports the odometer once this month and sees the reading', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  const today = todayInKorea();
  await confirm(request, r.id, today);
  const subscriptionId = ((await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[]).find((s) => s.request.id === r.id)!.id;
  // Staff record the handover in the console's API.
  const handover = await request.post(`/api/admin/subscriptions/${subscriptionId}/odometer`, { headers: ADMIN, data: { km: 12_000, source: 'HANDOVER', read_on: today } });
  expect(handover.ok()).toBe(true);

  const plan = (await apiAs(request, user.token, 'GET', `/subscriptions/${subscriptionId}/odometer`)).body.data.terms.monthly_km as number;

  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await hydrated(page, 'SubscriptionList');
  const mileage = page.getByTestId('subscription-item').getByTestId('mileage');
  await expect(mileage).toContainText('약정');
  await expect(mileage.getByTestId('mileage-latest')).toContainText(`12,000km (${today}, 인도 시)`);

  // Lower than the handover: the server's Korean refusal, nothing recorded.
  const input = mileage.getByLabel(/현재 계기판 주행거리/);
  await input.fill('11000');
  await mileage.getByRole('button', { name: '주행거리 입력' }).click();
  await expect(mileage.getByRole('alert')).toContainText('주행거리는 줄어들 수 없습니다');

  await input.fill('12,480');
  await mileage.getByRole('button', { name: '주행거리 입력' }).click();
  await expect(mileage.getByTestId('mileage-latest')).toContainText(`12,480km (${today}, 고객 입력)`);
  await expect(mileage).toContainText(`주행 480km / 약정 월 ${formatNumber(plan)}km × 1개월 = ${formatNumber(plan)}km`);
  // Once a billing month: the form gives way to when the next report opens.
  await expect(mileage.getByTestId('mileage-refusal')).toContainText('이번 달 주행거리는 이미 입력하셨습니다.');
  await expect(mileage.getByRole('button', { name: '주행거리 입력' })).toHaveCount(0);

  await page.reload();
  await hydrated(page, 'SubscriptionList');
  await expect(page.getByTestId('subscription-item').getByTestId('mileage-latest')).toContainText('12,480km');
  // The section fits the screen (390 px on mobile): nothing wider than the page.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('주행거리 in the console: staff record the 반납 reading, the overage is charged once and shown with its arithmetic', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  const today = todayInKorea();
  await confirm(request, r.id, today);
  const subscriptionId = ((await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[]).find((s) => s.request.id === r.id)!.id;
  expect((await request.post(`/api/admin/subscriptions/${subscriptionId}/odometer`, { headers: ADMIN, data: { km: 10_000, source: 'HANDOVER', read_on: today } })).ok()).toBe(true);
  const { monthly_km: plan, overage_per_km: rate } = (await apiAs(request, user.token, 'GET', `/subscriptions/${subscriptionId}/odometer`)).body.data.terms as { monthly_km: number; overage_per_km: number };

  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#orders');
  await page.getByRole('combobox', { name: '상태' }).selectOption('CONFIRMED');
  const row = page.locator('li').filter({ has: page.getByText(`#${r.id}`, { exact: true }) });
  const panel = row.getByTestId('staff-mileage');
  await panel.locator('summary').click();
  await expect(panel.getByRole('list', { name: `구독 #${subscriptionId} 주행거리 기록 목록` })).toContainText(`${today} · 인도 시 · 10,000km`);
  const form = panel.getByRole('form', { name: `구독 #${subscriptionId} 주행거리 기록` });
  await form.getByRole('combobox', { name: '종류' }).selectOption('RETURN');
  // One month begun: the plan's km once; 10km over it.
  const returned = 10_000 + plan + 10;
  await form.getByRole('textbox', { name: '주행거리(km)' }).fill(String(returned));
  const dialogs: string[] = [];
  page.once('dialog', (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  await form.getByRole('button', { name: '반납 기록·초과 요금 정산' }).click();
  const arithmetic = `주행 ${formatNumber(plan + 10)}km − 약정 ${formatNumber(plan)}km = 초과 10km × 1km당 ${won(rate)} = ${won(10 * rate)}`;
  await expect(panel.getByTestId('staff-mileage-settlement')).toContainText(arithmetic);
  await expect(panel.getByTestId('staff-mileage-settlement')).toContainText(`결제 완료 (sub-${subscriptionId}-mileage-1)`);
  expect(dialogs[0]).toContain('초과 주행 요금이 정산되어 고객 카드로 결제됩니다');
  // Once: the customer's payments hold one 초과 주행 charge.
  const payments = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { purpose: string; amount: number; status: string }[];
  expect(payments.filter((p) => p.purpose === 'SUBSCRIPTION_MILEAGE')).toEqual([expect.objectContaining({ amount: 10 * rate, status: 'PAID' })]);
});
