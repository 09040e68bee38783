import type { APIRequestContext } from '@playwright/test';
import type { ButlerRequestView } from '../../src/domain/butler';
import { won } from '../../src/domain/money';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { butlerCars, confirmButler, placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, waitForSite } from './users';

/**
 * A declined overtime charge paid by the customer (카드 변경 후 결제 on the booking detail). The
 * booking's fee is covered by points, so it is made with a card that declines every charge; staff
 * then record a trip two hours longer than booked and that card refuses the overtime. No test
 * clock (it is shared by every spec): the recorded trip is ten hours that have already passed, as
 * the server requires of a trip record.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const LIMIT = '카드 한도가 초과되었습니다. 다른 카드로 결제해주세요.';

test.beforeAll(async ({ request }) => waitForSite(request));

/** A sandbox billing key for a test card, as the card page's approve button hands it back. */
async function cardKey(request: APIRequestContext, charges: string, declineReason?: string) {
  const form: Record<string, string> = { redirectUrl: '/inquire', charges, ...(declineReason ? { decline_reason: declineReason } : {}) };
  const res = await request.post('/api/sandbox/billing-key/approve', { form, maxRedirects: 0 });
  const key = new URL(res.headers()['location'] ?? '', 'http://localhost').searchParams.get('billingKey');
  if (!key) throw new Error(`sandbox: ${res.status()}`);
  return key;
}

/** A confirmed booking (09:00–17:00) whose overtime (a recorded trip of ten hours) the card on file declined. */
async function declinedOvertime(request: APIRequestContext) {
  const cars = (await butlerCars(request)).filter((c) => c.butler_fee % 10_000 === 0);
  const car = cars[0];
  const user = await newUser(request, { points: car.butler_fee });
  const booked = await placeButler(request, user.token, { carIds: [car.id], point_amount: car.butler_fee, billing_key: await cardKey(request, 'decline', 'limit') });
  expect(booked.payment).toBeNull();
  await confirmButler(request, booked.id);
  // A trip is recorded only once it is over (its times passed): ten hours that ended a minute ago.
  const now = Date.now();
  const res = await request.post(`/api/admin/butler-requests/${booked.id}/trip`, {
    headers: ADMIN,
    data: { actual_start_at: new Date(now - 10 * 3_600_000).toISOString(), actual_end_at: new Date(now - 60_000).toISOString() },
  });
  expect(res.status()).toBe(200);
  const { overtime_amount: amount, payment } = (await res.json()).data as { overtime_amount: number; payment: { status: string; failure_reason: string } };
  expect(amount).toBeGreaterThan(0);
  expect(payment).toMatchObject({ status: 'FAILED', failure_reason: LIMIT });
  return { user, id: booked.id, amount };
}

test('a declined overtime: the booking detail shows it; another declining card says why; an approving card pays it (결제 완료)', async ({ page, request }) => {
  const { user, id, amount } = await declinedOvertime(request);
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${id}`);

  const owed = page.getByTestId('overtime-payment');
  await expect(owed).toContainText('초과 이용 요금 결제에 실패했습니다.');
  await expect(owed).toContainText(`초과 이용 요금 ${won(amount)}`);
  await expect(owed).toContainText(LIMIT);
  const payRow = page.getByRole('region', { name: '결제 정보' }).locator('dt', { hasText: /^운행 후 초과 이용 요금$/ }).locator('xpath=following-sibling::dd[1]');
  await expect(payRow).toHaveText(`${won(amount)} · 결제 실패`);

  // A new card that declines too: the card company's reason, and the way to another card stays.
  await owed.getByRole('button', { name: '카드 변경 후 결제' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await page.getByRole('radio', { name: /잔액 부족 카드/ }).check();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page).toHaveURL(new RegExp(`/butler/request/${id}/?$`));
  await expect(owed).toContainText('카드 결제가 거절되었습니다.');
  await expect(owed).toContainText('카드 잔액이 부족합니다.');

  // An approving card: paid at once.
  await owed.getByRole('button', { name: '카드 변경 후 결제' }).click();
  await page.getByRole('radio', { name: /승인 카드/ }).check();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page).toHaveURL(new RegExp(`/butler/request/${id}/?$`));
  await expect(page.getByTestId('payment-result')).toContainText(`결제 완료 · ${won(amount)}`);
  await expect(owed).toHaveCount(0);
  await expect(payRow).toHaveText(`${won(amount)} · 결제 완료`);

  // The ledger: the first charge and the declined new card failed, the approving one paid (once).
  const mine = (await apiAs(request, user.token, 'GET', `/butlers/requests/${id}`)).body.data.butler_request as ButlerRequestView;
  expect(mine.overtime_payment).toMatchObject({ id: `butler-${id}-overtime-r2`, status: 'PAID', amount });
  const payments = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { id: string; status: string }[];
  expect(payments.filter((p) => p.id.startsWith(`butler-${id}-overtime`)).map((p) => [p.id, p.status]).sort()).toEqual([
    [`butler-${id}-overtime`, 'FAILED'], [`butler-${id}-overtime-r1`, 'FAILED'], [`butler-${id}-overtime-r2`, 'PAID'],
  ]);
});
