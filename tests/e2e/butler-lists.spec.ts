import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { addDays } from '../../src/domain/dates';
import { mockPostcode, sampleAddress } from './mocks/postcode';
import { butlerCouponId, butlerRequests, confirmButler, placeButler } from './butler-users';
import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

const dotted = (day: string) => day.replace(/-/g, '.');
const literally = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** The chevron's rotation: 180deg while its group is open. */
const rotation = (group: Locator) => group.getByTestId('group-chevron').evaluate((el) => getComputedStyle(el).rotate);

/** The addresses the postcode stand-in offers. */
const ADDRESSES = [
  sampleAddress('서울 강남구 테헤란로 152', '06236', '강남구'),
  sampleAddress('경기 성남시 분당구 판교역로 166', '13529', '성남시 분당구'),
  sampleAddress('서울 서초구 서초대로 396', '06619', '서초구'),
];

/** Picks one of ADDRESSES in the open postcode dialog; the dialog closes. */
async function pickAddress(page: Page, title: string, address: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: address }).click();
  await expect(dialog).toBeHidden();
}

async function noSeriousAxe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
}

async function noHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

test('butler requests: empty text, grouped by start date newest first, counts, chevron, first open; card and 수정하기 open the detail', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto('/my/butler-requests');
  await expect(page.getByRole('heading', { name: '버틀러 요청 내역' })).toBeVisible();
  await expect(page.getByText('아직 버틀러 요청이 없습니다')).toBeVisible();

  // Two trips on a later day first, then one on an earlier day: creation order must not decide.
  const late1 = await placeButler(request, user.token, { start: '09:00' });
  const late2 = await placeButler(request, user.token, { day: late1.day, start: '13:00' });
  const early = await placeButler(request, user.token, { day: addDays(late1.day, -1) });
  await page.reload();
  const groups = page.getByTestId('date-group');
  await expect(groups).toHaveCount(2);
  await expect(groups.nth(0).locator('summary')).toContainText(dotted(late1.day));
  await expect(groups.nth(0).locator('summary')).toContainText('2건');
  await expect(groups.nth(1).locator('summary')).toContainText(dotted(early.day));
  await expect(groups.nth(1).locator('summary')).toContainText('1건');
  await expect(groups.nth(0)).toHaveAttribute('open');
  await expect(groups.nth(1)).not.toHaveAttribute('open');
  // Newest start first inside a day.
  const items = groups.nth(0).getByTestId('butler-request-item');
  await expect(items.nth(0)).toContainText(`요청 #${late2.id}`);
  await expect(items.nth(1)).toContainText(`요청 #${late1.id}`);
  await expect(items.nth(0)).toContainText('13:00');

  await expect(groups.nth(0).getByTestId('group-chevron')).toBeVisible();
  await expect(groups.nth(1).getByTestId('group-chevron')).toBeVisible();
  expect(await rotation(groups.nth(0))).toBe('180deg');
  expect(await rotation(groups.nth(1))).toBe('none');
  await groups.nth(1).locator('summary').click();
  await expect(groups.nth(1)).toHaveAttribute('open');
  await expect.poll(() => rotation(groups.nth(1))).toBe('180deg');
  await groups.nth(0).locator('summary').click();
  await expect(groups.nth(0)).not.toHaveAttribute('open');
  await expect(items.nth(0)).toBeHidden();

  const earlyItem = page.getByTestId('butler-request-item').filter({ hasText: `요청 #${early.id}` });
  await expect(earlyItem.getByRole('link', { name: '수정하기' })).toHaveAttribute('href', `/butler/request/${early.id}?edit=1`);
  await earlyItem.getByRole('link', { name: /인천/ }).click();
  await expect(page).toHaveURL(new RegExp(`/butler/request/${early.id}$`));
  await expect(page.getByRole('region', { name: '요청 정보' })).toContainText(`#${early.id}`);
});

