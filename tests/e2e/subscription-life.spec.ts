import { randomBytes, randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { addDays, addMonths, todayInKorea } from '../../src/domain/dates';
import { earlyExitFee } from '../../src/domain/early-exit';
import { won } from '../../src/domain/money';
import { FUEL_SHORTFALL_PER_PERCENT } from '../../src/domain/settlement';
import type { Driver } from '../../src/domain/dispatch';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { expect, test } from './fixtures';
import { apiAs, hydrated, loginAs, newStaff, newUser, nextAlert, orderableCar, waitForSite } from './users';

/**
 * The whole life of one subscription, as the customer (on this project's screen: 390 or 1280 px)
 * and staff meet it (issue 39): the order on the car's order page, staff confirm it, schedule and
 * record the delivery on the 배차 board, the customer acknowledges it and reports the odometer,
 * swaps to another car (staff book and record the pair), reads the early-exit quote and confirms it;
 * staff schedule and record the return and settle it from the deposit first; the customer reads the
 * settlement and the payments. Each step has its own spec with the edge cases; this one proves the
 * steps meet. No test clock (one server for all workers): the order starts tomorrow, the delivery
 * recorded today moves the start to today.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

async function rosterDriver(request: APIRequestContext): Promise<Driver> {
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name: `생애${randomBytes(2).toString('hex')}`, phone: `010${randomInt(10_000_000, 99_999_999)}`, gender: 'female' } });
  expect(res.status()).toBe(201);
  return (await res.json()).data.driver as Driver;
}

/** The customer's order on /inquire: all consents, the sandbox card, paid at once. */
async function orderInBrowser(page: Page, carId: number) {
  await page.goto(`/inquire?month=12&carId=${carId}`);
  await hydrated(page);
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '구독 신청 완료' }).getByTestId('charged-sentence')).toContainText('결제되었습니다.', { timeout: 30_000 });
}

/** The console's 배차 board over this week (deliveries and returns of the coming days too). */
async function openBoardWeek(page: Page) {
  // A fresh load: the same address with only its hash would keep the board read before.
  await page.goto('/admin');
  await page.goto('/admin#dispatch');
  await hydrated(page, 'AdminConsole');
  await page.getByRole('group', { name: '기간' }).getByRole('button', { name: '주' }).click();
}

