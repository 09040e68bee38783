import type { APIRequestContext } from '@playwright/test';
import { splitVat } from '../../src/domain/vat';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect, test } from './fixtures';
import { companyOf, inviteCode } from './company-fixtures';
import { apiAs, hydrated, loginAs, newUser, orderableCar, sandboxKey, waitForSite } from './users';

/**
 * 회사 명의로 구독 on the order page (issue 52): a company's admin orders a car in the company's
 * name for a member with the 운전자 role, sees that the company pays (후불: 월별 청구서) with the
 * monthly fee's 공급가액 and 부가세, sends it without the card window, and finds it on /my/company.
 * A 예약 담당자 (booker) of the same company is never offered the company order.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

/** A new customer who joined the company with `role`; their name as the members list shows it. */
async function member(request: APIRequestContext, adminToken: string, companyId: number, role: 'DRIVER' | 'BOOKER') {
  const user = await newUser(request);
  const account = (await apiAs(request, user.token, 'GET', '/accounts')).body.data as { email: string; name: string | null; username: string };
  expect((await apiAs(request, adminToken, 'POST', `/companies/${companyId}/invites`, { channel: 'email', email: account.email, role })).status).toBe(201);
  expect((await apiAs(request, user.token, 'POST', '/companies/invites/accept', { code: await inviteCode(request, account.email) })).status).toBe(200);
  return { ...user, email: account.email };
}

test('an admin orders a car in the company name for a driver; a booker is not offered it', async ({ page, request }) => {
  const admin = await newUser(request);
  const companyId = await companyOf(request, admin.token, { name: '주식회사 주문테스트' });
  expect((await request.put(`/api/admin/companies/${companyId}/billing`, { headers: ADMIN, data: { invoice_billing: true } })).status()).toBe(200);
  const driver = await member(request, admin.token, companyId, 'DRIVER');
  const booker = await member(request, admin.token, companyId, 'BOOKER');
  const car = await orderableCar(request);

  // The booker orders for themselves only: no company choice on the page.
  await loginAs(page, booker.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await hydrated(page, 'OrderPage');
  await expect(page.getByRole('heading', { name: '쿠폰 적용' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '회사 명의로 구독' })).toHaveCount(0);
  await expect(page.getByLabel('구독 주체')).toHaveCount(0);

  await loginAs(page, admin.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await hydrated(page, 'OrderPage');
  await page.getByLabel('구독 주체').selectOption({ label: '주식회사 주문테스트' });
  // No coupon or points for a company; the company pays on its monthly statement.
  await expect(page.getByRole('heading', { name: '쿠폰 적용' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: '포인트 사용' })).toHaveCount(0);
  await expect(page.getByTestId('company-payment')).toHaveText('후불: 월별 청구서');
  const driverSelect = page.getByLabel('운전자', { exact: true });
  await expect(driverSelect.locator('option')).toHaveCount(2); // the placeholder and the one driver: the booker is not a driver
  await driverSelect.selectOption({ index: 1 });
  await expect(driverSelect.locator('option:checked')).toContainText(driver.email);

  // 2회차부터 매월: the monthly fee with the options (its first amount).
  const monthly = Number(/([\d,]+)원/.exec(await page.getByTestId('later-monthly').innerText())![1].replace(/,/g, ''));
  const vat = splitVat(monthly);
  const split = page.getByTestId('company-vat');
  await expect(split).toContainText(`월 구독료${monthly.toLocaleString('ko-KR')}원`);
  await expect(split).toContainText(`공급가액${vat.supply.toLocaleString('ko-KR')}원`);
  await expect(split).toContainText(`부가세${vat.vat.toLocaleString('ko-KR')}원`);
  expect(vat.supply + vat.vat).toBe(monthly);

  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  const summary = page.getByRole('dialog', { name: '주문 확인' });
  await expect(summary.getByTestId('summary-company')).toContainText('주식회사 주문테스트 명의로 구독합니다');
  await summary.getByRole('button', { name: '회사 명의로 신청' }).click();
  const done = page.getByRole('dialog', { name: '회사 명의 구독 신청 완료' });
  await expect(done).toContainText('주식회사 주문테스트 명의로 구독 신청');
  await expect(done).toContainText('결제 방법 후불: 월별 청구서');
  const requestId = /신청 #(\d+)/.exec(await done.innerText())?.[1];
  expect(requestId).toBeTruthy();

  // The order is the company's, with the driver as its user; nothing was charged to a card.
  const listed = await apiAs(request, admin.token, 'GET', `/companies/${companyId}/subscriptions`);
  expect(listed.body.data.subscriptions).toHaveLength(1);
  expect(listed.body.data.subscriptions[0].driver.user_id).toBe(driver.id);

  await done.getByRole('link', { name: '회사 관리로 이동' }).click();
  await expect(page).toHaveURL(/\/my\/company/);
  await hydrated(page, 'CompanyPage');
  const row = page.getByTestId('company-subscription').filter({ hasText: `신청 #${requestId}` });
  await expect(row).toContainText('확정 대기');
  await expect(row).toContainText('월 청구서');
});

test('a company card order whose answer was lost is sent again as the same order', async ({ page, request }) => {
  const admin = await newUser(request);
  const companyId = await companyOf(request, admin.token, { name: '주식회사 카드테스트', business_type: '제조', business_item: '전자부품', address: '서울특별시 강남구 테헤란로 1' });
  expect((await apiAs(request, admin.token, 'PUT', `/companies/${companyId}/card`, { billing_key: await sandboxKey(request) })).status).toBe(200);
  await member(request, admin.token, companyId, 'DRIVER');
  const car = await orderableCar(request);

  await loginAs(page, admin.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await hydrated(page, 'OrderPage');
  await page.getByLabel('구독 주체').selectOption({ label: '주식회사 카드테스트' });
  await expect(page.getByTestId('company-payment')).toHaveText(/^회사 카드 .*···· \d{4}$/);
  await page.getByLabel('운전자', { exact: true }).selectOption({ index: 1 });
  await page.getByLabel('전체 동의').check();

  // The first answer is lost on the way back (the server took the order): the page says so.
  let posts = 0;
  await page.route('**/api/subscriptions/cars/*/company-request', async (route) => {
    posts += 1;
    if (posts === 1) {
      await route.fetch();
      await route.abort();
    } else await route.continue();
  });
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '회사 명의로 신청' }).click();
  const unsure = page.getByTestId('company-order-unsure');
  await expect(unsure).toContainText('신청 결과를 아직 확인하지 못했습니다.');
  await expect(page.getByRole('button', { name: '신청하기' })).toBeDisabled();

  // Sent again from the same form: the same key, so the first order comes back and the card is charged once.
  await unsure.getByRole('button', { name: '다시 시도' }).click();
  const done = page.getByRole('dialog', { name: '회사 명의 구독 신청 완료' });
  await expect(done).toContainText('주식회사 카드테스트 명의로 구독 신청');
  await expect(done).toContainText(/결제 방법 회사 카드 .*···· \d{4}/);
  expect(posts).toBe(2);
  const listed = await apiAs(request, admin.token, 'GET', `/companies/${companyId}/subscriptions`);
  expect(listed.body.data.subscriptions).toHaveLength(1);
  expect(await done.innerText()).toContain(`신청 #${listed.body.data.subscriptions[0].request.id}`);
});
