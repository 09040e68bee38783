import { expect, test } from './fixtures';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { apiAs, confirm, loginAs, newStaff, newUser, orderableCar, sandboxKey, waitForSite } from './users';
import type { APIRequestContext } from '@playwright/test';

/**
 * A monthly charge that fails, without the test clock: the clock is global to the e2e server
 * every spec shares, so moving it would shift "now" under tests running in parallel. A
 * subscription confirmed with a start in the past is due already; the job queue runs a due month
 * (and every retry whose day has passed) at once, so a start far enough back lands on PAST_DUE
 * (a retry still ahead) or OVERDUE (all three retries behind) on the real clock.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

/** A sandbox billing key for a test card, as the card page's approve button hands it back. */
async function cardKey(request: APIRequestContext, charges: 'approve' | 'insufficient') {
  const res = await request.post('/api/sandbox/billing-key/approve', { form: { redirectUrl: '/inquire', charges }, maxRedirects: 0 });
  const key = new URL(res.headers()['location'] ?? '', 'http://localhost').searchParams.get('billingKey');
  if (!key) throw new Error(`sandbox: ${res.status()}`);
  return key;
}

/** The same day a month earlier (YYYY-MM-DD); the caller keeps the day at 28 or less. */
function monthBefore(date: string) {
  const [y, m, d] = date.split('-').map(Number);
  return m === 1 ? `${y - 1}-12-${String(d).padStart(2, '0')}` : `${y}-${String(m - 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A start date whose month-2 charge fell `daysAgo` (or the first of `alternatives`) days before
 * today in Korea, picking a due day of the 28th or earlier so the month back exists.
 */
function startWithSecondMonthDue(candidates: number[]) {
  const today = todayInKorea(new Date());
  for (const k of candidates) {
    const due = addDays(today, -k);
    if (Number(due.slice(8)) <= 28) return { start: monthBefore(due), due };
  }
  throw new Error('no start date');
}

/**
 * A confirmed 12-month subscription of a fresh customer: the first month paid with an approving
 * card, then (while the request is pending) the card swapped for one with insufficient funds,
 * so the monthly charges decline. Billing runs until the subscription reaches `until`.
 */
async function failingSubscription(request: APIRequestContext, until: 'PAST_DUE' | 'OVERDUE', daysAgo: number[]) {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const order = await apiAs(request, user.token, 'POST', `/subscriptions/cars/${car.id}/request`, { month: 12, billing_key: await sandboxKey(request) });
  expect(order.status).toBe(201);
  const requestId = order.body.data.subscription_request.id as number;
  const swap = await apiAs(request, user.token, 'PUT', `/subscriptions/requests/${requestId}`, { month: 12, coupon_id: null, point_amount: 0, billing_key: await cardKey(request, 'insufficient') });
  expect(swap.status).toBe(200);
  const { start, due } = startWithSecondMonthDue(daysAgo);
  await confirm(request, requestId, start);
  const billingOf = async () => {
    const list = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; billing: { status: string; retry_date: string | null } }[];
    return list[0];
  };
  // The server's own job loop may run the charges first; a run on demand makes it prompt.
  await expect
    .poll(async () => {
      const run = await request.post('/api/admin/billing/run', { headers: ADMIN });
      expect(run.status()).toBe(200);
      return (await billingOf())?.billing.status;
    }, { timeout: 30_000 })
    .toBe(until);
  const sub = await billingOf();
  return { car, user, requestId, subscriptionId: sub.id, due, retryDate: sub.billing.retry_date };
}

test.describe('a failed monthly charge', () => {
  test('my page shows the failure and the next try; 카드 변경 후 결제 with an approving card pays it and billing is back to normal', async ({ page, request }) => {
    // Due 2 days ago: the charge and the day +1 retry have failed, the day +3 retry is tomorrow
    // (or, with the due day moved off the 29th–31st, 4–6 days ago: the day +7 retry is ahead).
    const { car, user, subscriptionId, due, retryDate } = await failingSubscription(request, 'PAST_DUE', [2, 4, 5, 6]);
    expect(retryDate! > todayInKorea(new Date())).toBe(true);
    await loginAs(page, user.token);
    await page.goto('/my/subscriptions');
    const item = page.getByTestId('subscription-item');
    await expect(item).toHaveCount(1);
    const failed = item.getByRole('alert');
    await expect(failed).toContainText('월 구독료 결제에 실패했습니다.');
    await expect(failed).toContainText('잔액');
    await expect(failed).toContainText(`${retryDate}에 다시 결제를 시도합니다.`);
    await expect(item).not.toContainText('다음 결제');

    await failed.getByRole('button', { name: '카드 변경 후 결제' }).click();
    await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
    await page.getByRole('radio', { name: /승인 카드/ }).check();
    await page.getByRole('button', { name: /승인/ }).click();

    await expect(page).toHaveURL(/\/my\/subscriptions\/?$/);
    const done = item.getByTestId('payment-result');
    await expect(done).toContainText(`결제 완료 · ${car.fee.toLocaleString('ko-KR')}원`);
    // Month 2 paid: the failure is gone and month 3 is next, a month after month 2's day, at the monthly fee.
    const [y, m] = due.split('-').map(Number);
    const nextDue = m === 12 ? `${y + 1}-01-${due.slice(8)}` : `${y}-${String(m + 1).padStart(2, '0')}-${due.slice(8)}`;
    await expect(item.getByTestId('subscription-billing')).toContainText(`다음 결제 ${nextDue} · ${car.fee.toLocaleString('ko-KR')}원`);
    await expect(item.getByRole('alert')).toHaveCount(0);

    const mine = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions[0];
    expect(mine).toMatchObject({ id: subscriptionId, billing: { status: 'ACTIVE', paid_months: 2, next_charge_date: nextDue } });
    // The ledger: the declined attempts and the paid one.
    const payments = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { id: string; status: string }[];
    expect(payments.filter((p) => p.id.startsWith(`sub-${subscriptionId}-m2`)).map((p) => p.status).sort()).toEqual(expect.arrayContaining(['FAILED', 'PAID']));
  });

  test('the request detail labels the discounted first month apart from the monthly fee', async ({ page, request }) => {
    const car = await orderableCar(request);
    const user = await newUser(request, { points: 20_000 });
    const order = await apiAs(request, user.token, 'POST', `/subscriptions/cars/${car.id}/request`, { month: 12, point_amount: 20_000, billing_key: await sandboxKey(request) });
    expect(order.status).toBe(201);
    await loginAs(page, user.token);
    await page.goto(`/subscribe/request/${order.body.data.subscription_request.id}`);
    const fields = page.getByTestId('request-fields');
    const value = (label: string) => fields.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
    await expect(value('월 구독료')).toHaveText(`${car.fee.toLocaleString('ko-KR')}원`);
    await expect(value('첫 결제 금액')).toHaveText(`${(car.fee - 20_000).toLocaleString('ko-KR')}원`);
    await expect(fields).not.toContainText('월 결제 금액');
  });
});

test.describe('the staff console payments tab', () => {
  test('status and date filters narrow the list; the overdue list shows an OVERDUE subscription and 지금 재시도 charges it', async ({ page, request }) => {
    // Due 8+ days ago: the charge and its retries on days +1, +3 and +7 have all failed.
    const { user, subscriptionId, car } = await failingSubscription(request, 'OVERDUE', [8, 9, 10, 11]);
    const staff = await newStaff(request);
    await loginAs(page, staff.access_token);
    await page.goto('/admin#payments');

    const overdue = page.getByTestId('overdue-list').getByRole('listitem').filter({ hasText: `구독 #${subscriptionId}` });
    await expect(overdue).toContainText(`연체 · 2개월 차 ${car.fee.toLocaleString('ko-KR')}원`);
    await expect(overdue).toContainText('실패 4회');
    await expect(overdue).not.toContainText('다음 시도');

    // The status filter: only failed payments, ours among them; only paid ones, ours absent.
    const list = page.getByTestId('payments-list');
    const rows = list.getByRole('listitem');
    const failedRow = rows.filter({ hasText: `sub-${subscriptionId}-m2-r3` });
    await page.getByLabel('결제 상태').selectOption('FAILED');
    await expect(failedRow).toContainText('결제 실패');
    await expect(rows.filter({ hasNotText: '결제 실패' })).toHaveCount(0);
    await page.getByLabel('결제 상태').selectOption('PAID');
    await expect(rows.first()).toBeVisible();
    await expect(rows.filter({ hasNotText: '결제 완료' })).toHaveCount(0);
    await expect(failedRow).toHaveCount(0);

    // The date filters: a day long before any payment empties the list; today brings ours back.
    await page.getByLabel('결제 상태').selectOption('FAILED');
    await page.getByLabel('시작일').fill('2020-01-01');
    await page.getByLabel('종료일').fill('2020-01-31');
    await expect(page.getByText('결제 내역이 없습니다.')).toBeVisible();
    await expect(rows).toHaveCount(0);
    await page.getByLabel('시작일').fill(todayInKorea(new Date()));
    await page.getByLabel('종료일').fill(todayInKorea(new Date()));
    await expect(failedRow).toBeVisible();

    // 지금 재시도 charges the card on file now: it still declines, so the console says why and the failure count grows.
    await overdue.getByRole('button', { name: '지금 재시도' }).click();
    await expect(page.getByRole('status')).toContainText(`구독 #${subscriptionId}: `);
    await expect(page.getByRole('status')).toContainText('잔액');
    await expect(overdue).toContainText('실패 5회');
    await expect(rows.filter({ hasText: `sub-${subscriptionId}-m2-r4` })).toContainText('결제 실패');

    // The customer registers an approving card and pays (my page's 카드 변경 후 결제): the subscription leaves the list.
    const paid = await apiAs(request, user.token, 'POST', `/subscriptions/${subscriptionId}/pay`, { billing_key: await cardKey(request, 'approve') });
    expect(paid.body.data.payment).toMatchObject({ status: 'PAID', amount: car.fee });
    await page.getByLabel('결제 상태').selectOption('PAID');
    await expect(rows.filter({ hasText: `sub-${subscriptionId}-m2-r5` })).toContainText('결제 완료');
    await expect(overdue).toHaveCount(0);
  });

  test('the payments list pages with 이전 and 다음, and a failed page offers 다시 시도', async ({ page, request }) => {
    // More than a page (20) of payments today: each order is one charge. 21 sign-ups and orders
    // one after another (they share a car) take longer than most tests.
    test.slow();
    const car = await orderableCar(request);
    const users = await Promise.all(Array.from({ length: 21 }, () => newUser(request)));
    for (const user of users) {
      const order = await apiAs(request, user.token, 'POST', `/subscriptions/cars/${car.id}/request`, { month: 12, billing_key: await sandboxKey(request) });
      expect(order.status).toBe(201);
      // One plate (issue 38): the customer cancels, which releases the car for the next order; the charge stays listed.
      expect((await apiAs(request, user.token, 'DELETE', `/subscriptions/requests/${order.body.data.subscription_request.id}`)).status).toBe(200);
    }
    const staff = await newStaff(request);
    await loginAs(page, staff.access_token);
    // The first page's answer, however long a loaded server takes (other specs' builds and jobs share it): then 20 rows at once.
    // Each page's answer is awaited the same way below: a loaded CI server has taken over 10 s for page 2.
    const answered = (pattern: RegExp) => page.waitForResponse((r) => pattern.test(r.url()) && r.ok(), { timeout: test.info().timeout });
    const firstPage = answered(/\/admin\/payments\?/);
    await page.goto('/admin#payments');
    await firstPage;
    const rows = page.getByTestId('payments-list').getByRole('listitem');
    await expect(rows).toHaveCount(20);
    const pageLabel = page.getByRole('navigation', { name: '결제 내역 페이지' }).getByTestId('page-nav-position');
    await expect(pageLabel).toHaveText(/^1 \/ \d+ 페이지$/);
    await expect(page.getByRole('button', { name: '이전' })).toBeDisabled();
    const firstIds = await rows.locator('p.font-semibold').allTextContents();
    // Page 2's first answer fails (a database timeout, say): the list says so and offers 다시 시도, never an endless 불러오는 중.
    await page.route(/\/admin\/payments\?.*page=2/, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 50300, message: '잠시 후 다시 시도해주세요.', errors: {} }) }), { times: 1 });
    await page.getByRole('button', { name: '다음' }).click();
    await expect(pageLabel).toHaveText(/^2 \/ \d+ 페이지$/);
    const failed = page.getByTestId('page-load-failed');
    await expect(failed).toContainText('목록을 불러오지 못했습니다. 잠시 후 다시 시도해주세요.');
    await expect(page.getByText('불러오는 중…')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '이전' })).toBeEnabled();
    const secondPage = answered(/\/admin\/payments\?.*page=2/);
    await failed.getByRole('button', { name: '다시 시도' }).click();
    await expect(failed).toHaveCount(0);
    await secondPage;
    await expect(rows.first()).toBeVisible();
    const secondIds = await rows.locator('p.font-semibold').allTextContents();
    // Page 2 holds older payments than page 1 (a charge another test makes meanwhile may push a row over the edge, so not "none shared").
    expect(secondIds.length).toBeGreaterThan(0);
    expect(secondIds.filter((t) => !firstIds.includes(t)).length).toBeGreaterThan(0);
    const backToFirst = answered(/\/admin\/payments\?.*page=1/);
    await page.getByRole('button', { name: '이전' }).click();
    await expect(pageLabel).toHaveText(/^1 \/ \d+ 페이지$/);
    await backToFirst;
    // A filter starts again from page 1.
    const secondAgain = answered(/\/admin\/payments\?.*page=2/);
    await page.getByRole('button', { name: '다음' }).click();
    await expect(pageLabel).toHaveText(/^2 \/ /);
    await secondAgain;
    // This test's own 21 charges were all refunded (CANCELLED), so that filter has two pages whatever other specs left.
    const filtered = answered(/\/admin\/payments\?.*status=CANCELLED/);
    await page.getByLabel('결제 상태').selectOption('CANCELLED');
    await expect(pageLabel).toHaveText(/^1 \/ /);
    await filtered;
    await expect(rows).toHaveCount(20);
  });
});