/** Schedules a handover on the console's board (the page is the staff member's, on #dispatch). */
async function scheduleOnBoard(page: Page, subscriptionId: number, kind: '탁송(인도)' | '반납', driver: Driver, day: string) {
  const board = page.getByRole('region', { name: '탁송·반납' });
  await board.getByRole('button', { name: `구독 #${subscriptionId} ${kind} 일정 잡기` }).click();
  const dialog = page.getByRole('dialog', { name: `${kind} 일정` });
  await dialog.getByLabel('담당 기사').selectOption(String(driver.id));
  await dialog.getByLabel('날짜').fill(day);
  await dialog.getByLabel('시작').fill('10:00');
  await dialog.getByLabel('종료').fill('11:30');
  await dialog.getByRole('button', { name: '일정 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 ${kind} 일정을 ${day.replace(/-/g, '.')} 10:00~11:30, ${driver.name} 기사로 잡았습니다.`);
}

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Records the handover called `label` on the board (탁송(인도), 반납, or a swap's 교체 반납 / 교체 인도, which carry the plate). */
async function recordOnBoard(page: Page, subscriptionId: number, label: string, km: number, fuel: number, notes: string) {
  const board = page.getByRole('region', { name: '탁송·반납' });
  const name = new RegExp(`^${escapeRe(label)}( \\(.+\\))? #\\d+$`);
  const card = board.getByRole('article', { name }).filter({ hasText: `구독 #${subscriptionId} ` });
  await card.getByRole('button', { name: /기록$/ }).click();
  const record = page.getByRole('dialog', { name: new RegExp(`^${escapeRe(label)}( \\(.+\\))? 기록$`) });
  await record.getByLabel('주행거리 (km)').fill(String(km));
  await record.getByLabel('연료(충전) 잔량 (%)').fill(String(fuel));
  await record.getByLabel('메모 (외관 상태 등)').fill(notes);
  await record.getByRole('button', { name: '기록 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 ${label}`);
}

test('a subscription from order to settlement: delivery, acknowledgement, self-report, swap, early exit, return, settlement', async ({ page, request, browser }) => {
  test.slow();
  const today = todayInKorea(new Date());
  const car = await orderableCar(request);
  const user = await newUser(request);
  const staff = await newStaff(request);
  const driver = await rosterDriver(request);

  // 1. The order (the customer's screen).
  await loginAs(page, user.token);
  await orderInBrowser(page, car.id);
  const requests = (await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests as { id: number; requested_start: string; fee: number }[];
  expect(requests).toHaveLength(1);
  const order = requests[0];
  expect(order.requested_start).toBe(addDays(today, 1));

  // 2. Staff confirm it in the console (desktop width: the console is a staff tool).
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const console_ = await staffContext.newPage();
  // The console asks before it confirms a money movement (window.confirm): staff say yes.
  console_.on('dialog', (d) => void d.accept());
  await loginAs(console_, staff.access_token);
  await console_.goto('/admin#orders');
  await hydrated(console_, 'AdminConsole');
  const row = console_.locator('li').filter({ has: console_.getByText(`#${order.id}`, { exact: true }) });
  await row.getByRole('button', { name: '확정' }).click();
  await expect(console_.getByRole('status').filter({ hasText: `#${order.id} 확정했습니다.` })).toBeVisible();
  const subscriptionId = ((await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[]).find((s) => s.request.id === order.id)!.id;

  // 3. The delivery: scheduled for the requested start, recorded today (a day early: the term moves to today).
  await openBoardWeek(console_);
  await scheduleOnBoard(console_, subscriptionId, '탁송(인도)', driver, order.requested_start);
  await recordOnBoard(console_, subscriptionId, '탁송(인도)', 20_000, 90, '외관 이상 없음');

  // 4. The customer reads the record and acknowledges it, then reports the odometer.
  await page.goto('/my/subscriptions');
  await hydrated(page, 'SubscriptionList');
  const item = page.getByTestId('subscription-item');
  const end = addDays(addMonths(today, 12), -1);
  await expect(item).toContainText(`${today} ~ ${end}`);
  const handover = item.getByTestId('handover');
  await expect(handover).toContainText('20,000km');
  await handover.getByPlaceholder('이름').fill('홍길동');
  await handover.getByRole('button', { name: '기록 확인' }).click();
  await expect(handover.getByTestId('handover-acknowledged')).toContainText('홍길동 님이 확인했습니다.');
  const mileage = item.getByTestId('mileage');
  await mileage.getByLabel(/현재 계기판 주행거리/).fill('20,350');
  await mileage.getByRole('button', { name: '주행거리 입력' }).click();
  await expect(mileage.getByTestId('mileage-latest')).toContainText(`20,350km (${today}, 고객 입력)`);
  await noHorizontalOverflow(page);

  // 5. 차량 교체 in three days to another free car: the prorated month's arithmetic before confirming.
  const target = await orderableCar(request);
  const swapDay = addDays(today, 3);
  const swapQuote = (await apiAs(request, user.token, 'GET', `/subscriptions/${subscriptionId}/swap?date=${swapDay}&car_id=${target.id}`)).body.data.quote as { arithmetic: string; new_fee: number };
  await item.getByRole('button', { name: '차량 교체' }).click();
  const swap = item.getByTestId('swap');
  await swap.locator('input[type="date"]').fill(swapDay);
  await swap.locator(`input[type="radio"][value="${target.id}"]`).check();
  await expect(swap.getByTestId('swap-arithmetic')).toHaveText(swapQuote.arithmetic);
  await noHorizontalOverflow(page);
  // The new fee is agreed to explicitly before the swap charges (issue 48, 가격 변경 동의).
  await swap.getByLabel(`변경된 월 구독료 ${won(swapQuote.new_fee)}에 동의합니다`).check();
  const swapAsked = nextAlert(page);
  await swap.getByRole('button', { name: /교체 확정/ }).click();
  expect(await swapAsked).toContain(`새 월 구독료: `);
  await expect(item.getByTestId('swap-done')).toContainText(`${swapDay}에`);

  // Staff book the pair (one driver, one window, the swap day) and record both: 450 km more on the old car, the new one at 5,000.
  await openBoardWeek(console_);
  const board = console_.getByRole('region', { name: '탁송·반납' });
  await board.getByRole('button', { name: `구독 #${subscriptionId} 차량 교체 일정 잡기` }).click();
  const pair = console_.getByRole('dialog', { name: '차량 교체 일정 (반납·인도)' });
  await pair.getByLabel('담당 기사').selectOption(String(driver.id));
  await pair.getByLabel('시작').fill('14:00');
  await pair.getByLabel('종료').fill('15:30');
  await pair.getByRole('button', { name: '일정 저장' }).click();
  await expect(board.getByRole('status')).toContainText(`구독 #${subscriptionId}의 차량 교체(반납·인도) 일정을`);
  await recordOnBoard(console_, subscriptionId, '교체 반납', 20_450, 88, '이상 없음');
  await recordOnBoard(console_, subscriptionId, '교체 인도', 5_000, 100, '새 차량 인도');

  // 6. 중도 해지 after the swap day: the quote on the new fee, then confirmed for a return in five days (11 months left).
  await item.getByRole('button', { name: '해지하기' }).click();
  const exit = item.getByTestId('early-exit');
  const exitDay = addDays(today, 5);
  await exit.getByLabel(/반납일/).fill(exitDay);
  const fee = earlyExitFee(11, swapQuote.new_fee);
  await expect(exit.getByTestId('early-exit-quote')).toContainText(`남은 11개월 × 월 ${won(swapQuote.new_fee)} × 20% = ${won(fee)}`);
  await noHorizontalOverflow(page);
  const exitAsked = nextAlert(page);
  await exit.getByRole('button', { name: `${won(fee)} 결제하고 해지 확정` }).click();
  expect(await exitAsked).toContain(`중도 해지 수수료 ${won(fee)}을`);
  await expect(item.getByTestId('early-exit-done')).toContainText(`${exitDay}에 반납해주세요`);

  // 7. The return of the new car: staff schedule it on the return day and record it (450 + 100 km driven in all).
  await openBoardWeek(console_);
  await scheduleOnBoard(console_, subscriptionId, '반납', driver, exitDay);
  await recordOnBoard(console_, subscriptionId, '반납', 5_100, 96, '뒷범퍼 긁힘');
  // The customer acknowledges the return record: the settlement waits for it (issue 49).
  await page.reload();
  await hydrated(page, 'SubscriptionList');
  const returned = item.getByRole('region', { name: '차량 반납', exact: true });
  await expect(returned).toContainText('5,100km');
  await returned.getByPlaceholder('이름').fill('홍길동');
  await returned.getByRole('button', { name: '기록 확인' }).click();
  await expect(returned.getByTestId('handover-acknowledged')).toContainText('홍길동 님이 확인했습니다.');

  // 8. 반납 정산 in the console: the km of both cars, a damage, and the fuel from the four records
  //    (90 → 88 on the old car at the swap, 100 → 96 on the new one: 2% + 4%), from the deposit first.
  await console_.goto('/admin#orders');
  await hydrated(console_, 'AdminConsole');
  await console_.getByRole('combobox', { name: '상태' }).selectOption('CONFIRMED');
  // Newest first, 20 a page: the other tests' orders since step 2 may have pushed this one back.
  for (let shown = 1; ; shown++) {
    await expect(console_.getByText('불러오는 중…')).toHaveCount(0);
    if (await row.count()) break;
    // Each page's rows answered before they are looked at (a look between the click and them skipped a page).
    const answered = console_.waitForResponse((r) => r.url().includes('/api/admin/subscription-requests') && r.url().includes(`page=${shown + 1}`));
    await console_.getByRole('navigation', { name: '페이지' }).getByRole('button', { name: '다음' }).click();
    await answered;
  }
  const settle = row.getByTestId('staff-settlement');
  await settle.locator('summary').click();
  const entry = settle.getByRole('form', { name: `구독 #${subscriptionId} 반납 정산 입력` });
  await entry.getByRole('button', { name: '손상 항목 추가' }).click();
  await entry.getByRole('textbox', { name: '손상 1' }).fill('뒷범퍼 긁힘');
  await entry.getByRole('textbox', { name: '수리 견적(원)' }).fill('80,000');
  await entry.getByRole('button', { name: '미리보기' }).click();
  const result = settle.getByTestId('staff-settlement-result');
  // As staff do: the preview with the entries first, then 정산 확정.
  await expect(result).toContainText('뒷범퍼 긁힘');
  await expect(result.getByTestId('settlement-fuel')).toContainText(/인도 90% → 교체 반납 88% \(2%\) \+ .+ 교체 인도 100% → 반납 96% \(4%\)/);
  await expect(result).toContainText(`6% × 1%당 ${won(FUEL_SHORTFALL_PER_PERCENT)}`);
  await expect(result.getByTestId('settlement-acknowledgement')).toContainText('반납 기록 고객 확인');
  await settle.getByRole('button', { name: '정산 확정' }).click();
  await expect(result).toContainText('정산 완료');
  await expect(result).toContainText('주행 (450km + 100km) 550km');
  const settled = ((await (await request.get(`/api/admin/subscriptions/${subscriptionId}/settlement`, { headers: ADMIN })).json()) as { data: { settlement: { summary: string; to_charge: number; to_refund: number } } }).data.settlement;
  await staffContext.close();

  // 9. The customer: the settlement on my subscriptions, every movement on my payments.
  await page.reload();
  await hydrated(page, 'SubscriptionList');
  const mine = item.getByTestId('settlement');
  await expect(mine).toContainText('손상: 뒷범퍼 긁힘');
  await expect(mine.getByTestId('settlement-summary')).toHaveText(settled.summary);
  await expect(item).toContainText(`${today} ~ ${exitDay}`);
  await noHorizontalOverflow(page);
  const payments = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { purpose: string; amount: number; status: string }[];
  expect(payments.filter((p) => p.purpose === 'SUBSCRIPTION_EARLY_EXIT')).toEqual([expect.objectContaining({ amount: fee, status: 'PAID' })]);
  expect(payments.filter((p) => p.purpose === 'SUBSCRIPTION_SETTLEMENT')).toEqual(settled.to_charge > 0 ? [expect.objectContaining({ amount: settled.to_charge, status: 'PAID' })] : []);
  await page.goto('/my/payments');
  await expect(page.getByText('구독 중도 해지').first()).toBeVisible();
});