test('butler subscriptions: empty text, grouped by the start date of their request; the card goes to /butler/subscribe/{id}, no 수정하기 on a confirmed booking', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto('/my/butler-subscriptions');
  await expect(page.getByRole('heading', { name: '버틀러 구독 내역' })).toBeVisible();
  await expect(page.getByText('아직 버틀러 구독이 없습니다')).toBeVisible();

  const early = await placeButler(request, user.token);
  const late = await placeButler(request, user.token, { day: addDays(early.day, 2) });
  const subLate = await confirmButler(request, late.id);
  const subEarly = await confirmButler(request, early.id);
  await page.reload();
  const groups = page.getByTestId('date-group');
  await expect(groups).toHaveCount(2);
  await expect(groups.nth(0).locator('summary')).toContainText(dotted(late.day));
  await expect(groups.nth(0).locator('summary')).toContainText('1건');
  await expect(groups.nth(0)).toHaveAttribute('open');
  await expect(groups.nth(1)).not.toHaveAttribute('open');
  await expect(groups.nth(0).getByTestId('group-chevron')).toBeVisible();

  const first = groups.nth(0).getByTestId('butler-subscription-item');
  await expect(first).toContainText(`구독 #${subLate.id}`);
  await expect(first).toContainText('확정');
  // Confirmed bookings cannot be edited (the server answers 409): the list does not offer it.
  await expect(first.getByRole('link', { name: /수정하기/ })).toHaveCount(0);
  await expect(first.getByRole('link', { name: literally(late.car.model.name) })).toHaveAttribute('href', `/butler/subscribe/${subLate.id}`);
  await groups.nth(1).locator('summary').click();
  await groups.nth(1).getByRole('link', { name: literally(early.car.model.name) }).click();
  await expect(page).toHaveURL(new RegExp(`/butler/subscribe/${subEarly.id}$`));
  await expect(page.getByRole('region', { name: '요청 정보' })).toContainText(`#${early.id}`);
});

test('butler request detail: car, trip, waypoints, request and payment info; placeholder without an image', async ({ page, request }) => {
  const user = await newUser(request, { points: 50_000, coupons: ['BUTLER50'] });
  const couponId = await butlerCouponId(request, user.token, 'BUTLER50');
  const r = await placeButler(request, user.token, {
    start: '10:30', end: '18:00', description: '공항 픽업, 피켓 준비',
    way_point_requests: [{ address: '서울 종로구 사직로 161', scheduled_time: null }],
    point_amount: 10_000, coupon_id: couponId,
  });
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${r.id}`);

  const car = page.getByRole('region', { name: '차량 정보' });
  await expect(car).toContainText(r.car.model.brand.name);
  await expect(car).toContainText(r.car.model.name);
  if (r.car.sub_model) await expect(car).toContainText(r.car.sub_model);
  await expect(car.getByRole('img', { name: `${r.car.model.brand.name} ${r.car.model.name}` })).toBeVisible();
  const trip = page.getByRole('region', { name: '운행 정보' });
  await expect(trip).toContainText(`${dotted(r.day)} 10:30`);
  await expect(trip).toContainText(`${dotted(r.day)} 18:00`);
  await expect(trip).toContainText('서울 중구 세종대로 110');
  await expect(trip).toContainText('인천 중구 공항로 272');
  await expect(trip).toContainText('공항 픽업, 피켓 준비');
  const waypoints = page.getByRole('region', { name: '경유지' });
  await expect(waypoints.getByRole('listitem')).toHaveCount(1);
  await expect(waypoints).toContainText('서울 종로구 사직로 161');
  await expect(waypoints).toContainText('시간 미정');
  const info = page.getByRole('region', { name: '요청 정보' });
  await expect(info).toContainText(`#${r.id}`);
  await expect(info).toContainText('접수');
  const payment = page.getByRole('region', { name: '결제 정보' });
  await expect(payment).toContainText('10,000 P');
  await expect(payment).toContainText('의전 5만원 할인 (BUTLER50)');
  await expect(payment).toContainText(`${r.final_price.toLocaleString('ko-KR')}원`);
  await expect(payment).not.toContainText('₩');
  await noSeriousAxe(page);
  await noHorizontalOverflow(page);

  // A car without any image shows the placeholder.
  await page.route('**/api/butlers/requests', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    for (const item of body.data.butler_requests) Object.assign(item.car, { images: [] }, { model: { ...item.car.model, image: null } });
    await route.fulfill({ response: res, json: body });
  });
  await page.reload();
  await expect(page.getByRole('img', { name: '차량 이미지 없음' })).toBeVisible();
});

