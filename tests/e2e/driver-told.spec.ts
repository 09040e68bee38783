import { randomBytes, randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { addDays, dotDate, todayInKorea } from '../../src/domain/dates';
import { dayHeading } from '../../src/domain/driver-notices';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { apiAs, hydrated, loginAs, newStaff, newUser, waitForSite } from './users';

/**
 * Drivers are told (issue 50): at 390 px the driver's phone lists the 알림 of two assignments
 * (unread, then read) and the coming days grouped by day; at 1280 px staff move a late flight's
 * pickup by +30 minutes on the 배차 board, and the driver and the customer each get one message.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

/** A roster driver with an account (invited by email, accepted through the API). */
async function driverWithAccount(request: APIRequestContext) {
  const name = `알림기사${randomBytes(2).toString('hex')}`;
  const phone = `010${randomInt(10_000_000, 99_999_999)}`;
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name, phone, gender: 'male' } });
  expect(res.status()).toBe(201);
  const driver = (await res.json()).data.driver as { id: number };
  const email = `told-${randomBytes(4).toString('hex')}@example.com`;
  expect((await request.post(`/api/admin/drivers/${driver.id}/invite`, { headers: ADMIN, data: { channel: 'email', email } })).status()).toBe(201);
  const invite = await outbox(request, email, 'driver.invited');
  const code = /\/driver\?invite=([\w-]+)/.exec(invite[0].text)![1];
  const accepted = await request.post('/api/driver/invites/accept', { data: { code, password: 'driver123' } });
  expect(accepted.status()).toBe(201);
  return { id: driver.id, name, phone, token: (await accepted.json()).data.access_token as string };
}

/** The sandbox outbox messages of `event` to `to` (polled until at least one is there). */
async function outbox(request: APIRequestContext, to: string, event: string): Promise<{ text: string; channel: string }[]> {
  let found: { text: string; channel: string }[] = [];
  await expect
    .poll(async () => {
      const messages = (await (await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(to)}`)).json()).data.messages as { event: string; text: string; channel: string }[];
      found = messages.filter((m) => m.event === event);
      return found.length;
    }, { timeout: 30_000 })
    .toBeGreaterThan(0);
  return found;
}

test('the driver sees each assignment as an unread 알림 and the coming days by day', { tag: '@phone' }, async ({ page, request }) => {
  const driver = await driverWithAccount(request);
  const customer = await newUser(request);
  const today = todayInKorea(new Date());
  const soon = await placeButler(request, customer.token, { day: addDays(today, 2), start: '08:00', end: '12:00', extra: { flight_number: 'KE123' } });
  const later = await placeButler(request, customer.token, { day: addDays(today, 6), start: '14:00', end: '18:00' });
  for (const b of [soon, later]) expect((await request.post(`/api/admin/butler-requests/${b.id}/assign`, { headers: ADMIN, data: { driver_id: driver.id } })).status()).toBe(200);

  await loginAs(page, driver.token);
  await page.goto('/driver');
  await hydrated(page, 'DriverApp');
  const notices = page.getByTestId('driver-notices');
  await expect(notices.getByRole('heading', { name: /알림/ })).toContainText('새 알림 2');
  await expect(notices.getByTestId('driver-notice')).toHaveCount(2);
  await expect(notices.getByTestId('driver-notice').first()).toContainText(`새 운행 배정 · 예약 #${later.id}`);
  await expect(notices.getByTestId('driver-notice').first()).toHaveAttribute('data-read', 'false');
  // Both days of the coming week, each under its heading, in order.
  const days = page.getByTestId('driver-day');
  await expect(days).toHaveCount(2);
  await expect(days.nth(0).getByTestId('driver-day-heading')).toContainText(dayHeading(soon.day, today));
  await expect(days.nth(1).getByTestId('driver-day-heading')).toContainText(dayHeading(later.day, today));
  await expect(days.nth(1).locator(`[data-trip-id="${later.id}"]`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  // Seen: read on the next visit.
  await expect.poll(async () => (await apiAs(request, driver.token, 'GET', '/driver/notices')).body.data.unread).toBe(0);
  await page.reload();
  await expect(page.getByTestId('driver-notice').first()).toHaveAttribute('data-read', 'true');
  // 지난 운행: none yet for a new driver.
  await page.getByRole('button', { name: '지난 운행 보기' }).click();
  await expect(page.getByTestId('driver-past')).toContainText('최근 30일 동안의 운행이 없습니다.');
});

test('staff move a late flight’s pickup by +30 minutes; the driver and the customer are told', async ({ page, request }) => {
  const driver = await driverWithAccount(request);
  const customer = await newUser(request);
  const booking = await placeButler(request, customer.token, { start: '09:00', end: '13:00', extra: { flight_number: 'OZ1085' } });
  expect((await request.post(`/api/admin/butler-requests/${booking.id}/assign`, { headers: ADMIN, data: { driver_id: driver.id } })).status()).toBe(200);

  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#dispatch');
  await hydrated(page, 'AdminConsole');
  await page.getByRole('navigation', { name: '관리 메뉴' }).getByRole('button', { name: '배차' }).click();
  await page.getByLabel('날짜').fill(booking.day);
  const card = page.getByRole('article', { name: `운행 #${booking.id}`, exact: true });
  await expect(card).toContainText(`${dotDate(booking.day)} 09:00 ~ 13:00`);
  await card.getByRole('button', { name: `#${booking.id} 픽업 변경` }).click();
  const form = page.getByRole('form', { name: `#${booking.id} 픽업 시각 변경` });
  await expect(form).toContainText('항공편 OZ1085');
  await form.getByRole('button', { name: '+30분' }).click();
  await expect(form.getByLabel('새 픽업 시각')).toHaveValue('09:30');
  await expect(form.getByLabel('변경 사유')).toHaveValue('OZ1085 항공편 지연');
  await form.getByRole('button', { name: '픽업 변경 저장' }).click();
  await expect(page.getByRole('status')).toHaveText(`#${booking.id} 픽업 시각을 09:30으로 옮기고 기사와 고객에게 알렸습니다.`);
  await expect(card).toContainText(`${dotDate(booking.day)} 09:30 ~ 13:30`);

  const toDriver = await outbox(request, driver.phone, 'driver.trip_changed');
  expect(toDriver).toHaveLength(1);
  expect(toDriver[0].text).toMatch(/픽업 시각 \S+ 09:00 → \S+ 09:30/);
  const me = (await apiAs(request, customer.token, 'GET', '/accounts')).body.data as { email: string };
  const toCustomer = await outbox(request, me.email, 'butler.trip_changed');
  expect(toCustomer[0].text).toContain('항공편 지연으로 픽업 시각이 09:30으로 변경되었습니다.');
});
