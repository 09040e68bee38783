import { expect, test } from './fixtures';
import { mockPostcode } from './mocks/postcode';
import { apiAs, hydrated, loginAs, newUser, nextAlert, orderableCar, signupUser, waitForSite } from './users';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';
import { carOptionPrices, REGIONAL_DELIVERY_FEE, type CarOptionPrices } from '../../src/domain/subscription-price';
import type { Car } from '../../src/domain/car';
import { won } from '../../src/domain/money';

/**
 * Issue 38: the options and the whole price before login. On the car page a visitor picks a mileage
 * plan, the youngest driver's band, an extra driver and 탁송 and sees 오늘 결제 금액, 2회차부터 매월
 * and the total; logs in; the order page keeps the choice, takes the 탁송 address from the postcode
 * search, and the order is placed and listed on /my/requests with those options.
 */
test.beforeAll(async ({ request }) => waitForSite(request));

const TERMS = [1, 3, 6, 12, 24, 36, 48, 60, 72, 84, 96];

async function carOf(request: import('@playwright/test').APIRequestContext, id: number): Promise<Car> {
  return (await (await request.get(`/api/subscriptions/cars/${id}`)).json()).data.car as Car;
}

async function registerCardAndFinish(page: import('@playwright/test').Page) {
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  const summary = page.getByRole('dialog', { name: '주문 확인' });
  await summary.getByRole('button', { name: '다음' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '구독 신청 완료' })).toBeVisible();
}

