import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect, test } from './fixtures';
import { companyOf, inviteCode } from './company-fixtures';
import { apiAs, hydrated, loginAs, newUser, orderableCar, waitForSite } from './users';

/**
 * 법인 장기 구독 (issue 52) at 390 and 1280 px: a subscription ordered in the company's name for a
 * member with the 운전자 role is listed on the admin's /my/company with its driver, and on the
 * driver's /my/subscriptions as the company's (paid by the company, without the driver's card
 * change or contract changes).
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

test('a subscription in the company name shows for its admin and its driver', { tag: '@both-viewports' }, async ({ page, request }) => {
  const admin = await newUser(request);
  const companyId = await companyOf(request, admin.token, { name: '주식회사 구독테스트' });
  expect((await request.put(`/api/admin/companies/${companyId}/billing`, { headers: ADMIN, data: { invoice_billing: true } })).status()).toBe(200);

  const driver = await newUser(request);
  const email = (await apiAs(request, driver.token, 'GET', '/accounts')).body.data.email as string;
  expect((await apiAs(request, admin.token, 'POST', `/companies/${companyId}/invites`, { channel: 'email', email, role: 'DRIVER' })).status).toBe(201);
  expect((await apiAs(request, driver.token, 'POST', '/companies/invites/accept', { code: await inviteCode(request, email) })).status).toBe(200);

  const car = await orderableCar(request);
  const order = await apiAs(request, admin.token, 'POST', `/subscriptions/cars/${car.id}/company-request`, { month: 12, company: { company_id: companyId, request_key: `e2e-sub-${Date.now()}`, driver_user_id: driver.id } });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const request_ = order.body.data.subscription_request as { id: number; requested_start: string };
  expect((await request.post(`/api/admin/subscription-requests/${request_.id}/confirm`, { headers: ADMIN, data: { start_date: request_.requested_start } })).status()).toBe(201);

  await loginAs(page, admin.token);
  await page.goto('/my/company');
  await hydrated(page, 'CompanyPage');
  const row = page.getByTestId('company-subscription').filter({ hasText: `신청 #${request_.id}` });
  await expect(row).toContainText('확정');
  await expect(row).toContainText('월 청구서');
  await expect(row).toContainText('1개월 청구');
  await expect(row.getByTestId('company-subscription-billing-note')).toContainText('반납 정산·초과 주행 요금은 회사 월 청구서로 청구되며');

  await loginAs(page, driver.token);
  await page.goto('/my/subscriptions');
  const item = page.getByTestId('subscription-item').first();
  await expect(item.getByTestId('subscription-company')).toContainText('법인 구독 · 주식회사 구독테스트 · 회사 월 청구서로 결제');
  await expect(item.getByTestId('subscription-company')).toContainText('반납 정산·초과 주행 요금은 회사 월 청구서로 청구되며');
  await expect(item.getByRole('button', { name: /해지/ })).toHaveCount(0);
});
