import type { Browser, BrowserContext, Locator } from '@playwright/test';
import { addDays, todayInKorea } from '../../src/domain/dates';
import type { ButlerSubscriptionView } from '../../src/domain/butler';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { driverWithAccount, placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { apiAs, hydrated, loginAs, newUser, waitForSite } from './users';

/**
 * 기사님과 메시지 (issue 50) with two phones at 390 px: on the trip page the customer writes to the
 * assigned driver, the driver reads it on /driver under 고객과 메시지 and answers, and the
 * customer's page shows the answer by its 10-second poll. Neither party's number is on either page.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'ko-KR', timezoneId: 'Asia/Seoul' };

test.beforeAll(async ({ request }) => waitForSite(request));

async function phone(browser: Browser, baseURL: string | undefined): Promise<BrowserContext> {
  const context = await browser.newContext({ ...PHONE, baseURL });
  await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
  return context;
}


async function thumbSized(target: Locator) {
  const box = await target.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(box!.width).toBeGreaterThanOrEqual(44);
}

test('the customer writes, the driver reads and answers, the customer sees the answer', async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const driver = await driverWithAccount(request, '메시지기사');
  const customer = await newUser(request);
  const booking = await placeButler(request, customer.token, { day: addDays(todayInKorea(new Date()), 1), start: '09:00', end: '13:00' });
  expect((await request.post(`/api/admin/butler-requests/${booking.id}/assign`, { headers: ADMIN, data: { driver_id: driver.id } })).status()).toBe(200);
  const subs = (await apiAs(request, customer.token, 'GET', '/butlers')).body.data.butlers as ButlerSubscriptionView[];
  const sub = subs.find((s) => s.request.id === booking.id)!;
  expect(sub).toBeTruthy();

  // The customer's phone: 기사님과 메시지 on the trip page.
  const customerPhone = await phone(browser, baseURL);
  const c = await customerPhone.newPage();
  await loginAs(c, customer.token);
  await c.goto(`/butler/subscribe/${sub.id}`);
  await hydrated(c, 'ButlerDetail');
  const thread = c.getByTestId('detail-messages-thread');
  await expect(thread.getByRole('heading', { name: '기사님과 메시지' })).toBeVisible();
  await expect(thread).toContainText('아직 메시지가 없습니다.');
  const send = thread.getByRole('button', { name: '보내기' });
  await thumbSized(send);
  // An empty message is refused in words, announced.
  await send.click();
  await expect(thread.getByRole('alert')).toHaveText('메시지를 입력해주세요.');
  await thread.getByLabel('기사님에게 보낼 메시지').fill('3번 출구 앞에 있겠습니다.');
  await send.click();
  await expect(thread.getByTestId('trip-message')).toHaveCount(1);
  await expect(thread.getByTestId('trip-message').first()).toContainText('3번 출구 앞에 있겠습니다.');

  // The driver's phone: 고객과 메시지 on the trip's card.
  const driverPhone = await phone(browser, baseURL);
  const d = await driverPhone.newPage();
  await loginAs(d, driver.token);
  await d.goto('/driver');
  await hydrated(d, 'DriverApp');
  const card = d.locator(`[data-trip-id="${booking.id}"]`);
  const driverThread = card.getByTestId(`trip-${booking.id}-messages-thread`);
  await expect(driverThread.getByRole('heading', { name: '고객과 메시지' })).toBeVisible();
  await expect(driverThread.getByTestId('trip-message').first()).toContainText('3번 출구 앞에 있겠습니다.');
  await expect(driverThread.getByTestId('trip-message').first()).toContainText('고객');
  await driverThread.getByLabel('고객에게 보낼 메시지').fill('네, 10분 전에 도착하겠습니다.');
  const answer = driverThread.getByRole('button', { name: '보내기' });
  await thumbSized(answer);
  await answer.click();
  await expect(driverThread.getByTestId('trip-message')).toHaveCount(2);
  // The roster number is nowhere on the driver's page, nor on the customer's.
  await expect(d.locator('main')).not.toContainText(driver.phone);

  // The customer's page shows the answer without a reload (its 10-second poll).
  await expect(thread.getByTestId('trip-message')).toHaveCount(2, { timeout: 25_000 });
  await expect(thread.getByTestId('trip-message').nth(1)).toContainText('네, 10분 전에 도착하겠습니다.');
  await expect(thread.getByTestId('trip-message').nth(1)).toHaveAttribute('data-sender', 'driver');
  await expect(c.locator('main')).not.toContainText(driver.phone);
  await expect(c.locator('main')).not.toContainText(driver.phone.slice(-4));
  expect(await c.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await customerPhone.close();
  await driverPhone.close();
});
