import { randomBytes, randomInt } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import sharp from 'sharp';
import { todayInKorea } from '../../src/domain/dates';
import type { Driver } from '../../src/domain/dispatch';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect, test } from './fixtures';
import { apiAs, confirm, hydrated, loginAs, newStaff, newUser, orderableCar, placeRequest, waitForSite } from './users';

/**
 * 상태 사진 end to end (issue 39): staff add a condition photo in the handover's record dialog; the
 * thumbnail shows on the board and on the customer's /my/subscriptions, fetched with the access
 * token (a blob URL) from a private, no-store answer.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

test('staff upload a condition photo in the record dialog; the customer sees its thumbnail', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const today = todayInKorea(new Date());
  const car = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  await confirm(request, r.id, today);
  const subs = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[];
  const subscriptionId = subs.find((s) => s.request.id === r.id)!.id;
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name: `사진${randomBytes(2).toString('hex')}`, phone: `010${randomInt(10_000_000, 99_999_999)}`, gender: 'male' } });
  expect(res.status()).toBe(201);
  const driver = (await res.json()).data.driver as Driver;
  const scheduled = await request.post(`/api/admin/subscriptions/${subscriptionId}/handovers`, {
    headers: ADMIN,
    data: { kind: 'DELIVERY', driver_id: driver.id, date: today, window_start: '23:00', window_end: '23:30' },
  });
  expect(scheduled.status()).toBe(201);

  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#dispatch');
  await hydrated(page, 'AdminConsole');
  const board = page.getByRole('region', { name: '탁송·반납' });
  const card = board.getByRole('article').filter({ hasText: `구독 #${subscriptionId} ` });
  await card.getByRole('button', { name: /기록$/ }).click();
  const dialog = page.getByRole('dialog', { name: '탁송(인도) 기록' });
  const jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 180, g: 30, b: 30 } } }).jpeg().toBuffer();
  const imageAnswer = page.waitForResponse((a) => /\/api\/handovers\/\d+\/photos\/\d+$/.test(a.url()));
  await dialog.getByLabel('상태 사진 올리기').setInputFiles({ name: 'scratch.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  const thumb = dialog.getByRole('img', { name: '상태 사진 1' });
  await expect(thumb).toHaveAttribute('src', /^blob:/);
  const answer = await imageAnswer;
  expect(answer.headers()['cache-control']).toBe('private, no-store');
  const { violations } = await new AxeBuilder({ page }).include('dialog[open]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  const customerContext = await browser.newContext({ viewport: page.viewportSize() });
  const mine = await customerContext.newPage();
  await loginAs(mine, user.token);
  await mine.goto('/my/subscriptions');
  await hydrated(mine, 'SubscriptionList');
  const handover = mine.getByTestId('subscription-item').getByTestId('handover');
  await expect(handover.getByRole('img', { name: '상태 사진 1' })).toHaveAttribute('src', /^blob:/);
  await expect(handover.getByText('상태 사진 올리기')).toHaveCount(0);
  await customerContext.close();
});