test('butler request detail: 수정하기 → edit times, addresses through the postcode search, description and waypoints; 저장하기 reloads the item', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await placeButler(request, user.token, { way_point_requests: [{ address: '서울 종로구 사직로 161', scheduled_time: null }] });
  await mockPostcode(page, ADDRESSES);
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${r.id}?edit=1`);
  const form = page.getByRole('form', { name: '요청 수정' });
  await expect(form).toBeVisible();
  await form.getByRole('button', { name: '취소', exact: true }).click();
  await expect(form).toBeHidden();
  await page.getByRole('button', { name: '수정하기' }).click();

  await expect(form.getByLabel('출발 시간')).toHaveValue(`${r.day}T09:00`);
  await form.getByLabel('출발 시간').fill(`${r.day}T08:00`);
  await form.getByLabel('도착 시간 (선택)').fill(`${r.day}T16:30`);
  await form.getByLabel('출발지').click();
  await pickAddress(page, '출발지 주소 검색', '서울 강남구 테헤란로 152');
  await expect(form.getByLabel('출발지')).toHaveValue('서울 강남구 테헤란로 152');
  await form.getByLabel('도착지').press('Enter');
  await pickAddress(page, '도착지 주소 검색', '경기 성남시 분당구 판교역로 166');
  await form.getByLabel('요청 사항').fill('VIP 의전, 생수 준비');
  await form.getByRole('button', { name: '경유지 1 삭제' }).click();
  await form.getByRole('button', { name: '경유지 추가' }).click();
  await form.getByRole('button', { name: '경유지 추가' }).click();
  await form.getByLabel('경유지 1', { exact: true }).click();
  await pickAddress(page, '경유지 주소 검색', '서울 서초구 서초대로 396');
  await form.getByLabel('경유지 1 시간').fill(`${r.day}T12:00`);
  // The second row stays blank: it is not sent.

  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  await page.route(`**/api/butlers/requests/${r.id}`, async (route) => {
    if (route.request().method() === 'PUT') await held;
    await route.continue();
  });
  // 8 h 30 min: an hour of overtime, so the save asks about the new price first.
  page.once('dialog', (d) => void d.accept());
  await form.getByRole('button', { name: '저장하기' }).click();
  await expect(form.getByRole('button', { name: '저장 중...' })).toBeDisabled();
  release();
  await expect(page.getByRole('status')).toHaveText('요청이 성공적으로 수정되었습니다.');
  await expect(form).toBeHidden();

  const trip = page.getByRole('region', { name: '운행 정보' });
  await expect(trip).toContainText(`${dotted(r.day)} 08:00`);
  await expect(trip).toContainText(`${dotted(r.day)} 16:30`);
  await expect(trip).toContainText('서울 강남구 테헤란로 152');
  await expect(trip).toContainText('경기 성남시 분당구 판교역로 166');
  await expect(trip).toContainText('VIP 의전, 생수 준비');
  const waypoints = page.getByRole('region', { name: '경유지' });
  await expect(waypoints.getByRole('listitem')).toHaveCount(1);
  await expect(waypoints).toContainText(`서울 서초구 서초대로 396 · ${dotted(r.day)} 12:00`);

  const [saved] = (await butlerRequests(request, user.token)).filter((x) => x.id === r.id);
  expect(saved.start_at).toBe(new Date(`${r.day}T08:00:00+09:00`).toISOString());
  expect(saved.start_location).toBe('서울 강남구 테헤란로 152');
  expect(saved.way_points.map((w) => w.address)).toEqual(['서울 서초구 서초대로 396']);
});

test('butler request detail: a refused edit shows 요청 수정에 실패했습니다. with the server message; confirmed requests offer no edit, only the cancel by the rule', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await placeButler(request, user.token);
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${r.id}`);
  await page.getByRole('button', { name: '수정하기' }).click();
  await page.getByLabel('요청 사항').fill('확정 전에 바꾸려던 내용');
  await confirmButler(request, r.id);
  await page.getByRole('button', { name: '저장하기' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('요청 수정에 실패했습니다.');
  await expect(alert).toContainText('확정된 의전 요청은 수정할 수 없습니다.');

  await page.reload();
  await expect(page.getByRole('region', { name: '요청 정보' })).toContainText('확정');
  await expect(page.getByText('확정된 예약은 수정할 수 없습니다. 취소는 위의 요청 취소에서 환불 규정에 따라 할 수 있습니다.')).toBeVisible();
  await expect(page.getByRole('button', { name: '수정하기' })).toHaveCount(0);
  // Confirmed, it can still be cancelled by the rule shown before paying (issue 50).
  await expect(page.getByRole('button', { name: '요청 취소' })).toBeVisible();
});

