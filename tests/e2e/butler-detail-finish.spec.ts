import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { quoteButler, type ButlerRequestView } from '../../src/domain/butler';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { butlerCars, butlerRequests, confirmButler } from './butler-users';
import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, sandboxKey, waitForSite } from './users';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { won } from '../../src/domain/money';

/**
 * The butler detail, edit and lists finish (issue 21): everything the customer entered, the new
 * price before an edit is saved and a confirmation when it changes, the current state after a
 * refused edit or cancel (409), no 수정하기 on confirmed bookings, money as 555,000원, 44 px
 * targets and wrapped addresses on a 390 px screen.
 */

test.beforeAll(async ({ request }) => waitForSite(request));

const LONG_DESTINATION = '경기 성남시 분당구 판교역로 166 카카오판교아지트 B동 지하 2층 VIP 전용 주차장 하차장 앞';

// Tests run in parallel on one database: each booking starts on a random day and walks on when the car is taken.
let cursor = 7 + Math.floor(Math.random() * 150);

interface Extra {
  start?: string;
  end?: string;
  end_location?: string;
  passenger_count?: number;
  purpose?: string | null;
  memo?: string | null;
  driver_preference?: 'male' | 'female' | 'any' | '';
}

/** A butler request with the extra info filled in, through the API (sandbox billing key). */
async function book(request: APIRequestContext, token: string, x: Extra = {}): Promise<ButlerRequestView & { day: string }> {
  const cars = (await butlerCars(request)).map((c) => c.id);
  for (let attempt = 0; attempt < 40; attempt++) {
    const day = addDays(todayInKorea(new Date()), (cursor++ % 170) + 3);
    const res = await apiAs(request, token, 'POST', `/butlers/cars/${cars[attempt % cars.length]}/request`, {
      start_at: `${day}T${x.start ?? '09:00'}:00+09:00`,
      end_at: `${day}T${x.end ?? '17:00'}:00+09:00`,
      start_location: '서울 중구 세종대로 110',
      end_location: x.end_location ?? '인천 중구 공항로 272',
      description: null,
      way_point_requests: [],
      passenger_count: x.passenger_count ?? 2,
      purpose: x.purpose ?? null,
      memo: x.memo ?? null,
      driver_preference: x.driver_preference ?? 'any',
      coupon_id: null,
      point_amount: null,
      billing_key: await sandboxKey(request),
    });
    if (res.status === 409) continue;
    if (res.status !== 201) throw new Error(`butler request: ${res.status} ${JSON.stringify(res.body)}`);
    return { ...(res.body.data.butler_request as ButlerRequestView), day };
  }
  throw new Error('no free butler car and day');
}

async function current(request: APIRequestContext, token: string, id: number) {
  return (await butlerRequests(request, token)).find((r) => r.id === id)!;
}