test('options chosen before login on the car page are priced, kept through login, ordered and listed on /my/requests', async ({ page, request }) => {
  const { id } = await orderableCar(request);
  const car = await carOf(request, id);
  const prices = carOptionPrices(car);
  const fee = car.subscription_fee_12!;
  const plan = prices.mileage_plans.at(-1)!;
  const monthly = fee + plan.monthly + prices.young_driver_monthly + prices.extra_driver_monthly;
  await mockPostcode(page);

  // Before login: the car page prices the choice for the slider's term.
  await page.goto(`/car/${id}`);
  await page.getByLabel('구독 기간').fill(String(TERMS.filter((t) => car[`subscription_fee_${t}` as keyof Car] !== null).indexOf(12)));
  await expect(page.getByTestId('selected-month')).toHaveText('12개월');
  const summary = page.getByTestId('car-price-summary');
  await expect(summary.getByTestId('car-paid-today')).toHaveText(won(fee));
  await page.getByLabel('주행거리 플랜').selectOption(String(plan.km));
  await page.getByLabel('최연소 운전자').selectOption('21');
  await page.getByLabel('추가 운전자').selectOption('1');
  await page.getByLabel('인수 방법').selectOption('other');
  await expect(summary.getByTestId('car-later-monthly')).toHaveText(won(monthly));
  await expect(summary.getByTestId('car-paid-today')).toHaveText(won(monthly + REGIONAL_DELIVERY_FEE));
  await expect(summary.getByTestId('car-deposit')).toHaveText(won(0));
  await expect(summary.getByTestId('car-term-total')).toHaveText(won(monthly * 12 + REGIONAL_DELIVERY_FEE));

  // Log in: the login page brings the visitor back to the order page with the options.
  const alert = nextAlert(page);
  await page.getByRole('button', { name: '구독 신청하기' }).click();
  expect(await alert).toBe('로그인 후 이용 가능합니다.');
  await expect(page).toHaveURL(/\/login$/);
  await hydrated(page);
  // 만 23세: the checked licence's birth date puts the order at the 21~25 band the visitor previewed.
  const u = await signupUser(request, { birthDate: '2003-06-01' });
  await page.getByLabel('이메일').fill(u.person.email);
  await page.getByLabel('비밀번호').fill(u.person.password);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/inquire\\?month=12&carId=${id}&km=${plan.km}&age=21&drivers=1&handover=delivery&zone=other$`));

  const options = page.getByTestId('order-options');
  await expect(options.getByRole('radio', { name: new RegExp(`월 ${plan.km.toLocaleString('ko-KR')}km`) })).toBeChecked();
  await expect(options.getByLabel('추가 운전자')).toHaveValue('1');
  // The additional driver's licence is checked here; the band then follows the drivers' birth dates, not a choice.
  const extra = page.getByTestId('extra-licence-1');
  await extra.getByLabel('이름 (면허증 기재)').fill('박추가');
  await extra.getByLabel('생년월일').fill('1980-04-04');
  await extra.getByLabel('면허번호').fill('11-05-123456-01');
  await extra.getByRole('button', { name: '면허 확인' }).click();
  await expect(extra).toContainText('박추가 · 2종 보통 · 11-05-******-** 확인 완료');
  await expect(options.getByRole('radio', { name: /만 21~25세/ })).toBeChecked();
  await expect(options.getByRole('radio', { name: /만 21~25세/ })).toBeDisabled();
  await expect(page.getByTestId('age-band-note')).toHaveText('운전자 중 구독 시작일 기준 만 26세 미만이 있어 만 21~25세 요금이 적용됩니다.');
  await expect(options.getByRole('radio', { name: '탁송' })).toBeChecked();
  // No address yet: the order waits for one.
  await expect(page.getByTestId('options-problem')).toHaveText('탁송 받을 주소를 입력해주세요.');
  await options.getByRole('textbox', { name: '탁송 주소' }).click();
  const search = page.getByRole('dialog', { name: '탁송 주소 검색' });
  await search.getByRole('button', { name: /인천 중구 공항로 272/ }).click();
  await expect(options.getByRole('textbox', { name: '탁송 주소' })).toHaveValue('인천 중구 공항로 272');
  await expect(page.getByTestId('delivery-note')).toContainText(`이 주소는 탁송비 ${won(REGIONAL_DELIVERY_FEE)}이 부과됩니다.`);
  await options.getByLabel('탁송 시간대').selectOption('AFTERNOON');
  await expect(page.getByTestId('options-problem')).toHaveCount(0);
  await expect(page.getByTestId('final-price').first()).toHaveText(won(monthly + REGIONAL_DELIVERY_FEE));
  await expect(page.getByTestId('later-monthly').first()).toHaveText(`${won(monthly)} × 11회`);
  await expect(page.getByTestId('term-total').first()).toHaveText(won(monthly * 12 + REGIONAL_DELIVERY_FEE));

  await registerCardAndFinish(page);
  const list = await apiAs(request, u.access_token, 'GET', '/subscriptions/requests');
  const r = list.body.data.subscription_requests[0];
  expect(r).toMatchObject({ month: 12, fee: monthly, final_fee: monthly + REGIONAL_DELIVERY_FEE });
  expect(r.options.options).toMatchObject({ mileage_km: plan.km, driver_age: 'AGE_21', extra_drivers: 1, handover: 'DELIVERY', delivery_address: '인천 중구 공항로 272', delivery_window: 'AFTERNOON' });

  await page.goto('/my/requests');
  const item = page.getByTestId('request-item').first();
  await expect(item).toContainText(`월 구독료 ${won(monthly)} · 첫 결제 금액 ${won(monthly + REGIONAL_DELIVERY_FEE)}`);
  const line = item.getByTestId('request-options');
  for (const text of [`월 ${plan.km.toLocaleString('ko-KR')}km`, '만 21~25세', '추가 운전자 1명', '탁송 주소 인천 중구 공항로 272', '오후 13:00~16:00', `탁송비 ${won(REGIONAL_DELIVERY_FEE)}`, `자기부담금 사고 1건당 ${won(prices.deductible)}`]) {
    await expect(line).toContainText(text);
  }
});

test('a car with a 보증금 and 선납금 staff enabled: the order page shows and charges them, the server agreeing', async ({ page, request }) => {
  const { id } = await orderableCar(request);
  const car = await carOf(request, id);
  const fee = car.subscription_fee_12!;
  const own: CarOptionPrices = { ...carOptionPrices(car), deposit: 3_000_000, prepayment_max: 3_000_000 };
  const patched = await request.patch(`/api/admin/cars/${id}`, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { option_prices: own } });
  expect(patched.status()).toBe(200);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${id}`);
  await expect(page.getByTestId('order-deposit-note')).toContainText('보증금 3,000,000원');
  await page.getByLabel('선납금 (선택)').selectOption('1000000');
  const credit = Math.floor(1_000_000 / 12);
  const monthly = fee - credit;
  const today = monthly + 3_000_000 + 1_000_000;
  await expect(page.getByTestId('deposit').first()).toHaveText(won(3_000_000));
  await expect(page.getByTestId('final-price').first()).toHaveText(won(today));
  await expect(page.getByTestId('later-monthly').first()).toHaveText(`${won(monthly)} × 11회`);
  await expect(page.getByTestId('term-total').first()).toHaveText(won(1_000_000 + monthly * 12));
  await registerCardAndFinish(page);
  const r = (await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests[0];
  expect(r).toMatchObject({ fee: monthly, final_fee: today });
  expect(r.payment).toMatchObject({ amount: today });
});
