import { randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { butlerCars } from './butler-users';
import { expect, test } from './fixtures';
import { businessNumber, inviteLink } from './company-fixtures';
import { apiAs, hydrated, loginAs, newUser, waitForSite } from './users';

/**
 * 법인 계정 (issue 52) on /my/company, at the project's width (390 and 1280 px): a customer
 * creates a company, invites an employee by email, the employee accepts the link in a second
 * browser context and sees the company as 예약 담당자; a trip booked for a guest shows on the
 * company's list with the guest and cost centre.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

async function emailOf(request: APIRequestContext, token: string): Promise<string> {
  return (await apiAs(request, token, 'GET', '/accounts')).body.data.email as string;
}

test('a company is created, an employee invited and accepted, and a guest trip listed', { tag: '@both-viewports' }, async ({ page, browser, request, baseURL }) => {
  const admin = await newUser(request);
  await loginAs(page, admin.token);
  await page.goto('/my/company');
  await hydrated(page, 'CompanyPage');
  const number = businessNumber();
  await page.getByLabel('상호').fill('주식회사 럭스테스트');
  await page.getByLabel('사업자등록번호').fill(`${number.slice(0, 3)}-${number.slice(3, 5)}-${number.slice(5)}`);
  // The test user's 본인인증 name is 홍길동: the creator is the 대표자, so the company books at once.
  await page.getByLabel('대표자성명').fill('홍길동');
  await page.getByLabel('개업일자').fill('2018-05-02');
  await page.getByLabel('업태').fill('서비스');
  await page.getByLabel('종목').fill('경영 컨설팅');
  await page.getByLabel('사업장 주소').fill('서울특별시 강남구 테헤란로 1');
  await page.getByLabel('세금계산서 수신 이메일').fill('tax@example.com');
  await page.getByRole('button', { name: '법인 계정 만들기' }).click();
  await expect(page.getByRole('heading', { name: '주식회사 럭스테스트' })).toBeVisible();
  await expect(page.getByText('내 역할 관리자')).toBeVisible();
  await expect(page.getByTestId('company-card')).toContainText('법인카드 미등록');

  const employee = await newUser(request);
  const email = await emailOf(request, employee.token);
  await page.getByLabel('초대할 이메일').fill(email);
  await page.getByLabel('초대 역할').selectOption('BOOKER');
  await page.getByRole('button', { name: '초대 보내기' }).click();
  await expect(page.getByRole('status')).toContainText(`${email}(으)로 초대를 보냈습니다`);

  const link = await inviteLink(request, email);
  const second = await browser.newContext({ baseURL, viewport: page.viewportSize() ?? undefined, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  await second.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
  try {
    const other = await second.newPage();
    await loginAs(other, employee.token);
    await other.goto(link);
    await hydrated(other, 'CompanyJoin');
    await expect(other.getByText('주식회사 럭스테스트')).toBeVisible();
    await other.getByRole('button', { name: '초대 수락' }).click();
    await expect(other).toHaveURL(/\/my\/company$/);
    await expect(other.getByText('내 역할 예약 담당자')).toBeVisible();
  } finally {
    await second.close();
  }
  await page.reload();
  await expect(page.getByTestId('company-member')).toHaveCount(2);

  // The company pays 후불 (staff's switch); a trip for a guest, as the booking form sends it.
  const companyId = (await apiAs(request, admin.token, 'GET', '/companies')).body.data.companies[0].company.id as number;
  expect((await request.put(`/api/admin/companies/${companyId}/billing`, { headers: ADMIN, data: { invoice_billing: true } })).status()).toBe(200);
  const cars = await butlerCars(request);
  let booked = 0;
  for (let i = 0; i < 40 && !booked; i++) {
    const day = addDays(todayInKorea(new Date()), 20 + randomInt(0, 150));
    const res = await apiAs(request, employee.token, 'POST', `/butlers/cars/${cars[i % cars.length].id}/company-request`, {
      start_at: `${day}T09:00:00+09:00`, end_at: `${day}T17:00:00+09:00`, start_location: '서울 중구 세종대로 110', end_location: '인천 중구 공항로 272', passenger_count: 1,
      company: { company_id: companyId, request_key: `e2e-${Date.now()}-${i}`, guest_name: '이손님', guest_phone: '010-2222-3333', cost_centre: '영업1팀' },
    });
    if (res.status === 201) booked = res.body.data.butler_request.id;
    else expect(res.status, JSON.stringify(res.body)).toBe(409);
  }
  expect(booked).toBeGreaterThan(0);
  await page.reload();
  const trip = page.getByTestId('company-trip').filter({ hasText: `#${booked}` });
  await expect(trip).toContainText('탑승자 이손님');
  await expect(trip).toContainText('비용 부서 영업1팀');
  await expect(trip).toContainText('월 청구서');
});