/** Staff cancel (everything refunded). */
async function staffCancel(request: APIRequestContext, id: number) {
  const res = await request.post(`/api/admin/butler-requests/${id}/cancel`, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  expect(res.ok()).toBe(true);
}

/** Width and height of an element's box in CSS px. */
const size = async (l: Locator) => {
  const box = await l.boundingBox();
  if (!box) throw new Error('no box');
  return { width: Math.round(box.width), height: Math.round(box.height) };
};
async function tappable(l: Locator) {
  const s = await size(l);
  expect(s.width, 'tap target width').toBeGreaterThanOrEqual(44);
  expect(s.height, 'tap target height').toBeGreaterThanOrEqual(44);
}

/** No ₩ sign in the page's main content. */
async function noWonSign(page: Page) {
  expect(await page.locator('main').innerText()).not.toContain('₩');
}

test('details show passengers, purpose, driver preference and memo; money as 원', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await book(request, user.token, { passenger_count: 5, purpose: '공항 픽업', memo: '유아용 카시트 1개\n생수 준비 부탁드립니다', driver_preference: 'female' });
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${r.id}`);
  const extra = page.getByRole('region', { name: '추가 정보' });
  await expect(extra).toContainText('탑승 인원5명');
  await expect(extra).toContainText('이용 목적공항 픽업');
  await expect(extra).toContainText('기사 선호여성');
  await expect(extra).toContainText('유아용 카시트 1개');
  await expect(extra).toContainText('생수 준비 부탁드립니다');
  const payment = page.getByRole('region', { name: '결제 정보' });
  await expect(payment).toContainText(`기본 요금${won(r.base_fee)}`);
  await expect(payment).toContainText(`결제 금액${won(r.final_price)}`);
  await noWonSign(page);

  // Nothing chosen reads as such, not as a blank.
  const bare = await book(request, user.token, { driver_preference: '' });
  await page.goto(`/butler/request/${bare.id}`);
  const bareExtra = page.getByRole('region', { name: '추가 정보' });
  await expect(bareExtra).toContainText('탑승 인원2명');
  await expect(bareExtra).toContainText('이용 목적없음');
  await expect(bareExtra).toContainText('기사 선호지정 안 함');
  await expect(bareExtra).toContainText('메모없음');
});

test('edit shows the new price as the server charges it and asks before saving a change of price', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await book(request, user.token);
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${r.id}?edit=1`);
  const form = page.getByRole('form', { name: '요청 수정' });
  const preview = form.getByTestId('edit-price');
  await expect(preview.getByTestId('edit-price-current')).toHaveText(won(r.final_price));
  await expect(preview.getByTestId('edit-price-final')).toHaveText(won(r.final_price));
  await expect(preview.getByTestId('edit-price-difference')).toHaveText('결제 금액은 그대로입니다.');

  // A description alone keeps the price: saved without a question.
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void (dialogs.length === 1 ? d.dismiss() : d.accept());
  });
  await form.getByLabel('요청 사항').fill('가격은 그대로');
  await form.getByRole('button', { name: '저장하기' }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 성공적으로 수정되었습니다.');
  expect(dialogs).toEqual([]);

  // Until 19:30: 3 started hours of overtime.
  await page.getByRole('button', { name: '수정하기' }).click();
  await form.getByLabel('도착 시간 (선택)').fill(`${r.day}T19:30`);
  const longer = quoteButler(r.car, `${r.day}T09:00:00+09:00`, `${r.day}T19:30:00+09:00`, null, 0);
  expect(longer.overtimeHours).toBe(3);
  const more = longer.final - r.final_price;
  await expect(preview.getByTestId('edit-price-final')).toHaveText(won(longer.final));
  await expect(preview).toContainText(`초과 요금 (3시간 × ${won(longer.overtimeRate)})`);
  await expect(preview.getByTestId('edit-price-difference')).toHaveText(`차액 ${won(more)}을 등록된 카드로 추가 결제합니다.`);

  // The first question is dismissed: nothing is sent.
  await form.getByRole('button', { name: '저장하기' }).click();
  await expect.poll(() => dialogs.length).toBe(1);
  expect(dialogs[0]).toContain(`결제 금액이 ${won(r.final_price)}에서 ${won(longer.final)}으로 바뀝니다.`);
  expect(dialogs[0]).toContain(`차액 ${won(more)}을 등록된 카드로 추가 결제합니다.`);
  await expect(form).toBeVisible();
  expect((await current(request, user.token, r.id)).final_price).toBe(r.final_price);

  // Accepted: the server charges exactly the previewed difference.
  await form.getByRole('button', { name: '저장하기' }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 성공적으로 수정되었습니다.');
  expect(dialogs).toHaveLength(2);
  await expect(page.getByRole('region', { name: '결제 정보' })).toContainText(`결제 금액${won(longer.final)}`);
  const saved = await current(request, user.token, r.id);
  expect(saved).toMatchObject({ final_price: longer.final, paid_amount: longer.final });

  // Back to 17:00: the difference is refunded, and the question says so.
  await page.getByRole('button', { name: '수정하기' }).click();
  await form.getByLabel('도착 시간 (선택)').fill(`${r.day}T17:00`);
  await expect(preview.getByTestId('edit-price-difference')).toHaveText(`차액 ${won(more)}을 결제한 카드로 환불합니다.`);
  await form.getByRole('button', { name: '저장하기' }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 성공적으로 수정되었습니다.');
  expect(dialogs[2]).toContain(`차액 ${won(more)}을 결제한 카드로 환불합니다.`);
  expect(await current(request, user.token, r.id)).toMatchObject({ final_price: r.final_price, paid_amount: r.final_price });
  await noWonSign(page);
});

test('a refused edit (staff confirmed meanwhile) shows the current state and hides edit and cancel', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await book(request, user.token);
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${r.id}`);
  await page.getByRole('button', { name: '수정하기' }).click();
  await page.getByLabel('요청 사항').fill('확정 전에 바꾸려던 내용');
  await confirmButler(request, r.id);
  await page.getByRole('button', { name: '저장하기' }).click();

  const alert = page.getByRole('alert');
  await expect(alert).toContainText('요청 수정에 실패했습니다.');
  await expect(alert).toContainText('확정된 의전 요청은 수정할 수 없습니다.');
  await expect(alert).toContainText('최신 정보를 다시 불러왔습니다.');
  // No reload: the page already shows the confirmed booking and only what still works.
  await expect(page.getByRole('form', { name: '요청 수정' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: '요청 정보' })).toContainText('확정');
  await expect(page.getByText('확정된 예약은 수정할 수 없습니다. 취소는 위의 요청 취소에서 환불 규정에 따라 할 수 있습니다.')).toBeVisible();
  await expect(page.getByRole('button', { name: '수정하기' })).toHaveCount(0);
  // Confirmed, it can still be cancelled by the rule shown before paying (issue 50).
  await expect(page.getByRole('button', { name: '요청 취소' })).toBeVisible();
  await expect(page.getByRole('link', { name: '마이페이지로 돌아가기' })).toBeVisible();
});

test('confirmed by staff meanwhile, the cancel still goes through by the rule it states; a booking cancelled by staff is gone', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await book(request, user.token);
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${r.id}`);
  await expect(page.getByRole('button', { name: '요청 취소' })).toBeVisible();
  await confirmButler(request, r.id);
  // Issue 50: a confirmed booking is cancelled by the refund rule shown before paying (days ahead: in full).
  const asked: string[] = [];
  page.once('dialog', (d) => {
    asked.push(d.message());
    void d.accept();
  });
  await page.getByRole('button', { name: '요청 취소' }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 취소되었습니다.');
  expect(asked[0]).toContain('100%');
  expect((await butlerRequests(request, user.token)).some((x) => x.id === r.id)).toBe(false);

  // Cancelled by staff while the page was open: the edit is refused (404) and the page says the request is gone.
  const other = await book(request, user.token);
  await page.goto(`/butler/request/${other.id}`);
  await page.getByRole('button', { name: '수정하기' }).click();
  await page.getByLabel('요청 사항').fill('취소된 줄 모르고');
  await staffCancel(request, other.id);
  await page.getByRole('button', { name: '저장하기' }).click();
  await expect(page.getByRole('alert')).toHaveText('요청을 찾을 수 없습니다.');
  await expect(page.getByRole('button', { name: '저장하기' })).toHaveCount(0);
});

