import { expect, test } from './fixtures';
import { apiAs, loginAs, newStaff, newUser, orderableCar, sandboxKey, waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

/** Through the order page to the sandbox card page, picking a test card there. */
async function orderWithCard(page: import('@playwright/test').Page, carId: number, card: RegExp) {
  await page.goto(`/inquire?month=12&carId=${carId}`);
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await page.getByRole('radio', { name: card }).check();
  await page.getByRole('button', { name: /승인/ }).click();
}

test('an order is charged at once: 결제 완료 with the amount, then /my/payments lists it with a printable receipt', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await orderWithCard(page, car.id, /승인 카드/);
  const done = page.getByRole('dialog', { name: '구독 신청 완료' });
  await expect(done.getByTestId('payment-result')).toContainText(`결제 완료 · ${car.fee.toLocaleString('ko-KR')}원`);
  await done.getByRole('link', { name: '결제 내역' }).click();
  await expect(page).toHaveURL(/\/my\/payments\/?$/);
  const item = page.getByTestId('payment-item');
  await expect(item).toHaveCount(1);
  await expect(item.getByTestId('payment-label')).toHaveText('구독 첫 달 요금 (1개월 차)');
  await expect(item.getByTestId('payment-status')).toHaveText('결제 완료');
  await expect(item).toContainText(`${car.fee.toLocaleString('ko-KR')}원`);
  const receipt = await item.getByRole('link', { name: '영수증 보기' }).getAttribute('href');
  await page.goto(receipt!);
  await expect(page.getByRole('heading', { name: '카드 결제 영수증' })).toBeVisible();
  await expect(page.getByText(`${car.fee.toLocaleString('ko-KR')}원`)).toBeVisible();
  await expect(page.getByRole('button', { name: '인쇄하기' })).toBeVisible();
});

test('a declining card: the Korean reason, nothing spent; another card then succeeds', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request, { points: 20_000 });
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await page.getByLabel('사용할 포인트').fill('20000');
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await page.getByRole('radio', { name: /한도 초과 카드/ }).check();
  // The page reloads its wallet while the order is in flight, and can read the points as spent
  // (the decline gives them back a moment later): the first read after the card window says 0.
  let staleReads = 1;
  await page.route('**/api/users/point-transactions*', async (route) => {
    if (staleReads-- <= 0) return route.fallback();
    const res = await route.fetch();
    const body = (await res.json()) as { data: { point: number } };
    await route.fulfill({ response: res, json: { ...body, data: { ...body.data, point: 0 } } });
  });
  await page.getByRole('button', { name: /승인/ }).click();
  const declined = page.getByTestId('payment-declined');
  await expect(declined).toContainText('카드 한도가 초과되었습니다. 다른 카드로 결제해주세요.');
  await expect(declined).toContainText('쿠폰과 포인트도 사용되지 않았습니다');
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(20_000);
  // The declined request was never received: it stays listed, read-only, with the declined payment.
  const [declinedRequest] = (await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests as { id: number; status: string }[];
  expect(declinedRequest.status).toBe('CANCELLED');
  // The points chosen come back for the next card.
  await expect(page.getByLabel('사용할 포인트')).toHaveValue('20000');
  await declined.getByRole('button', { name: '다른 카드로 결제하기' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '구독 신청 완료' }).getByTestId('payment-result')).toContainText(`결제 완료 · ${(car.fee - 20_000).toLocaleString('ko-KR')}원`);
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(0);

  // The declined charge's 신청 내역 보기 opens that request, saying it was not received (never "not found").
  await page.goto('/my/payments');
  const failed = page.getByTestId('payment-item').filter({ has: page.getByTestId('payment-status').filter({ hasText: '결제 실패' }) });
  await failed.getByRole('link', { name: '신청 내역 보기' }).click();
  await expect(page).toHaveURL(new RegExp(`/subscribe/request/${declinedRequest.id}/?$`));
  await expect(page.getByTestId('request-fields')).toContainText('결제 실패 (접수되지 않음)');
  await expect(page.getByText('카드 결제가 승인되지 않아 접수되지 않은 신청입니다.')).toBeVisible();
  await expect(page.getByRole('button', { name: '신청 취소' })).toHaveCount(0);
});

test('staff refund a payment from the console; the customer sees 환불 완료', async ({ page, request, browser }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const order = await apiAs(request, user.token, 'POST', `/subscriptions/cars/${car.id}/request`, { month: 12, billing_key: await sandboxKey(request) });
  const paymentId = order.body.data.payment.id as string;
  const staff = await newStaff(request);
  const console = await browser.newContext();
  const staffPage = await console.newPage();
  await loginAs(staffPage, staff.access_token);
  await staffPage.goto('/admin#payments');
  const row = staffPage.getByTestId('payments-list').getByRole('listitem').filter({ hasText: paymentId });
  await expect(row).toContainText('결제 완료');
  // The amount prompt left blank refunds it all; then the reason.
  const prompts = ['', '고객 요청 환불'];
  staffPage.on('dialog', (d) => void d.accept(prompts.shift()));
  await row.getByRole('button', { name: '환불' }).click();
  await expect(row).toContainText('환불 완료');
  await console.close();

  await loginAs(page, user.token);
  await page.goto('/my/payments');
  const item = page.getByTestId('payment-item');
  await expect(item.getByTestId('payment-status')).toHaveText('환불 완료');
  await expect(item).toContainText('고객 요청 환불');
});

test('the console refund box reads the amount exactly: "오십만원" is refused, "10만" asks to confirm 100,000원 and says what was refunded', async ({ browser, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const order = await apiAs(request, user.token, 'POST', `/subscriptions/cars/${car.id}/request`, { month: 12, billing_key: await sandboxKey(request) });
  const paymentId = order.body.data.payment.id as string;
  const staff = await newStaff(request);
  const console = await browser.newContext();
  const staffPage = await console.newPage();
  await loginAs(staffPage, staff.access_token);
  await staffPage.goto('/admin#payments');
  const row = staffPage.getByTestId('payments-list').getByRole('listitem').filter({ hasText: paymentId });
  await expect(row).toContainText('결제 완료');
  const status = staffPage.getByRole('status').first();

  const seen: string[] = [];
  let answers = ['오십만원'];
  staffPage.on('dialog', (d) => {
    seen.push(d.message());
    void d.accept(answers.shift());
  });
  await row.getByRole('button', { name: '환불' }).click();
  await expect(status).toContainText('읽을 수 없습니다');
  expect(seen).toHaveLength(1);
  await expect(row).toContainText('결제 완료');

  answers = ['10만', '부분 환불 확인'];
  await row.getByRole('button', { name: '환불' }).click();
  // The refund goes through the provider and the ledger: longer than a render on a loaded CI machine.
  await expect(status).toContainText(`${paymentId} 100,000원을 환불했습니다.`, { timeout: 20_000 });
  expect(seen.at(-1)).toContain(`${paymentId}에서 100,000원을 환불합니다`);
  await expect(row).toContainText('환불 100,000원');
  await console.close();
});
