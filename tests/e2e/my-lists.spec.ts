import { addDays, addMonths, todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { apiAs, confirm, loginAs, newUser, orderableCar, placeRequest, waitForSite } from './users';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';

test.beforeAll(async ({ request }) => waitForSite(request));

test('my requests: empty text, grouped by date with counts, first group open, cancel with 취소 중... and a reload', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request, { points: 30_000 });
  await loginAs(page, user.token);
  await page.goto('/my/requests');
  await expect(page.getByRole('heading', { level: 1, name: '구독 신청 내역' })).toBeVisible();
  await expect(page.getByText('아직 신청한 차량이 없습니다.')).toBeVisible();

  const first = await placeRequest(request, user.token, car.id, { month: 12, point_amount: 30_000 });
  // One plate: the second term starts after the first (issue 38).
  await placeRequest(request, user.token, car.id, { month: 12, start_date: addMonths(addDays(todayInKorea(new Date()), 1), 12) });
  await page.reload();
  const group = page.getByTestId('date-group');
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAttribute('open');
  await expect(group.locator('summary')).toContainText('2건');
  await expect(page.getByTestId('request-item')).toHaveCount(2);
  // Issue 38: the monthly fee and the first payment (after points) each under its own label, never "월 <first payment>".
  await expect(page.getByTestId('request-item').filter({ hasText: `첫 결제 금액 ${(car.fee - 30_000).toLocaleString('ko-KR')}원` })).toContainText(`월 구독료 ${car.fee.toLocaleString('ko-KR')}원`);

  // Hold the DELETE until the busy label has been seen.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/subscriptions/requests/*', async (route) => {
    if (route.request().method() === 'DELETE') await held;
    await route.continue();
  });
  page.once('dialog', (d) => void d.accept());
  const item = page.getByTestId('request-item').filter({ hasText: `신청 #${first.id}` });
  await item.getByRole('button', { name: '취소하기' }).click();
  await expect(item.getByRole('button', { name: '취소 중...' })).toBeVisible();
  release();
  // The cancelled request stays, with its state and without a cancel button.
  await expect(item.getByTestId('request-state')).toHaveText('취소');
  await expect(item.getByRole('button', { name: '취소하기' })).toHaveCount(0);
  await expect(page.getByTestId('request-item')).toHaveCount(2);
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(30_000);

  await group.locator('summary').click();
  await expect(group).not.toHaveAttribute('open');
});

test('my subscriptions: empty text, 이용 중/이용 종료 badge (ACTIVE/INACTIVE), 해지하기 is a button', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await expect(page.getByText('현재 구독이 없습니다.')).toBeVisible();

  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  await confirm(request, r.id, '2026-01-01');
  await page.reload();
  const item = page.getByTestId('subscription-item');
  await expect(item.getByTestId('subscription-badge')).toHaveText('이용 중');
  await expect(item).toContainText('2026-01-01 ~ 2026-12-31');
  // 해지하기 is the in-product 중도 해지 now (tests/e2e/early-exit.spec.ts), not the chat channel.
  await expect(item.getByRole('button', { name: '해지하기' })).toBeVisible();

  const subs = await apiAs(request, user.token, 'GET', '/subscriptions');
  await request.patch(`/api/admin/subscriptions/${subs.body.data.subscriptions[0].id}`, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { is_active: false } });
  await page.reload();
  await expect(item.getByTestId('subscription-badge')).toHaveText('이용 종료');
});

test('request detail: fields, edit with re-pricing, a refused edit, cancel with confirmation, 목록으로 when not found', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request, { points: 100_000 });
  const r = await placeRequest(request, user.token, car.id, { month: 12, point_amount: 20_000 });
  await loginAs(page, user.token);
  await page.goto(`/subscribe/request/${r.id}`);
  const fields = page.getByTestId('request-fields');
  await expect(fields).toContainText(`#${r.id}`);
  await expect(fields).toContainText('12개월');
  await expect(fields).toContainText('20,000 P');
  // Issue 49: the card as every Korean checkout shows it (issuer, ···· and the last four digits), never the billing key.
  const card = (await apiAs(request, user.token, 'GET', `/subscriptions/requests/${r.id}`)).body.data.subscription_request.card as { issuer: string; last4: string };
  expect(card).toEqual({ issuer: '샌드박스카드', last4: expect.stringMatching(/^\d{4}$/) });
  await expect(fields.getByText('결제 카드', { exact: true })).toBeVisible();
  await expect(fields).toContainText(`샌드박스카드 ···· ${card.last4}`);
  await expect(page.getByTestId('request-card')).toHaveText(`샌드박스카드 ···· ${card.last4}`);
  await expect(page.getByText('빌링키')).toHaveCount(0);
  await expect(page.getByText(/sandbo/)).toHaveCount(0);

  await page.getByLabel('포인트').fill('50000');
  await page.getByRole('button', { name: '저장' }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 성공적으로 수정되었습니다.');
  await expect(fields).toContainText('50,000 P');
  await expect(fields).toContainText(`${(car.fee - 50_000).toLocaleString('ko-KR')}원`);
  await expect(fields).not.toContainText('₩');
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(50_000);

  await page.getByLabel('포인트').fill('55000');
  await page.getByRole('button', { name: '저장' }).click();
  await expect(page.getByRole('alert')).toContainText('요청 수정에 실패했습니다.');
  await expect(page.getByRole('alert')).toContainText('10,000P 단위');

  page.once('dialog', (d) => void d.dismiss());
  await page.getByRole('button', { name: '신청 취소' }).click();
  await expect(fields).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: '신청 취소' }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 취소되었습니다.');
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(100_000);

  await page.goto(`/subscribe/request/${r.id}`);
  await page.getByRole('link', { name: '목록으로' }).click();
  await expect(page).toHaveURL(/\/my\/requests\/?$/);
});

test('request detail that cannot load says 요청 정보를 불러오는데 실패했습니다.', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.route('**/api/subscriptions/requests', (route) => route.fulfill({ status: 500, json: { code: 1500, message: '오류', errors: {} } }));
  await page.goto('/subscribe/request/1');
  await expect(page.getByRole('alert')).toHaveText('요청 정보를 불러오는데 실패했습니다.');
});

test('request edit: the coupon comes from the picker and 카드 변경 registers a new card through the billing flow', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request, { coupons: ['LUXE300'] });
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  const before = (await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests[0];
  await loginAs(page, user.token);
  await page.goto(`/subscribe/request/${r.id}`);
  await expect(page.getByLabel('쿠폰 ID')).toHaveCount(0);
  await expect(page.getByLabel('빌링키')).toHaveCount(0);

  await page.getByRole('button', { name: '쿠폰 선택 안 함' }).click();
  await page.getByRole('option', { name: /30만원 할인/ }).click();
  await page.getByRole('button', { name: '저장', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 성공적으로 수정되었습니다.');
  await expect(page.getByTestId('request-fields')).toContainText('30만원 할인');
  const withCoupon = (await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests[0];
  expect(withCoupon.coupon.coupon.code).toBe('LUXE300');
  expect(withCoupon.final_fee).toBe(car.fee - 300_000);

  await page.getByRole('button', { name: '카드 변경' }).click();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page).toHaveURL(new RegExp(`/subscribe/request/${r.id}$`));
  await expect(page.getByRole('status')).toHaveText('요청이 성공적으로 수정되었습니다.');
  const after = (await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests[0];
  expect(after.billing_key).not.toBe(before.billing_key);
  expect(after.coupon.coupon.code).toBe('LUXE300');
});