test('lists: 수정하기 only on pending requests, never on confirmed ones or subscriptions', async ({ page, request }) => {
  const user = await newUser(request);
  const pending = await book(request, user.token);
  const confirmed = await book(request, user.token);
  const sub = await confirmButler(request, confirmed.id);
  await loginAs(page, user.token);

  await page.goto('/my/butler-requests');
  await expect(page.getByRole('heading', { level: 1, name: '의전 요청 내역' })).toBeVisible();
  await expect(page.getByTestId('butler-request-item')).toHaveCount(2);
  for (const g of await page.getByTestId('date-group').all()) if ((await g.getAttribute('open')) === null) await g.locator('summary').click();
  const pendingItem = page.getByTestId('butler-request-item').filter({ hasText: `요청 #${pending.id} ·` });
  const confirmedItem = page.getByTestId('butler-request-item').filter({ hasText: `요청 #${confirmed.id} ·` });
  await expect(confirmedItem).toContainText('확정');
  await expect(pendingItem.getByRole('link', { name: /수정하기/ })).toHaveAttribute('href', `/butler/request/${pending.id}?edit=1`);
  await expect(confirmedItem.getByRole('link', { name: /수정하기/ })).toHaveCount(0);

  await page.goto('/my/butler-subscriptions');
  await expect(page.getByRole('heading', { level: 1, name: '의전 구독 내역' })).toBeVisible();
  const subItem = page.getByTestId('butler-subscription-item').filter({ hasText: `구독 #${sub.id} ·` });
  await expect(subItem).toContainText('확정');
  await expect(page.getByRole('link', { name: /수정하기/ })).toHaveCount(0);

  // ?edit=1 on a confirmed booking does not open the form either.
  await page.goto(`/butler/request/${confirmed.id}?edit=1`);
  await expect(page.getByRole('region', { name: '요청 정보' })).toContainText('확정');
  await expect(page.getByRole('form', { name: '요청 수정' })).toHaveCount(0);
});

