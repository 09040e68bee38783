import { randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { butlerCars } from './butler-users';
import { expect, test } from './fixtures';
import { businessNumber } from './company-fixtures';
import { apiAs, hydrated, newUser, waitForSite } from './users';

/**
 * A company trip's passenger (issue 52) opens the link in their 알림톡 without an account and sees
 * the trip and its messages, with no one's phone number; a forged link says so. On their phone
 * they reply, and the booker's thread has the message.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

/** A company trip with a guest, confirmed (and, with `driver`, assigned to a roster driver), and the link in the guest's 알림톡. */
async function guestTrip(request: APIRequestContext, { driver = false } = {}) {
  const admin = await newUser(request);
  const made = await apiAs(request, admin.token, 'POST', '/companies', {
    name: '주식회사 손님테스트', business_number: businessNumber('83'), ceo: '홍길동', opened_on: '2018-05-02', business_type: '서비스',
    business_item: '경영 컨설팅', address: '서울특별시 중구 세종대로 110', invoice_email: 'tax@example.com',
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const companyId = made.body.data.company.id as number;
  expect((await request.put(`/api/admin/companies/${companyId}/billing`, { headers: ADMIN, data: { invoice_billing: true } })).status()).toBe(200);
  const guestPhone = `010${randomInt(10_000_000, 99_999_999)}`;
  const cars = await butlerCars(request);
  let id = 0;
  for (let i = 0; i < 40 && !id; i++) {
    const day = addDays(todayInKorea(new Date()), 20 + randomInt(0, 150));
    const res = await apiAs(request, admin.token, 'POST', `/butlers/cars/${cars[i % cars.length].id}/company-request`, {
      start_at: `${day}T09:00:00+09:00`, end_at: `${day}T17:00:00+09:00`, start_location: '서울 중구 세종대로 110', end_location: '인천 중구 공항로 272', passenger_count: 1,
      company: { company_id: companyId, request_key: `e2e-guest-${Date.now()}-${i}`, guest_name: '이손님', guest_phone: guestPhone },
    });
    if (res.status === 201) id = res.body.data.butler_request.id;
    else expect(res.status, JSON.stringify(res.body)).toBe(409);
  }
  expect((await request.post(`/api/admin/butler-requests/${id}/confirm`, { headers: ADMIN })).ok()).toBe(true);
  if (driver) {
    const roster = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name: `손님기사${randomInt(100, 999)}`, phone: `010${randomInt(10_000_000, 99_999_999)}`, gender: 'male' } });
    expect(roster.status()).toBe(201);
    const assigned = await request.post(`/api/admin/butler-requests/${id}/assign`, { headers: ADMIN, data: { driver_id: (await roster.json()).data.driver.id } });
    expect(assigned.status(), await assigned.text()).toBe(200);
  }
  let link = '';
  await expect
    .poll(async () => {
      const messages = (await (await request.get(`/api/sandbox/outbox?to=${guestPhone}`)).json()).data.messages as { event: string; text: string }[];
      link = /\/butler\/guest\?t=[\w.%-]+/.exec(messages.find((m) => m.event === 'butler.confirmed')?.text ?? '')?.[0] ?? '';
      return link;
    }, { timeout: 30_000 })
    .not.toBe('');

  return { admin, id, guestPhone, link };
}

test("the guest's link shows the trip and its thread without a login", async ({ page, request }) => {
  const { guestPhone, link } = await guestTrip(request);
  await page.goto(link);
  await hydrated(page, 'GuestThread');
  await expect(page.getByRole('heading', { name: '이손님님의 의전 일정' })).toBeVisible();
  await expect(page.getByText('서울 중구 세종대로 110 → 인천 중구 공항로 272')).toBeVisible();
  await expect(page.getByText('아직 메시지가 없습니다.')).toBeVisible();
  await expect(page.locator('main')).not.toContainText(guestPhone);

  await page.goto('/butler/guest?t=1.forged');
  await hydrated(page, 'GuestThread');
  await expect(page.getByRole('alert')).toContainText('링크가 올바르지 않거나 만료되었습니다.');
});

test('the guest replies on their phone; the booker reads it in the booking’s thread', { tag: '@phone' }, async ({ page, request }) => {
  const { admin, id, guestPhone, link } = await guestTrip(request, { driver: true });
  await page.goto(link);
  await hydrated(page, 'GuestThread');
  const field = page.getByLabel('기사님과 예약하신 분께 보낼 메시지');
  const send = page.getByRole('button', { name: '보내기' });
  // A thumb's reach: the button is at least 44 px tall and the page does not scroll sideways.
  const box = await send.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await send.click();
  await expect(page.getByRole('alert')).toHaveText('메시지를 입력해주세요.');
  await field.fill('1층 로비 회전문 앞에 있겠습니다.');
  await send.click();
  const mine = page.getByTestId('guest-message').filter({ hasText: '1층 로비 회전문 앞에 있겠습니다.' });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('나 ·');
  await expect(field).toHaveValue('');
  await expect(page.locator('main')).not.toContainText(guestPhone);
  const thread = await apiAs(request, admin.token, 'GET', `/butlers/requests/${id}/messages`);
  expect(thread.body.data.thread.messages.map((m: { sender: string; body: string }) => [m.sender, m.body])).toEqual([['guest', '1층 로비 회전문 앞에 있겠습니다.']]);
});