test('butler request detail: 요청 취소 asks first, then cancels and refunds the points', async ({ page, request }) => {
  const user = await newUser(request, { points: 20_000 });
  const r = await placeButler(request, user.token, { point_amount: 20_000 });
  expect((await apiAs(request, user.token, 'GET', '/accounts')).body.data.point).toBe(0);
  await loginAs(page, user.token);
  await page.goto(`/butler/request/${r.id}`);

  // The question comes after the refund preview's fetch: wait for it, or the next handler
  // registered below would meet this first dialog too.
  await Promise.all([page.waitForEvent('dialog').then((d) => d.dismiss()), page.getByRole('button', { name: '요청 취소' }).click()]);
  await expect(page.getByRole('button', { name: '요청 취소' })).toBeEnabled();
  await expect(page.getByRole('region', { name: '요청 정보' })).toBeVisible();
  expect(await butlerRequests(request, user.token)).toHaveLength(1);

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: '요청 취소' }).click();
  await expect(page.getByRole('status')).toHaveText('요청이 취소되었습니다.');
  expect(await butlerRequests(request, user.token)).toHaveLength(0);
  expect((await apiAs(request, user.token, 'GET', '/accounts')).body.data.point).toBe(20_000);

  await page.getByRole('link', { name: '마이페이지로 돌아가기' }).click();
  await expect(page).toHaveURL(/\/my\/?$/);
});

test('butler request detail: a failed cancel says 요청 취소에 실패했습니다.', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await placeButler(request, user.token);
  await loginAs(page, user.token);
  await page.route(`**/api/butlers/requests/${r.id}`, (route) =>
    route.request().method() === 'DELETE' ? route.fulfill({ status: 409, json: { code: 1409, message: '확정된 의전 요청은 취소할 수 없습니다. 고객센터로 문의해주세요.', errors: {} } }) : route.continue(),
  );
  await page.goto(`/butler/request/${r.id}`);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: '요청 취소' }).click();
  await expect(page.getByRole('alert')).toContainText('요청 취소에 실패했습니다.');
  await expect(page.getByRole('alert')).toContainText('확정된 의전 요청은 취소할 수 없습니다.');
});

test('butler details: missing id, not found, failed load; 마이페이지로 돌아가기 goes to /my', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto('/butler/request/detail/');
  await expect(page.getByRole('alert')).toHaveText('요청 ID가 없습니다.');
  await page.goto('/butler/request/99999999');
  await expect(page.getByRole('alert')).toHaveText('요청을 찾을 수 없습니다.');
  await page.goto('/butler/subscribe/99999999');
  await expect(page.getByRole('alert')).toHaveText('요청을 찾을 수 없습니다.');
  await page.getByRole('link', { name: '마이페이지로 돌아가기' }).click();
  await expect(page).toHaveURL(/\/my\/?$/);

  await page.route('**/api/butlers', (route) => route.fulfill({ status: 500, json: { code: 1500, message: '오류', errors: {} } }));
  await page.goto('/butler/subscribe/1');
  await expect(page.getByRole('alert')).toHaveText('요청 정보를 불러오는데 실패했습니다.');
  await page.route('**/api/butlers/requests', (route) => route.fulfill({ status: 500, json: { code: 1500, message: '오류', errors: {} } }));
  await page.goto('/butler/request/1');
  await expect(page.getByRole('alert')).toHaveText('요청 정보를 불러오는데 실패했습니다.');
});