test('no English headings a user reads on the butler lists and details', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await book(request, user.token);
  const sub = await confirmButler(request, (await book(request, user.token)).id);
  await loginAs(page, user.token);
  for (const [path, heading] of [
    ['/my/butler-requests', '의전 요청 내역'],
    ['/my/butler-subscriptions', '의전 구독 내역'],
    ['/my/butler', '나의 의전'],
    [`/butler/request/${r.id}`, '의전 요청 상세'],
    [`/butler/subscribe/${sub.id}`, '의전 구독 상세'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    // Latin display type stays decoration only: hidden from assistive technology, beside the Korean heading.
    const headingsText = await page.locator('main').getByRole('heading').allInnerTexts();
    expect(headingsText.join(' '), path).not.toMatch(/[A-Za-z]{3,}/);
  }
});

test('at 390 px: list actions are 44 px targets and a long destination wraps instead of being cut off', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const user = await newUser(request);
  const r = await book(request, user.token, { end_location: LONG_DESTINATION });
  await loginAs(page, user.token);

  await page.goto('/my/butler-requests');
  const item = page.getByTestId('butler-request-item').filter({ hasText: `요청 #${r.id} ·` });
  await tappable(item.getByRole('link', { name: /수정하기/ }));
  await tappable(page.getByTestId('date-group').first().locator('summary'));
  const route = item.getByTestId('butler-route');
  await expect(route).toContainText(LONG_DESTINATION);
  const cut = await route.evaluate((el) => ({ overflow: el.scrollWidth > el.clientWidth, ellipsis: getComputedStyle(el).textOverflow === 'ellipsis', nowrap: getComputedStyle(el).whiteSpace === 'nowrap' }));
  expect(cut).toEqual({ overflow: false, ellipsis: false, nowrap: false });
  expect((await size(route)).height, 'the route takes more than one line').toBeGreaterThan(30);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  await page.goto('/my/butler');
  for (const all of await page.getByRole('link', { name: /전체 보기/ }).all()) await tappable(all);
  await tappable(page.getByRole('link', { name: '마이페이지로 돌아가기' }));
  const card = page.getByTestId('butler-request-card').filter({ hasText: `요청 #${r.id} ·` });
  await expect(card).toContainText(LONG_DESTINATION);

  await page.goto(`/butler/request/${r.id}`);
  await expect(page.getByRole('region', { name: '운행 정보' })).toContainText(LONG_DESTINATION);
  await tappable(page.getByRole('button', { name: '수정하기' }));
  await tappable(page.getByRole('button', { name: '요청 취소' }));
  await tappable(page.getByRole('link', { name: '마이페이지로 돌아가기' }));
  await page.getByRole('button', { name: '수정하기' }).click();
  const form = page.getByRole('form', { name: '요청 수정' });
  await tappable(form.getByRole('button', { name: '저장하기' }));
  await tappable(form.getByRole('button', { name: '취소', exact: true }));
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});
