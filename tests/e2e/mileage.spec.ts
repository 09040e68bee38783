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
  const today = todayInKorea(new Date());
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

test('반납 정산 in the console: staff record the 반납 reading, settle damages from the deposit first (fuel from the records); the customer sees it', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  const today = todayInKorea(new Date());
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
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.accept();
  });
  await form.getByRole('button', { name: '반납 기록' }).click();
  const arithmetic = `주행 ${formatNumber(plan + 10)}km − 약정 ${formatNumber(plan)}km = 초과 10km × 1km당 ${won(rate)} = ${won(10 * rate)}`;
  await expect(panel.getByTestId('staff-mileage-settlement')).toContainText(arithmetic);
  expect(dialogs[0]).toContain('반납 정산에서 보증금부터 차감합니다');
  // The RETURN reading alone charges nothing.
  const before = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { purpose: string }[];
  expect(before.filter((p) => p.purpose === 'SUBSCRIPTION_MILEAGE' || p.purpose === 'SUBSCRIPTION_SETTLEMENT')).toEqual([]);

  // 반납 정산: a damage item, preview, confirm. The fuel comes from the handover records (none here: readings typed), never typed.
  const settle = row.getByTestId('staff-settlement');
  await settle.locator('summary').click();
  const entry = settle.getByRole('form', { name: `구독 #${subscriptionId} 반납 정산 입력` });
  await entry.getByRole('button', { name: '손상 항목 추가' }).click();
  await entry.getByRole('textbox', { name: '손상 1' }).fill('앞범퍼 긁힘');
  await entry.getByRole('textbox', { name: '수리 견적(원)' }).fill('50,000');
  await expect(entry.getByRole('textbox', { name: '연료·충전 부족(%)' })).toHaveCount(0);
  await entry.getByRole('button', { name: '미리보기' }).click();
  const result = settle.getByTestId('staff-settlement-result');
  await expect(result).toContainText('미리보기');
  await expect(result.getByTestId('settlement-fuel')).toContainText('인도·반납 기록 없음');
  await expect(result).toContainText('손상: 앞범퍼 긁힘');
  await settle.getByRole('button', { name: '정산 확정' }).click();
  await expect(result).toContainText('정산 완료');
  const stored = (await (await request.get(`/api/admin/subscriptions/${subscriptionId}/settlement`, { headers: ADMIN })).json()) as { data: { settlement: { summary: string; total: number; to_charge: number; to_refund: number } } };
  const s = stored.data.settlement;
  expect(s.total).toBe(10 * rate + 50_000);
  await expect(result.getByTestId('settlement-summary')).toHaveText(s.summary);
  // Once: one settlement charge (or none when the deposit covered it), no overage charge on its own.
  const after = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { purpose: string; amount: number; status: string }[];
  expect(after.filter((p) => p.purpose === 'SUBSCRIPTION_MILEAGE')).toEqual([]);
  expect(after.filter((p) => p.purpose === 'SUBSCRIPTION_SETTLEMENT')).toEqual(s.to_charge > 0 ? [expect.objectContaining({ amount: s.to_charge, status: 'PAID' })] : []);

  // The customer: my subscriptions show the settlement; my payments the charge by its label.
  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await hydrated(page, 'SubscriptionList');
  const mine = page.getByTestId('subscription-item').getByTestId('settlement');
  await expect(mine).toContainText('반납 정산');
  await expect(mine).toContainText('손상: 앞범퍼 긁힘');
  await expect(mine.getByTestId('settlement-summary')).toHaveText(s.summary);
  if (s.to_charge > 0) {
    await page.goto('/my/payments');
    await expect(page.getByText('구독 반납 정산').first()).toBeVisible();
  }
});