test('butler subscription detail shows its request, confirmed: no edit, cancel by the rule, the way to ask instead', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await placeButler(request, user.token, { description: '골프장 이동' });
  const sub = await confirmButler(request, r.id);
  await loginAs(page, user.token);
  await page.goto(`/butler/subscribe/${sub.id}`);
  await expect(page.getByRole('heading', { name: '의전 예약 상세' })).toBeVisible();
  await expect(page.getByRole('region', { name: '요청 정보' })).toContainText(`#${r.id}`);
  await expect(page.getByRole('region', { name: '운행 정보' })).toContainText('골프장 이동');
  await expect(page.getByRole('region', { name: '차량 정보' })).toContainText(r.car.model.name);
  await expect(page.getByText('확정된 예약은 수정할 수 없습니다. 취소는 위의 요청 취소에서 환불 규정에 따라 할 수 있습니다.')).toBeVisible();
  await expect(page.getByRole('button', { name: '수정하기' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: '요청 취소' })).toBeVisible();
  await noSeriousAxe(page);
  await noHorizontalOverflow(page);
});

test('my page butler cards and /my/butler link a subscription to /butler/subscribe/{id} and a request to /butler/request/{id}', async ({ page, request }) => {
  const user = await newUser(request);
  const confirmed = await placeButler(request, user.token);
  const sub = await confirmButler(request, confirmed.id);
  const pending = await placeButler(request, user.token, { start: '11:00' });
  await loginAs(page, user.token);
  await page.goto('/my');
  const subCard = page.getByRole('region', { name: '버틀러 구독' });
  const reqCard = page.getByRole('region', { name: '버틀러 요청' });
  await expect(subCard.getByRole('link', { name: '전체 보기' })).toHaveAttribute('href', '/my/butler-subscriptions');
  await expect(reqCard.getByRole('link', { name: '전체 보기' })).toHaveAttribute('href', '/my/butler-requests');
  const subLink = subCard.getByRole('link', { name: literally(confirmed.car.model.name) });
  await expect(subLink).toHaveAttribute('href', `/butler/subscribe/${sub.id}`);
  await expect(subLink).toContainText(`${dotted(confirmed.day)} 09:00 ~ 17:00`);
  const reqLink = reqCard.getByRole('link', { name: literally(pending.car.model.name) });
  await expect(reqLink).toHaveAttribute('href', `/butler/request/${pending.id}`);
  await reqLink.click();
  await expect(page).toHaveURL(new RegExp(`/butler/request/${pending.id}$`));
  await expect(page.getByRole('region', { name: '운행 정보' })).toContainText(`${dotted(pending.day)} 11:00`);

  await page.goto('/my');
  await page.getByRole('link', { name: '의전 예약 한눈에 보기' }).click();
  await expect(page).toHaveURL(/\/my\/butler$/);
  const subs = page.getByTestId('butler-subscription-card');
  const reqs = page.getByTestId('butler-request-card');
  // The confirmed booking is listed once, as its subscription; the requests hold the one still waiting.
  await expect(subs).toHaveCount(1);
  await expect(reqs).toHaveCount(1);
  await expect(reqs).toContainText(`요청 #${pending.id}`);
  await expect(subs.getByRole('link')).toHaveAttribute('href', `/butler/subscribe/${sub.id}`);
  await expect(reqs.filter({ hasText: `요청 #${pending.id}` }).getByRole('link')).toHaveAttribute('href', `/butler/request/${pending.id}`);
  await noSeriousAxe(page);
  await subs.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/butler/subscribe/${sub.id}$`));
});

test('butler lists and the edit form pass axe and fit a 390 px screen', async ({ page, request }) => {
  const user = await newUser(request);
  const r = await placeButler(request, user.token, { way_point_requests: [{ address: '서울 종로구 사직로 161', scheduled_time: null }] });
  const other = await placeButler(request, user.token);
  await confirmButler(request, other.id);
  await loginAs(page, user.token);
  for (const path of ['/my/butler-requests', '/my/butler-subscriptions']) {
    await page.goto(path);
    await expect(page.getByTestId('date-group').first()).toBeVisible();
    await noSeriousAxe(page);
    await noHorizontalOverflow(page);
  }
  await page.goto(`/butler/request/${r.id}?edit=1`);
  await expect(page.getByRole('form', { name: '요청 수정' })).toBeVisible();
  await noSeriousAxe(page);
  await noHorizontalOverflow(page);
});
