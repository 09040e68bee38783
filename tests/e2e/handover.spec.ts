import { randomBytes, randomInt } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { todayInKorea } from '../../src/domain/dates';
import type { Driver } from '../../src/domain/dispatch';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect, test } from './fixtures';
import { apiAs, confirm, hydrated, loginAs, newStaff, newUser, orderableCar, placeRequest, waitForSite } from './users';

/**
 * 탁송·반납 end to end (issue 39): staff schedule a subscription's delivery on the 배차 board with a
 * driver and a window, the customer sees it on /my/subscriptions; staff record the handover
 * (odometer, fuel, notes) and the customer acknowledges it with their name. No test clock: the
 * subscription starts today and the delivery is recorded today, so its dates stay.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

/** No serious or critical axe violation within `scope`. */
async function noSeriousAxe(page: Page, scope: string) {
  const { violations } = await new AxeBuilder({ page }).include(scope).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test('staff schedule and record a delivery on the 배차 board; the customer sees it on my subscriptions and acknowledges it', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const today = todayInKorea(new Date());
  const dotted = today.replace(/-/g, '.');
  const car = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  await confirm(request, r.id, today);
  const subs = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[];
  const subscriptionId = subs.find((s) => s.request.id === r.id)!.id;
  const driverName = `탁송${randomBytes(2).toString('hex')}`;
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name: driverName, phone: `010${randomInt(10_000_000, 99_999_999)}`, gender: 'male' } });
  expect(res.status()).toBe(201);
  const driver = (await res.json()).data.driver as Driver;

  // Staff: the subscription waits for its delivery on today's board; 탁송 일정 잡기 books the driver.
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#dispatch');
  await hydrated(page, 'AdminConsole');
  const board = page.getByRole('region', { name: '탁송·반납' });
  await board.getByRole('button', { name: `구독 #${subscriptionId} 탁송(인도) 일정 잡기` }).click();
  const dialog = page.getByRole('dialog', { name: '탁송(인도) 일정' });
  await dialog.getByLabel('담당 기사').selectOption(String(driver.id));
  await dialog.getByLabel('날짜').fill(today);
  await dialog.getByLabel('시작').fill('21:00');
  await dialog.getByLabel('종료').fill('20:00');
  await dialog.getByRole('button', { name: '일정 저장' }).click();
  await expect(dialog.getByRole('alert')).toContainText('종료 시간은 시작 시간 이후여야 합니다.');
  await dialog.getByLabel('종료').fill('22:30');
  await dialog.getByLabel('장소 (선택)').fill('서울 강남구 테헤란로 152');
  await dialog.getByRole('button', { name: '일정 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 탁송(인도) 일정을 ${dotted} 21:00~22:30, ${driverName} 기사로 잡았습니다.`);
  const card = board.getByRole('article').filter({ hasText: `구독 #${subscriptionId} ` });
  await expect(card).toContainText(`탁송(인도) ${dotted} 21:00~22:30`);
  await expect(card).toContainText(driverName);
  await noHorizontalOverflow(page);
  await noSeriousAxe(page, 'section[aria-label="탁송·반납"]');

  // The customer sees the day, the window and the driver's name.
  const customerContext = await browser.newContext({ viewport: page.viewportSize() });
  const mine = await customerContext.newPage();
  await loginAs(mine, user.token);
  await mine.goto('/my/subscriptions');
  await hydrated(mine, 'SubscriptionList');
  const handover = mine.getByTestId('subscription-item').getByTestId('handover');
  await expect(handover).toContainText('차량 탁송(인도) 예정');
  await expect(handover).toContainText(`${dotted} 21:00~22:30 · 담당 기사 ${driverName}`);
  await expect(handover.getByRole('button', { name: '기록 확인' })).toHaveCount(0);

  // Staff record the handover.
  await card.getByRole('button', { name: /기록$/ }).click();
  const record = page.getByRole('dialog', { name: '탁송(인도) 기록' });
  await record.getByLabel('주행거리 (km)').fill('12345');
  await record.getByLabel('연료(충전) 잔량 (%)').fill('80');
  await record.getByLabel('메모 (외관 상태 등)').fill('조수석 휠 긁힘 있음');
  await record.getByRole('button', { name: '기록 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 탁송(인도) 기록을 저장했습니다. 예정된 시작일에 인도되었습니다.`);
  await expect(card.getByTestId('handover-record')).toContainText('주행거리 12,345km · 연료(충전) 80% · 조수석 휠 긁힘 있음 · 고객 확인 대기');

  // The customer reads the record and acknowledges it with their name (the wrong name is refused).
  await mine.reload();
  await hydrated(mine, 'SubscriptionList');
  await expect(handover).toContainText('차량 탁송(인도) 완료');
  await expect(handover).toContainText('12,345km');
  await expect(handover).toContainText('80%');
  await expect(handover).toContainText('조수석 휠 긁힘 있음');
  await noSeriousAxe(mine, '[data-testid="handover"]');
  await handover.getByPlaceholder('이름').fill('김철수');
  await handover.getByRole('button', { name: '기록 확인' }).click();
  await expect(handover.getByRole('alert')).toContainText('회원 정보에 등록된 이름을 정확히 입력해주세요.');
  await handover.getByPlaceholder('이름').fill('홍길동');
  await handover.getByRole('button', { name: '기록 확인' }).click();
  await expect(handover.getByTestId('handover-acknowledged')).toContainText('홍길동 님이 확인했습니다.');
  await noHorizontalOverflow(mine);
  await customerContext.close();

  // Staff see the acknowledgement on the board.
  await page.reload();
  await hydrated(page, 'AdminConsole');
  await expect(board.getByRole('article').filter({ hasText: `구독 #${subscriptionId} ` }).getByTestId('handover-record')).toContainText('고객 확인');
  await expect(board.getByRole('article').filter({ hasText: `구독 #${subscriptionId} ` }).getByTestId('handover-record')).toContainText('(홍길동)');
});
