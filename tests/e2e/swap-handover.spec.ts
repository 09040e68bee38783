import { randomBytes, randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { todayInKorea } from '../../src/domain/dates';
import type { Driver } from '../../src/domain/dispatch';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect, test } from './fixtures';
import { apiAs, confirm, hydrated, loginAs, newStaff, newUser, orderableCar, placeRequest, waitForSite } from './users';

/**
 * 차량 교체, the operations side end to end (docs/decisions/handover.md, Swaps): a CONFIRMED swap
 * (inserted by the TEST_FIXTURES route as the customer side's API leaves it) waits on the 배차
 * board; staff schedule its pair with one driver and one window; the driver records both on
 * /driver; the customer sees 교체 반납 and 교체 인도 on /my/subscriptions and acknowledges them.
 * The swap is today, so no test clock is needed.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

async function outboxMessage(request: APIRequestContext, to: string, event: string): Promise<{ text: string }> {
  let found: { text: string } | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`/api/sandbox/outbox?to=${encodeURIComponent(to)}`);
      const messages = (await res.json()).data.messages as { event: string; text: string }[];
      found = messages.find((m) => m.event === event);
      return Boolean(found);
    }, { timeout: 30_000 })
    .toBe(true);
  return found!;
}

test('staff schedule a swap pair from the board, the driver records both, the customer sees and acknowledges both', async ({ page, request, browser }) => {
  test.setTimeout(150_000);
  const today = todayInKorea(new Date());
  const dotted = today.replace(/-/g, '.');
  const car = await orderableCar(request);
  const newCar = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  await confirm(request, r.id, today);
  const subs = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[];
  const subscriptionId = subs.find((s) => s.request.id === r.id)!.id;
  const swapRes = await request.post('/api/admin/test-swap', { headers: ADMIN, data: { subscription_id: subscriptionId, to_car_id: newCar.id, swap_date: today } });
  expect(swapRes.status(), await swapRes.text()).toBe(201);

  // A driver with an account on /driver (invited by email, signed up through the API).
  const driverName = `교체${randomBytes(2).toString('hex')}`;
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name: driverName, phone: `010${randomInt(10_000_000, 99_999_999)}`, gender: 'male' } });
  expect(res.status()).toBe(201);
  const driver = (await res.json()).data.driver as Driver;
  const email = `swap-driver-${randomBytes(4).toString('hex')}@example.com`;
  expect((await request.post(`/api/admin/drivers/${driver.id}/invite`, { headers: ADMIN, data: { channel: 'email', email } })).status()).toBe(201);
  const code = /invite=([\w-]+)/.exec((await outboxMessage(request, email, 'driver.invited')).text)![1];
  const accepted = await request.post('/api/driver/invites/accept', { data: { code, password: 'driver123' } });
  expect(accepted.status(), await accepted.text()).toBe(201);
  const driverToken = (await accepted.json()).data.access_token as string;

  // Staff: the swap waits as 교체 배차 대기; one dialog books both with one driver and one window.
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto(`/admin#dispatch`);
  await hydrated(page, 'AdminConsole');
  const board = page.getByRole('region', { name: '탁송·반납' });
  await board.getByRole('button', { name: `구독 #${subscriptionId} 차량 교체 일정 잡기` }).click();
  const dialog = page.getByRole('dialog', { name: '차량 교체 일정 (반납·인도)' });
  await expect(dialog).toContainText(`교체일 ${dotted}`);
  await dialog.getByLabel('담당 기사').selectOption(String(driver.id));
  await dialog.getByLabel('시작').fill('21:00');
  await dialog.getByLabel('종료').fill('22:30');
  await dialog.getByRole('button', { name: '일정 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 차량 교체(반납·인도) 일정을 ${dotted} 21:00~22:30, ${driverName} 기사로 잡았습니다.`);
  const cards = board.getByRole('article').filter({ hasText: `구독 #${subscriptionId} ` });
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: '교체 반납 (' })).toContainText(`${dotted} 21:00~22:30`);
  await expect(cards.filter({ hasText: '교체 인도 (' })).toContainText(driverName);

  // The driver records both on /driver.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const d = await phone.newPage();
  await loginAs(d, driverToken);
  await d.goto('/driver');
  const jobs = d.getByTestId('driver-handover');
  await expect(jobs).toHaveCount(2);
  for (const [label, km] of [['교체 반납', '23456'], ['교체 인도', '120']] as const) {
    const job = jobs.filter({ hasText: label });
    await job.getByLabel('주행거리 (km)').fill(km);
    await job.getByLabel('연료(충전) 잔량 (%)').fill('90');
    // A return's record is 반납 기록, a delivery's 인수 기록.
    await job.getByRole('button', { name: label === '교체 반납' ? '반납 기록 저장' : '인수 기록 저장' }).click();
    await expect(job.getByRole('status')).toContainText(`기록 완료 · ${Number(km).toLocaleString('en-US')}km`);
  }
  await phone.close();

  // The customer sees both and acknowledges each.
  const customerContext = await browser.newContext({ viewport: page.viewportSize() });
  const mine = await customerContext.newPage();
  await loginAs(mine, user.token);
  await mine.goto('/my/subscriptions');
  await hydrated(mine, 'SubscriptionList');
  const handovers = mine.getByTestId('subscription-item').getByTestId('handover');
  for (const label of ['차량 교체 반납 완료', '차량 교체 인도 완료']) {
    const h = handovers.filter({ hasText: label });
    await expect(h).toBeVisible();
    await h.getByPlaceholder('이름').fill('홍길동');
    await h.getByRole('button', { name: '기록 확인' }).click();
    await expect(h.getByTestId('handover-acknowledged')).toContainText('홍길동 님이 확인했습니다.');
  }
  await expect(handovers.filter({ hasText: '차량 교체 반납' })).toContainText('23,456km');
  await expect(handovers.filter({ hasText: '차량 교체 인도' })).toContainText('120km');
  await customerContext.close();
});
