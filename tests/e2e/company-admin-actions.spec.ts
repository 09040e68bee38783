import { randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { addDays, formatKoreaDateTime, todayInKorea } from '../../src/domain/dates';
import { splitVat } from '../../src/domain/vat';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { butlerCars } from './butler-users';
import { expect, test } from './fixtures';
import { businessNumber } from './company-fixtures';
import { apiAs, hydrated, loginAs, newUser, orderableCar, sandboxKey, waitForSite } from './users';
import { won } from '../../src/domain/money';

/**
 * A company admin's own actions on /my/company (issue 52): cancelling a pending subscription order
 * in the company's name (the company card's first charge refunded in full, said before the cancel
 * is sent), and changing a booker's trip (the new price with 공급가액 and 부가세 before saving, asked
 * once more when it changes). Desktop only: the rows are the same one column at 390 px.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

/** A company whose admin is its 대표자 (홍길동, the test users' 본인인증 name), so it books at once. */
async function company(request: APIRequestContext, admin: { token: string }, name: string) {
  const made = await apiAs(request, admin.token, 'POST', '/companies', {
    name, business_number: businessNumber('84'), ceo: '홍길동', opened_on: '2018-05-02', business_type: '서비스',
    business_item: '경영 컨설팅', address: '서울특별시 중구 세종대로 110', invoice_email: 'tax@example.com',
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.data.company.id as number;
}

/** A new customer who joined the company with `role` through the invite in the sandbox outbox. */
async function member(request: APIRequestContext, adminToken: string, companyId: number, role: 'DRIVER' | 'BOOKER') {
  const user = await newUser(request);
  const email = (await apiAs(request, user.token, 'GET', '/accounts')).body.data.email as string;
  expect((await apiAs(request, adminToken, 'POST', `/companies/${companyId}/invites`, { channel: 'email', email, role })).status).toBe(201);
  let code = '';
  await expect
    .poll(async () => {
      const messages = (await (await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(email)}`)).json()).data.messages as { event: string; text: string }[];
      code = /\/my\/company\/join\?code=([\w-]+)/.exec(messages.find((m) => m.event === 'company.invited')?.text ?? '')?.[1] ?? '';
      return code;
    }, { timeout: 30_000 })
    .not.toBe('');
  expect((await apiAs(request, user.token, 'POST', '/companies/invites/accept', { code })).status).toBe(200);
  return user;
}

test('an admin cancels a pending company subscription order, told the refund to the company card first', async ({ page, request }) => {
  const admin = await newUser(request);
  const companyId = await company(request, admin, `주식회사 취소테스트${randomInt(100, 999)}`);
  expect((await apiAs(request, admin.token, 'PUT', `/companies/${companyId}/card`, { billing_key: await sandboxKey(request) })).status).toBe(200);
  const driver = await member(request, admin.token, companyId, 'DRIVER');
  const car = await orderableCar(request);
  const order = await apiAs(request, admin.token, 'POST', `/subscriptions/cars/${car.id}/company-request`, { month: 12, company: { company_id: companyId, request_key: `e2e-cancel-${Date.now()}`, driver_user_id: driver.id } });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const placed = order.body.data.subscription_request as { id: number; payment: { status: string; amount: number } | null };
  expect(placed.payment?.status).toBe('PAID');
  const paid = placed.payment!.amount;
  expect(paid).toBeGreaterThan(0);

  await loginAs(page, admin.token);
  await page.goto('/my/company');
  await hydrated(page, 'CompanyPage');
  const row = page.getByTestId('company-subscription').filter({ hasText: `신청 #${placed.id}` });
  await expect(row.getByTestId('company-subscription-status')).toHaveText('확정 대기');

  // The first click asks, with the amount the company card gets back; nothing is sent yet.
  await row.getByRole('button', { name: '취소', exact: true }).click();
  const ask = row.getByTestId('company-subscription-cancel');
  await expect(ask.getByTestId('company-subscription-refund')).toHaveText(`회사 법인카드로 결제한 첫 결제 금액 ${won(paid)}을 전액 환불합니다. 취소 후에는 되돌릴 수 없습니다.`);
  expect((await apiAs(request, admin.token, 'GET', `/companies/${companyId}/subscriptions`)).body.data.subscriptions[0].request.status).toBe('PENDING');

  await ask.getByRole('button', { name: '취소 확정' }).click();
  await expect(row.getByTestId('company-subscription-status')).toHaveText('취소됨');
  await expect(row.getByRole('button', { name: '취소', exact: true })).toHaveCount(0);
  const after = (await apiAs(request, admin.token, 'GET', `/companies/${companyId}/subscriptions`)).body.data.subscriptions[0].request as { status: string; payment: { status: string } };
  expect(after.status).toBe('CANCELLED');
  expect(after.payment.status).toBe('CANCELLED');

  // Still cancelled after a reload, with no 취소 to click again.
  await page.reload();
  await hydrated(page, 'CompanyPage');
  await expect(row.getByTestId('company-subscription-status')).toHaveText('취소됨');
  await expect(row.getByRole('button', { name: '취소', exact: true })).toHaveCount(0);
});

test("an admin changes a booker's trip time, sees the new price as 공급가액 and 부가세, and the list shows the new time", async ({ page, request }) => {
  const admin = await newUser(request);
  const companyId = await company(request, admin, `주식회사 변경테스트${randomInt(100, 999)}`);
  expect((await request.put(`/api/admin/companies/${companyId}/billing`, { headers: ADMIN, data: { invoice_billing: true } })).status()).toBe(200);
  const booker = await member(request, admin.token, companyId, 'BOOKER');
  const cars = await butlerCars(request);
  let trip: { id: number; final_price: number } | null = null;
  let day = '';
  for (let i = 0; i < 40 && !trip; i++) {
    day = addDays(todayInKorea(new Date()), 20 + randomInt(0, 150));
    const res = await apiAs(request, booker.token, 'POST', `/butlers/cars/${cars[(i + 5) % cars.length].id}/company-request`, {
      start_at: `${day}T09:00:00+09:00`, end_at: `${day}T17:00:00+09:00`, start_location: '서울 중구 세종대로 110', end_location: '인천 중구 공항로 272', passenger_count: 1,
      company: { company_id: companyId, request_key: `e2e-change-${Date.now()}-${i}` },
    });
    if (res.status === 201) trip = res.body.data.butler_request;
    else expect(res.status, JSON.stringify(res.body)).toBe(409);
  }
  expect(trip).not.toBeNull();
  const before = trip!.final_price;

  await loginAs(page, admin.token);
  await page.goto('/my/company');
  await hydrated(page, 'CompanyPage');
  const row = page.getByTestId('company-trip').filter({ hasText: `#${trip!.id}` });
  await expect(row).toContainText(formatKoreaDateTime(`${day}T09:00:00+09:00`));
  await row.getByRole('button', { name: '예약 변경' }).click();

  // Picked up an hour later and kept three hours longer: overtime, so the price rises.
  const form = row.getByRole('form', { name: '요청 수정' });
  await form.getByLabel('출발 시간').fill(`${day}T10:00`);
  await form.getByLabel('도착 시간 (선택)').fill(`${day}T21:00`);
  const final = form.getByTestId('edit-price-final');
  await expect(final).not.toHaveText(won(before));
  const after = Number(((await final.textContent()) ?? '').replace(/[^\d]/g, ''));
  expect(after).toBeGreaterThan(before);
  const split = splitVat(after);
  await expect(form.getByTestId('edit-price-vat')).toHaveText(`(공급가액 ${won(split.supply)} · 부가세 ${won(split.vat)})`);
  await expect(form.getByTestId('edit-price-difference')).toHaveText(`변경된 금액 ${won(after)}이 회사 월 청구서에 청구됩니다. 카드로 결제되는 금액은 없습니다.`);

  // The price changes, so the save asks once more with both prices and the split.
  let question = '';
  page.once('dialog', (d) => {
    question = d.message();
    void d.accept();
  });
  await form.getByRole('button', { name: '저장하기' }).click();
  await expect(form).toHaveCount(0);
  expect(question).toContain(`결제 금액이 ${won(before)}에서 ${won(after)}으로 바뀝니다.`);
  expect(question).toContain(`(공급가액 ${won(split.supply)} · 부가세 ${won(split.vat)})`);

  await expect(row).toContainText(formatKoreaDateTime(`${day}T10:00:00+09:00`));
  await expect(row).toContainText(won(after));
  await expect(row.getByTestId('vat-split')).toHaveText(`(공급가액 ${won(split.supply)} · 부가세 ${won(split.vat)})`);
  const saved = (await apiAs(request, admin.token, 'GET', `/companies/${companyId}/trips`)).body.data.trips as { id: number; final_price: number; start_at: string }[];
  expect(saved.find((t) => t.id === trip!.id)?.final_price).toBe(after);
});
