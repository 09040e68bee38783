import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, orderableCar, waitForSite } from './users';
import { won } from '../../src/domain/money';

test.beforeAll(async ({ request }) => waitForSite(request));


test('a whole order from the car page: coupon, points, consents, sandbox card registration, completion to /my; a reload sends nothing twice', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request, { points: 125_000, coupons: ['LUXE300', 'WELCOME10', 'EXPIRED20'] });
  await loginAs(page, user.token);
  // From the car page: choose 12 months on the slider, then 구독 신청하기.
  const detail = (await (await request.get(`/api/subscriptions/cars/${car.id}`)).json()).data.car;
  const terms = [1, 3, 6, 12, 24, 36, 48, 60, 72, 84, 96].filter((t) => detail[`subscription_fee_${t}`] !== null);
  await page.goto(`/car/${car.id}`);
  const slider = page.getByLabel('구독 기간');
  await slider.fill(String(terms.indexOf(12)));
  await expect(page.getByTestId('selected-month')).toHaveText('12개월');
  await page.getByRole('button', { name: '구독 신청하기' }).click();
  await expect(page).toHaveURL(new RegExp(`/inquire\\?month=12&carId=${car.id}$`));

  await expect(page.getByTestId('order-fee')).toHaveText(`${won(car.fee)}/월`);
  await expect(page.getByTestId('point-balance')).toHaveText('125,000 P');

  await page.getByRole('button', { name: '쿠폰 선택 안 함' }).click();
  const options = page.getByTestId('coupon-options');
  await expect(options).toHaveCSS('max-height', '260px');
  await expect(options.getByRole('option')).toHaveCount(3); // none + the two in-period coupons, not the expired one
  await options.getByRole('option', { name: /30만원 할인/ }).click();

  await page.getByLabel('사용할 포인트').fill('12a5000');
  await expect(page.getByLabel('사용할 포인트')).toHaveValue('125000');
  await expect(page.getByText('120,000 P로 적용됩니다.')).toBeVisible();
  await expect(page.getByText('포인트는 10,000원 단위로 사용할 수 있습니다.')).toBeVisible();
  const final = car.fee - 300_000 - 120_000;
  await expect(page.getByTestId('final-price')).toHaveText(won(final));

  const apply = page.getByRole('button', { name: '신청하기' });
  await expect(apply).toBeDisabled();
  await page.getByLabel('[필수] 정기결제 동의').check();
  await expect(apply).toBeDisabled();
  await page.getByLabel('전체 동의').check();
  await expect(apply).toBeEnabled();
  await page.getByLabel('[필수] 반납 평가 기준 동의').uncheck();
  await expect(apply).toBeDisabled();
  await expect(page.getByLabel('전체 동의')).not.toBeChecked();
  await page.getByLabel('전체 동의').check();
  await apply.click();

  const summary = page.getByRole('dialog', { name: '주문 확인' });
  await expect(summary.getByTestId('final-price')).toHaveText(won(final));
  await summary.getByRole('button', { name: '다음' }).click();

  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  // Read the return URL as it arrives: the page replaces it once handled.
  let returnUrl = '';
  const back = page.waitForURL((u) => (u.searchParams.has('billingKey') ? ((returnUrl = u.href), true) : false));
  await page.getByRole('button', { name: /승인/ }).click();
  await back;
  expect(new URL(returnUrl).searchParams.get('month')).toBe('12');
  expect(new URL(returnUrl).searchParams.get('carId')).toBe(String(car.id));

  const done = page.getByRole('dialog', { name: '구독 신청 완료' });
  // The card was charged at once: the dialog says so (no 입금 to wait for).
  await expect(done.getByTestId('charged-sentence')).toHaveText(`등록하신 카드로 ${final.toLocaleString('ko-KR')}원이 결제되었습니다.`);
  await expect(done).toContainText('담당 매니저가 차량 인도 일정을 안내해드리기 위해 연락드릴 예정입니다.');
  await expect(done).not.toContainText('입금');
  await expect(page).not.toHaveURL(/billingKey=/);

  const list = await apiAs(request, user.token, 'GET', '/subscriptions/requests');
  expect(list.body.data.subscription_requests).toHaveLength(1);
  expect(list.body.data.subscription_requests[0]).toMatchObject({ month: 12, point_used: 120_000, coupon_discount: 300_000, final_fee: final });
  expect(await page.evaluate(() => [sessionStorage.getItem('subscribeOrderPointAmount'), sessionStorage.getItem('subscribeOrderCouponId')])).toEqual([null, null]);

  // The same return again (a reload of it, or a second tab) creates nothing new.
  await page.goto(returnUrl);
  await expect(page.getByRole('dialog', { name: '구독 신청 완료' })).toBeVisible();
  const again = await apiAs(request, user.token, 'GET', '/subscriptions/requests');
  expect(again.body.data.subscription_requests).toHaveLength(1);
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(5_000);

  await page.getByRole('dialog', { name: '구독 신청 완료' }).getByRole('link', { name: '마이페이지로 이동' }).click();
  await expect(page).toHaveURL(/\/my\/?$/);
});

test('a failed card registration shows the provider message and creates nothing', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request, { points: 50_000 });
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await page.getByLabel('사용할 포인트').fill('50000');
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  const alert = page.waitForEvent('dialog');
  await page.getByRole('button', { name: /실패/ }).click();
  const dialog = await alert;
  expect(dialog.message()).toBe('결제에 실패했습니다: 테스트 결제창에서 카드 등록이 거절되었습니다.');
  await dialog.accept();
  await expect(page.getByRole('button', { name: '신청하기' })).toBeVisible();
  expect((await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests).toHaveLength(0);
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(50_000);
});

test('back goes to the car, or to the garage without a car; a term without a fee shows 문의 필요', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  const detail = (await (await request.get(`/api/subscriptions/cars/${car.id}`)).json()).data.car;
  const missing = [1, 3, 6, 24, 36, 48, 60, 72, 84, 96].find((t) => detail[`subscription_fee_${t}`] === null);
  if (missing) {
    await page.goto(`/inquire?month=${missing}&carId=${car.id}`);
    await expect(page.getByTestId('order-fee')).toHaveText('문의 필요');
    // Nothing to pay: the consultation path instead of consents and 신청하기.
    await expect(page.getByLabel('전체 동의')).toHaveCount(0);
    await expect(page.getByRole('button', { name: '신청하기' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: '문의하기' })).toHaveAttribute('href', /^\/contact\?subject=/);
  }
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await page.getByRole('button', { name: '뒤로' }).click();
  await expect(page).toHaveURL(new RegExp(`/car/${car.id}/?$`));
  await page.goto('/inquire?month=12');
  await page.getByRole('button', { name: '뒤로' }).click();
  await expect(page).toHaveURL(/\/garage\/?$/);
});

test('the order page needs a login', async ({ page }) => {
  await page.goto('/inquire?month=12&carId=1');
  await expect(page).toHaveURL(/\/login\/?$/);
  expect(await page.evaluate(() => localStorage.getItem('redirectAfterLogin'))).toBe('/inquire?month=12&carId=1');
});
