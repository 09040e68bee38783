import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { randomBytes, randomInt } from 'node:crypto';
import { addDays, todayInKorea } from '../../src/domain/dates';
import type { Driver } from '../../src/domain/dispatch';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { hydrated, loginAs, newStaff, newUser, waitForSite } from './users';

/**
 * The day of a trip, as staff, the driver and the customer see it: the customer's memo and flight
 * on the 배차 card, the 운행표 and the order desk; the rating after the trip and each driver's
 * average on the roster; the refund rules on /fleet; a 의전 coupon entered on the 구독 tab; and
 * targets a thumb can hit at 390 px.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const unique = () => randomBytes(3).toString('hex');
const MEMO = '유아 카시트 1개';

test.beforeAll(async ({ request }) => waitForSite(request));

async function apiDriver(request: APIRequestContext, name: string): Promise<Driver> {
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name, phone: `010${randomInt(10_000_000, 99_999_999)}`, gender: 'female' } });
  expect(res.status()).toBe(201);
  return (await res.json()).data.driver as Driver;
}

async function openConsole(page: Page, tab: string) {
  await page.goto(`/admin#${tab}`);
  await hydrated(page, 'AdminConsole');
}

/** No serious or critical axe violation, within `scope` when given. */
async function noSeriousAxe(page: Page, scope?: string) {
  const axe = new AxeBuilder({ page });
  const { violations } = await (scope ? axe.include(scope) : axe).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test("the customer's memo, purpose, flight and waypoint time reach the order desk, the 배차 card and the 운행표", async ({ page, request }) => {
  test.setTimeout(120_000);
  const customer = await newUser(request);
  const day = addDays(todayInKorea(new Date()), 40 + randomInt(0, 100));
  const booked = await placeButler(request, customer.token, {
    day, start: '10:00', end: '18:00', start_location: '인천 중구 공항로 272', end_location: '서울 중구 세종대로 110',
    way_point_requests: [{ address: '서울 종로구 사직로 161', scheduled_time: `${day}T12:30:00+09:00` }],
    extra: { memo: MEMO, purpose: '가족 행사', driver_preference: 'female', flight_number: 'OZ1085' },
  });
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);

  // The order desk: the pending booking carries what the customer wrote.
  await openConsole(page, 'orders');
  await page.getByRole('tab', { name: '의전 요청' }).click();
  await expect(page.getByLabel(`#${booked.id} 고객 요청`)).toContainText(MEMO);
  const desk = page.getByLabel(`#${booked.id} 고객 요청`);
  await expect(desk).toContainText('가족 행사');
  await expect(desk).toContainText('OZ1085');
  await expect(desk).toContainText('여성');
  await expect(desk).toContainText('12:30 도착');
  await noHorizontalOverflow(page);

  // The 배차 card.
  const driver = await apiDriver(request, `카시트${unique()}`);
  await page.getByRole('navigation', { name: '관리 메뉴' }).getByRole('button', { name: '배차' }).click();
  await page.getByLabel('날짜').fill(day);
  const card = page.getByRole('article', { name: `운행 #${booked.id}`, exact: true });
  const cardBrief = card.getByLabel(`#${booked.id} 고객 요청`);
  await expect(cardBrief).toContainText(MEMO);
  await expect(cardBrief).toContainText('OZ1085');
  await expect(cardBrief).toContainText('서울 종로구 사직로 161 · 12:30 도착');
  await noHorizontalOverflow(page);
  await noSeriousAxe(page, 'section[aria-label="배차"]');

  // The 운행표 the driver takes along.
  expect((await request.post(`/api/admin/butler-requests/${booked.id}/assign`, { headers: ADMIN, data: { driver_id: driver.id } })).status()).toBe(200);
  await page.reload();
  await hydrated(page, 'AdminConsole');
  await page.getByLabel('날짜').fill(day);
  await page.getByRole('group', { name: '보기' }).getByRole('button', { name: '기사별' }).click();
  await page.getByRole('region', { name: driver.name, exact: true }).getByRole('button', { name: `${driver.name} ${day} 운행표` }).click();
  const item = page.getByRole('region', { name: '운행표' }).getByTestId('run-sheet-trip');
  await expect(item).toContainText(MEMO);
  await expect(item).toContainText('가족 행사');
  await expect(item).toContainText('OZ1085');
  await expect(item).toContainText('12:30 도착');
  await page.emulateMedia({ media: 'print' });
  await expect(item.getByText(MEMO)).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
});

