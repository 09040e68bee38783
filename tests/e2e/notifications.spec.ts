import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect, test } from './fixtures';
import { apiAs, loginAs, newStaff, newUser, orderableCar, waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

type OutboxMessage = { event: string; channel: string; to: string; subject: string; text: string; created_at: string };

/** The sandbox outbox for an address, after the due jobs have run (the server's job loop runs them too, every few seconds). */
async function outbox(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  await request.post('/api/admin/billing/run', { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  const res = await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(to)}`);
  expect(res.status()).toBe(200);
  return (await res.json()).data.messages;
}

/** Through the order page to the sandbox card page and back with an approved card. */
async function orderInBrowser(page: Page, carId: number) {
  await page.goto(`/inquire?month=12&carId=${carId}`);
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await page.getByRole('radio', { name: /승인 카드/ }).check();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '구독 신청 완료' }).getByTestId('payment-result')).toContainText('결제 완료');
}

test('an order in the browser: the sandbox outbox has 신청 접수 and 결제 완료 for the customer and a message for the staff', async ({ page, request }) => {
  const staff = await newStaff(request);
  const car = await orderableCar(request);
  const user = await newUser(request);
  const email = (await apiAs(request, user.token, 'GET', '/accounts')).body.data.email as string;
  await loginAs(page, user.token);
  await orderInBrowser(page, car.id);
  const [mine] = (await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests as { id: number }[];

  await expect.poll(async () => (await outbox(request, email)).map((m) => m.event).sort(), { timeout: 30_000 }).toEqual(['payment.succeeded', 'subscription.requested']);
  const messages = await outbox(request, email);
  const received = messages.find((m) => m.event === 'subscription.requested')!;
  expect(received).toMatchObject({ channel: 'email', to: email });
  expect(received.subject).toContain('신청 접수');
  expect(received.text).toContain(`/subscribe/request/${mine.id}`);
  const paid = messages.find((m) => m.event === 'payment.succeeded')!;
  expect(paid.subject).toContain('결제 완료');
  expect(paid.text).toContain(`${car.fee.toLocaleString('ko-KR')}원`);

  // Staff hear of it (STAFF_NOTIFY_EMAILS unset: every staff account).
  await expect.poll(async () => (await outbox(request, staff.person.email)).map((m) => m.subject), { timeout: 30_000 }).toContain(`[LUXE 운영] 새 구독 신청 #${mine.id}`);

  // The sandbox's page lists the customer's messages.
  await page.goto(`/api/sandbox/outbox/page?to=${encodeURIComponent(email)}`);
  await expect(page.getByRole('heading', { name: '알림 발신함' })).toBeVisible();
  const rows = page.getByTestId('outbox-message');
  await expect(rows.filter({ hasText: '구독 신청 접수' })).toHaveCount(1);
  await expect(rows.filter({ hasText: '결제 완료' })).toHaveCount(1);
  await rows.filter({ hasText: '결제 완료' }).getByText('내용 보기').click();
  await expect(rows.filter({ hasText: '결제 완료' }).getByText('영수증 보기:', { exact: false })).toBeVisible();
});

test('수신 동의 in my page: marketing and, separately, night-time consent turn on and off, and stay after a reload', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto('/my');
  const consent = page.getByRole('switch', { name: /마케팅 정보 수신 동의/ });
  await expect(consent).not.toBeChecked();
  await consent.check();
  await expect(page.getByRole('status').filter({ hasText: '마케팅 정보 수신에 동의했습니다.' })).toBeVisible();
  expect((await apiAs(request, user.token, 'GET', '/accounts')).body.data.marketing_consent).toBe(true);
  // The night-time (21:00~08:00) consent is separate, and only with the first.
  const night = page.getByRole('switch', { name: /야간 광고 수신 동의/ });
  await night.check();
  await expect(page.getByRole('status').filter({ hasText: '야간 광고 수신에 동의했습니다.' })).toBeVisible();
  expect((await apiAs(request, user.token, 'GET', '/accounts')).body.data.marketing_night_consent).toBe(true);
  await page.reload();
  await expect(page.getByRole('switch', { name: /마케팅 정보 수신 동의/ })).toBeChecked();
  await expect(page.getByRole('switch', { name: /야간 광고 수신 동의/ })).toBeChecked();
  await page.getByRole('switch', { name: /마케팅 정보 수신 동의/ }).uncheck();
  await expect(page.getByRole('status').filter({ hasText: '마케팅 정보 수신을 거부했습니다. 야간 수신 동의도 함께 철회되었습니다.' })).toBeVisible();
  await expect(night).not.toBeChecked();
  await expect(night).toBeDisabled();
  const after = (await apiAs(request, user.token, 'GET', '/accounts')).body.data;
  expect([after.marketing_consent, after.marketing_night_consent]).toEqual([false, false]);
});
