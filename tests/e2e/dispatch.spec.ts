import { randomBytes, randomInt } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { addDays, todayInKorea } from '../../src/domain/dates';
import type { DispatchBoardAnswer, DispatchTrip, Driver } from '../../src/domain/dispatch';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { hydrated, loginAs, newStaff, newUser, waitForSite } from './users';

/**
 * Butler dispatch end to end: staff keep the driver roster (기사), assign drivers on the board
 * (배차) and print a driver's day (운행표); the customer's booking shows the stage and, from the
 * day before the trip, the driver and the plate. No test clock: tomorrow's trip is inside the
 * window where the customer sees the driver, the one five days out is not.
 */

const ADMIN = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };

test.beforeAll(async ({ request }) => waitForSite(request));

const unique = () => randomBytes(3).toString('hex');
const mobile = () => `010${randomInt(10_000_000, 99_999_999)}`;
const dashed = (digits: string) => `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`;

/** A driver made through the API (the 기사 section's own form is exercised in the first test). */
async function apiDriver(request: APIRequestContext, name: string): Promise<Driver> {
  const res = await request.post('/api/admin/drivers', { headers: ADMIN, data: { name, phone: mobile(), gender: 'male', licence_classes: ['1종 보통'] } });
  expect(res.status()).toBe(201);
  return (await res.json()).data.driver as Driver;
}

/** A trip as the board's API shows it (customer name, car and plate). */
async function boardTrip(request: APIRequestContext, day: string, id: number): Promise<DispatchTrip> {
  const res = await request.get(`/api/admin/dispatch?from=${day}&days=1`, { headers: ADMIN });
  const trip = ((await res.json()).data as DispatchBoardAnswer).trips.find((t) => t.id === id);
  if (!trip) throw new Error(`trip ${id} not on the board of ${day}`);
  return trip;
}

