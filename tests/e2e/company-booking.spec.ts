import { randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { ButlerCar } from '../../src/domain/butler';
import { prefillToSearch } from '../../src/domain/butler-prefill';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { splitVat } from '../../src/domain/vat';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { butlerCars } from './butler-users';
import { expect, test } from './fixtures';
import { businessNumber, inviteCode } from './company-fixtures';
import { apiAs, hydrated, loginAs, newUser, waitForSite } from './users';
import { won } from '../../src/domain/money';

/**
 * The booking form's company option (issue 52), at 1280 and 390 px (the company fields sit in one
 * row on a desktop, stacked on a phone): a company's 예약 담당자 books a trip for a guest with a
 * cost centre, sees the price as 공급가액 and 부가세 (no coupon or points for a company), and the
 * trip appears in the company's list with the guest, the cost centre and the same split.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

/** A company on 후불 whose admin (the 대표자 홍길동, the test users' 본인인증 name) invited `booker` as 예약 담당자. */
async function companyWithBooker(request: APIRequestContext, booker: { token: string }) {
  const admin = await newUser(request);
  const made = await apiAs(request, admin.token, 'POST', '/companies', {
    name: `주식회사 예약테스트${randomInt(100, 999)}`, business_number: businessNumber('82'), ceo: '홍길동', opened_on: '2018-05-02', business_type: '서비스',
    business_item: '경영 컨설팅', address: '서울특별시 중구 세종대로 110', invoice_email: 'tax@example.com',
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const company = made.body.data.company as { id: number; name: string };
  expect((await request.put(`/api/admin/companies/${company.id}/billing`, { headers: ADMIN, data: { invoice_billing: true } })).status()).toBe(200);
  const email = (await apiAs(request, booker.token, 'GET', '/accounts')).body.data.email as string;
  expect((await apiAs(request, admin.token, 'POST', `/companies/${company.id}/invites`, { channel: 'email', email, role: 'BOOKER' })).status).toBe(201);
  const code = await inviteCode(request, email);
  expect((await apiAs(request, booker.token, 'POST', '/companies/invites/accept', { code })).status).toBe(200);
  return company;
}

/** A day 30–170 days ahead that the car has free. */
function freeDay(car: ButlerCar): string {
  let day = addDays(todayInKorea(new Date()), 30 + randomInt(0, 140));
  while (car.butler_reservated_dates.includes(day)) day = addDays(day, 1);
  return day;
}

test('a booker books a guest trip for the company from the form, sees 공급가액 and 부가세, and finds it in the company list', { tag: '@both-viewports' }, async ({ page, request, isMobile }) => {
  const booker = await newUser(request, { points: 50_000, coupons: ['BUTLER50'] });
  const company = await companyWithBooker(request, booker);
  const cars = await butlerCars(request);
  const car = cars[(isMobile ? 3 : 2) % cars.length];
  const day = freeDay(car);

  await loginAs(page, booker.token);
  await page.goto(`/butler/request?${prefillToSearch({ carId: car.id, date: day, time: '09:00', origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272', waypoints: [], passengers: 1, purpose: '고객 의전', memo: '' })}`);
  await hydrated(page, 'ReservationForm');
  await expect(page.getByLabel('출발 시간')).toHaveValue(`${day}T09:00`);

  // A private booking shows coupons and points and no VAT lines; the company option drops both and splits the price.
  await expect(page.getByTestId('fee-supply')).toHaveCount(0);
  const section = page.getByRole('region', { name: '회사 이름으로 예약' });
  await section.getByLabel('예약 주체').selectOption({ label: `${company.name} (월 청구서)` });
  await section.getByLabel('탑승자 이름 (선택)').fill('이손님');
  await section.getByLabel('탑승자 휴대폰 (선택)').fill('010-2222-3333');
  await section.getByLabel('비용 부서 (선택)').fill('영업1팀');
  await expect(page.getByTestId('company-no-coupons')).toBeVisible();
  const finalText = (await page.getByTestId('fee-final').textContent()) ?? '';
  const total = Number(finalText.replace(/[^\d]/g, ''));
  expect(total).toBeGreaterThan(0);
  const split = splitVat(total);
  await expect(page.getByTestId('fee-supply')).toHaveText(won(split.supply));
  await expect(page.getByTestId('fee-vat')).toHaveText(won(split.vat));
  await expect(page.getByTestId('fee-coupon')).toHaveCount(0);
  if (isMobile) {
    // Stacked on a phone: the three company fields one under another, each the section's width.
    const name = await section.getByLabel('탑승자 이름 (선택)').boundingBox();
    const phone = await section.getByLabel('탑승자 휴대폰 (선택)').boundingBox();
    expect(phone!.y).toBeGreaterThan(name!.y + name!.height - 1);
  }

  await page.getByRole('button', { name: '예약 요청하기' }).click();
  const dialog = page.getByRole('dialog', { name: '정기결제(카드 등록)' });
  await expect(dialog.getByTestId('dialog-company')).toContainText(won(total));
  await expect(dialog.getByTestId('dialog-vat')).toHaveText(`(공급가액 ${won(split.supply)} · 부가세 ${won(split.vat)})`);
  await dialog.getByRole('button', { name: '동의하고 진행' }).click();

  await expect(page).toHaveURL(/\/my\/company$/);
  await hydrated(page, 'CompanyPage');
  const trips = (await apiAs(request, booker.token, 'GET', `/companies/${company.id}/trips`)).body.data.trips as { id: number; final_price: number }[];
  expect(trips).toHaveLength(1);
  expect(trips[0].final_price).toBe(total);
  const trip = page.getByTestId('company-trip').filter({ hasText: `#${trips[0].id}` });
  await expect(trip).toContainText('탑승자 이손님');
  await expect(trip).toContainText('비용 부서 영업1팀');
  await expect(trip).toContainText('월 청구서');
  await expect(trip.getByTestId('vat-split')).toHaveText(`(공급가액 ${won(split.supply)} · 부가세 ${won(split.vat)})`);

  // The booker's own trip page splits the price the same way and names who pays.
  await page.goto(`/butler/request/${trips[0].id}`);
  const payment = page.getByRole('region', { name: '결제 정보' });
  await expect(payment).toContainText(`공급가액${won(split.supply)}`);
  await expect(payment).toContainText(`부가세${won(split.vat)}`);
  await expect(payment).toContainText(`결제 수단${company.name} 월 청구서`);
});