test('after the trip the customer rates it once; staff read the driver’s average on the roster', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const customer = await newUser(request);
  const booked = await placeButler(request, customer.token, { day: addDays(todayInKorea(new Date()), 30 + randomInt(0, 120)) });
  const driver = await apiDriver(request, `평가${unique()}`);
  expect((await request.post(`/api/admin/butler-requests/${booked.id}/assign`, { headers: ADMIN, data: { driver_id: driver.id } })).status()).toBe(200);
  await loginAs(page, customer.token);

  // Before the end: no rating form.
  await page.goto(`/butler/request/${booked.id}`);
  await expect(page.getByRole('region', { name: '진행 상황' })).toBeVisible();
  await expect(page.getByRole('form', { name: '운행 평가' })).toHaveCount(0);

  // Staff record the trip (eight hours that ended a minute ago: a record needs times that passed).
  const now = Date.now();
  const trip = await request.post(`/api/admin/butler-requests/${booked.id}/trip`, {
    headers: ADMIN, data: { actual_start_at: new Date(now - 8 * 3_600_000).toISOString(), actual_end_at: new Date(now - 60_000).toISOString() },
  });
  expect(trip.status()).toBe(200);

  await page.reload();
  const form = page.getByRole('form', { name: '운행 평가' });
  await expect(form).toBeVisible();
  await noSeriousAxe(page, 'section[aria-labelledby="detail-rating"]');
  await allAtLeast44(form.locator('label').filter({ has: page.getByRole('radio') }), 'score boxes');
  await form.getByRole('button', { name: '평가 보내기' }).click();
  await expect(form.getByRole('alert')).toHaveText('별점은 1~5 사이의 숫자로 선택해주세요.');
  // The score boxes are labels around visually hidden radios: tap the box of 4.
  await form.locator('label').filter({ has: page.getByRole('radio', { name: '4점 만족' }) }).click();
  await expect(form.getByRole('radio', { name: '4점 만족' })).toBeChecked();
  await form.getByLabel('후기 (선택)').fill('시간을 잘 지켜주셨어요.');
  await form.getByRole('button', { name: '평가 보내기' }).click();
  await expect(page.getByTestId('rating-given')).toContainText('4점 · 만족');
  await expect(page.getByText('시간을 잘 지켜주셨어요.')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('rating-given')).toContainText('4점');
  await expect(page.getByRole('form', { name: '운행 평가' })).toHaveCount(0);
  await noHorizontalOverflow(page);

  // Staff: the roster shows the driver's average and count.
  const staff = await newStaff(request);
  const context = await browser.newContext();
  const console_ = await context.newPage();
  await loginAs(console_, staff.access_token);
  await openConsole(console_, 'drivers');
  const row = console_.getByTestId('driver-list').getByRole('listitem', { name: driver.name });
  await expect(row.getByTestId('driver-rating')).toHaveText('고객 평가 평균 4.0점 (1건)');
  // …and what the customer wrote for the driver, with the trip (issue 50).
  const review = console_.getByTestId('trip-reviews').getByRole('listitem').filter({ hasText: `${driver.name} 기사` });
  await expect(review).toContainText('4점 · 요청 #');
  await expect(review).toContainText('시간을 잘 지켜주셨어요.');
  await context.close();
});

test('/fleet states the refund rules before booking', async ({ page }) => {
  await page.goto('/fleet');
  const rules = page.getByRole('region', { name: '취소·환불 규정' });
  await expect(rules).toContainText('이용 시작 24시간 전까지 취소하면 결제 금액 전액을 환불합니다.');
  await expect(rules).toContainText('결제 금액의 50%를 환불합니다.');
  await expect(rules.getByRole('link', { name: '이용약관' })).toHaveAttribute('href', '/terms');
});

test('a 의전 coupon entered on the 구독 tab is shown under 의전', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto('/coupon');
  await hydrated(page, 'CouponWallet');
  await page.getByRole('tab', { name: '구독' }).click();
  await expect(page.getByTestId('coupon-tab-hint')).toContainText('어느 탭에서 등록해도');
  await page.getByLabel('쿠폰 코드').fill('BUTLER10');
  await page.getByRole('button', { name: '등록' }).click();
  await expect(page.getByRole('status')).toContainText('의전 서비스에 쓰는 쿠폰이라 의전 탭에 담았습니다.');
  await expect(page.getByRole('tab', { name: '의전' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: '사용 가능한 쿠폰' }).getByText('의전 10% 할인')).toBeVisible();
});

/** Every element's box is at least 44 × 44 CSS px. */
async function allAtLeast44(targets: Locator, what: string) {
  const boxes = await targets.evaluateAll((els) => els.map((el) => {
    const r = el.getBoundingClientRect();
    return { w: r.width, h: r.height, text: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 20) };
  }));
  expect(boxes.length, what).toBeGreaterThan(0);
  const small = boxes.filter((b) => b.w < 44 || b.h < 44).map((b) => `${b.text} ${Math.round(b.w)}×${Math.round(b.h)}`);
  expect(small, what).toEqual([]);
}

test('tap targets are at least 44 px at 390 px: carousel dots, logo, footer links, garage terms and sort, fleet days', { tag: '@phone' }, async ({ page }) => {
  await page.goto('/');
  await allAtLeast44(page.locator('[data-dot]'), 'home carousel dots');
  await allAtLeast44(page.getByRole('link', { name: 'LUXE 홈' }), 'logo');
  await allAtLeast44(page.locator('footer a'), 'footer links');

  await page.goto('/garage');
  await hydrated(page, 'GarageBrowser');
  await allAtLeast44(page.getByTestId('month-options').getByRole('button'), 'garage term buttons');
  await allAtLeast44(page.getByLabel('정렬'), 'garage sort select');
  await allAtLeast44(page.getByLabel('브랜드 선택'), 'garage brand select');
  await noHorizontalOverflow(page);

  await page.goto('/fleet');
  const first = page.locator('[data-fleet-car]').first();
  await first.locator('[data-calendar-toggle]').click();
  await expect(first.locator('[data-day]').first()).toBeVisible();
  await allAtLeast44(first.locator('[data-day]'), 'fleet calendar days');
  await allAtLeast44(first.locator('[data-month]'), 'fleet calendar month buttons');
  await noHorizontalOverflow(page);
});