/** No serious or critical axe violation, within `scope` when given (the console's own section). */
async function noSeriousAxe(page: Page, scope?: string) {
  const axe = new AxeBuilder({ page });
  const { violations } = await (scope ? axe.include(scope) : axe).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** Opens the console on a tab and waits for it. */
async function openConsole(page: Page, tab: string) {
  await page.goto(`/admin#${tab}`);
  await hydrated(page, 'AdminConsole');
}

test('staff add a driver, assign him on the board; the customer sees 배차 완료 with driver and plate the day before, and the run sheet lists the trip', async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const tomorrow = addDays(todayInKorea(new Date()), 1);
  const later = addDays(todayInKorea(new Date()), 5);
  const customer = await newUser(request);
  const soon = await placeButler(request, customer.token, {
    day: tomorrow, start: '10:00', end: '18:00',
    way_point_requests: [{ address: '서울 종로구 사직로 161', scheduled_time: null }],
  });
  const far = await placeButler(request, customer.token, { day: later });
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);

  // 기사: a name is required (the API's message), then the driver is saved with a day off.
  const name = `기사${unique()}`;
  const phone = mobile();
  await openConsole(page, 'drivers');
  await page.getByRole('button', { name: '기사 추가' }).click();
  const form = page.getByRole('form', { name: '기사 추가' });
  await form.getByLabel('연락처').fill(dashed(phone));
  await form.getByRole('button', { name: '저장' }).click();
  await expect(form.getByRole('alert')).toContainText('기사 이름을 입력해주세요.');
  await form.getByLabel('이름').fill(name);
  await form.getByLabel('1종 보통').check();
  await form.getByLabel('휴무일', { exact: true }).fill(addDays(todayInKorea(new Date()), 20));
  await form.getByRole('button', { name: '휴무일 추가' }).click();
  await expect(form.getByRole('list', { name: '휴무일 목록' })).toContainText(addDays(todayInKorea(new Date()), 20));
  await form.getByRole('button', { name: '저장' }).click();
  await expect(page.getByRole('status')).toHaveText(`${name} 기사를 저장했습니다.`);
  const row = page.getByTestId('driver-list').getByRole('listitem', { name });
  await expect(row).toContainText(dashed(phone));
  await expect(row).toContainText('활성');
  await expect(row).toContainText('1종 보통');
  await expect(row).toContainText(addDays(todayInKorea(new Date()), 20));
  await noHorizontalOverflow(page);
  await noSeriousAxe(page, 'section[aria-label="기사"]');

  // 편집: the day off is removed again.
  await row.getByRole('button', { name: `${name} 편집` }).click();
  const edit = page.getByRole('form', { name: `${name} 기사 편집` });
  await edit.getByRole('button', { name: `${addDays(todayInKorea(new Date()), 20)} 휴무일 삭제` }).click();
  await edit.getByRole('button', { name: '저장' }).click();
  await expect(row).toContainText('휴무일 없음');

  // 배차: tomorrow's trip waits in 미배차; 기사 배정 offers the new driver.
  await page.getByRole('navigation', { name: '관리 메뉴' }).getByRole('button', { name: '배차' }).click();
  await page.getByLabel('날짜').fill(tomorrow);
  const unassigned = page.getByRole('region', { name: '미배차' });
  const card = page.getByRole('article', { name: `운행 #${soon.id}`, exact: true });
  await expect(unassigned.getByRole('article', { name: `운행 #${soon.id}`, exact: true })).toBeVisible();
  await expect(card).toContainText('서울 중구 세종대로 110 → 서울 종로구 사직로 161 → 인천 중구 공항로 272');
  await expect(card).toContainText(`${tomorrow.replace(/-/g, '.')} 10:00 ~ 18:00`);
  await expect(card).toContainText('2명');
  await expect(card).toContainText('접수');
  await noHorizontalOverflow(page);
  await noSeriousAxe(page, 'section[aria-label="배차"]');
  await card.getByRole('button', { name: `#${soon.id} 기사 배정` }).click();
  const dialog = page.getByRole('dialog', { name: `#${soon.id} 기사 배정` });
  await dialog.getByRole('radio', { name: new RegExp(name) }).check();
  await dialog.getByRole('button', { name: '배정', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(`#${soon.id}에 ${name} 기사를 배정했습니다.`);
  await expect(dialog).toBeHidden();
  await expect(card).toContainText(name);
  await expect(card).toContainText('배차 완료');
  await expect(unassigned.getByRole('article', { name: `운행 #${soon.id}`, exact: true })).toHaveCount(0);

  // The week from tomorrow holds the trip five days out: assigned too, from the board.
  await page.getByRole('group', { name: '기간' }).getByRole('button', { name: '주' }).click();
  const farCard = page.getByRole('article', { name: `운행 #${far.id}`, exact: true });
  await farCard.getByRole('button', { name: `#${far.id} 기사 배정` }).click();
  const farDialog = page.getByRole('dialog', { name: `#${far.id} 기사 배정` });
  await farDialog.getByRole('radio', { name: new RegExp(name) }).check();
  await farDialog.getByRole('button', { name: '배정', exact: true }).click();
  await expect(farCard).toContainText(name);

  // 기사별: the driver's group has one 운행표 per day; tomorrow's lists the trip in full.
  await page.getByRole('group', { name: '보기' }).getByRole('button', { name: '기사별' }).click();
  const mine = page.getByRole('region', { name, exact: true });
  await expect(mine.getByRole('article')).toHaveCount(2);
  await mine.getByRole('button', { name: `${name} ${tomorrow} 운행표` }).click();
  const trip = await boardTrip(request, tomorrow, soon.id);
  const sheet = page.getByRole('region', { name: '운행표' });
  await expect(sheet.getByRole('heading', { level: 2 })).toContainText(`운행표 · ${tomorrow.replace(/-/g, '.')}`);
  await expect(sheet).toContainText(name);
  const item = sheet.getByTestId('run-sheet-trip');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('10:00 ~ 18:00');
  await expect(item).toContainText('서울 중구 세종대로 110');
  await expect(item).toContainText('서울 종로구 사직로 161');
  await expect(item).toContainText('인천 중구 공항로 272');
  await expect(item).toContainText('2명');
  await expect(item).toContainText(trip.customer.name);
  // On paper the customer's number is masked as on /driver (issue 50); the board keeps it whole for staff.
  expect(trip.customer.mobile).toMatch(/^010\d{8}$/);
  await expect(item.getByTestId('run-sheet-phone')).toHaveText(`010-****-${trip.customer.mobile!.slice(-4)}`);
  await expect(item).not.toContainText(trip.customer.mobile!);
  await expect(item).toContainText(trip.car.name);
  if (trip.car.license_plate) await expect(item).toContainText(trip.car.license_plate);
  await expect(sheet.getByRole('button', { name: '인쇄' })).toBeEnabled();
  await noHorizontalOverflow(page);
  await noSeriousAxe(page, 'section[aria-label="운행표"]');
  // On paper only the sheet: no site header, console tabs or sheet buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('#site-header')).toBeHidden();
  await expect(page.getByRole('navigation', { name: '관리 메뉴' })).toBeHidden();
  await expect(sheet.getByRole('button', { name: '인쇄' })).toBeHidden();
  await expect(item).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // The customer: tomorrow's booking shows the driver and the plate; no number (기사님과 메시지 instead, issue 50).
  const context = await browser.newContext();
  const customerPage = await context.newPage();
  await loginAs(customerPage, customer.token);
  await customerPage.goto(`/butler/request/${soon.id}`);
  await expect(customerPage.getByTestId('trip-stage').locator('[aria-current="step"]')).toHaveText('배차 완료');
  const dispatch = customerPage.getByRole('region', { name: '배차 정보' });
  await expect(dispatch).toContainText(name);
  await expect(dispatch).not.toContainText(dashed(phone));
  await expect(dispatch.getByRole('link', { name: '기사님과 메시지로 연락하기' })).toHaveAttribute('href', '#detail-messages');
  await expect(customerPage.getByRole('heading', { name: '기사님과 메시지' })).toBeVisible();
  await expect(dispatch).toContainText(trip.car.license_plate ?? '-');
  // Assigning confirmed the pending booking.
  await expect(customerPage.getByRole('region', { name: '요청 정보' })).toContainText('확정');
  await noSeriousAxe(customerPage);
  await noHorizontalOverflow(customerPage);

  // Five days out: 배차 완료, but no driver yet.
  await customerPage.goto(`/butler/request/${far.id}`);
  await expect(customerPage.getByTestId('trip-stage').locator('[aria-current="step"]')).toHaveText('배차 완료');
  await expect(customerPage.getByText('기사님과 차량 번호는 운행 전날부터 이 화면에서 확인할 수 있습니다.')).toBeVisible();
  await expect(customerPage.getByRole('region', { name: '배차 정보' })).toHaveCount(0);
  await expect(customerPage.getByRole('region', { name: '진행 상황' })).not.toContainText(name);
  // The list card carries the stage next to the status (the latest day's group is open).
  await customerPage.goto('/my/butler-requests');
  const listed = customerPage.getByTestId('butler-request-item').filter({ hasText: `요청 #${far.id}` });
  await expect(listed).toContainText('확정');
  await expect(listed.getByTestId('trip-stage-badge')).toHaveText('배차 완료');
  await context.close();
});

test('a refused assignment shows the API’s reason; 배정 해제 puts the trip back in 미배차', async ({ page, request }) => {
  const customer = await newUser(request);
  const booked = await placeButler(request, customer.token);
  const off = await apiDriver(request, `휴직${unique()}`);
  const spare = await apiDriver(request, `대기${unique()}`);
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await openConsole(page, 'dispatch');
  await page.getByLabel('날짜').fill(booked.day);

  const card = page.getByRole('article', { name: `운행 #${booked.id}`, exact: true });
  await card.getByRole('button', { name: `#${booked.id} 기사 배정` }).click();
  const dialog = page.getByRole('dialog', { name: `#${booked.id} 기사 배정` });
  await expect(dialog.getByRole('radio', { name: new RegExp(off.name) })).toBeVisible();
  // The driver stops working while the dialog is open: the API refuses, the dialog says why.
  expect((await request.patch(`/api/admin/drivers/${off.id}`, { headers: ADMIN, data: { active: false } })).status()).toBe(200);
  await dialog.getByRole('radio', { name: new RegExp(off.name) }).check();
  await dialog.getByRole('button', { name: '배정', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('근무하지 않는 기사입니다. 기사 정보에서 근무 상태를 확인해주세요.');
  await dialog.getByRole('radio', { name: new RegExp(spare.name) }).check();
  await dialog.getByRole('button', { name: '배정', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(card).toContainText(spare.name);

  // 배정 해제 (confirmed in the browser's dialog): back to 접수 in 미배차.
  page.once('dialog', (d) => void d.accept());
  await card.getByRole('button', { name: `#${booked.id} 배정 해제` }).click();
  await expect(page.getByRole('status')).toHaveText(`#${booked.id} 기사 배정을 해제했습니다.`);
  await expect(page.getByRole('region', { name: '미배차' }).getByRole('article', { name: `운행 #${booked.id}`, exact: true })).toContainText('접수');
  await expect(card).not.toContainText(spare.name);
  const mine = (await request.get(`/api/admin/dispatch?from=${booked.day}`, { headers: ADMIN }).then((r) => r.json())).data as DispatchBoardAnswer;
  expect(mine.trips.find((t) => t.id === booked.id)).toMatchObject({ driver: null, stage: 'RECEIVED' });
});
