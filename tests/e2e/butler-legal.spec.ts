import type { APIRequestContext } from '@playwright/test';
import type { ButlerCar, ButlerRequestView } from '../../src/domain/butler';
import { NO_CASE_MESSAGE, partnerLine } from '../../src/domain/butler-legal';
import { prefillToSearch } from '../../src/domain/butler-prefill';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, waitForSite } from './users';

/**
 * BUTLER_LEGAL_MODEL on the reservation form. The e2e server runs the default (partner); this
 * spec asks for `exemptions` per browser context by the test-only cookie the API honours with
 * TEST_FIXTURES=on (src/api/orders/butler-legal.ts), so the other specs keep the default.
 */
test.beforeAll(async ({ request }) => waitForSite(request));

async function fleet(request: APIRequestContext): Promise<ButlerCar[]> {
  return (await (await request.get('/api/butlers/cars')).json()).data.cars;
}
function freeDay(car: ButlerCar): string {
  let day = addDays(todayInKorea(new Date()), 30 + Math.floor(Math.random() * 140));
  while (car.butler_reservated_dates.includes(day)) day = addDays(day, 1);
  return day;
}
const openPrefilled = (car: ButlerCar, day: string) =>
  `/butler/request?${prefillToSearch({ carId: car.id, date: day, time: '10:00', origin: '서울 중구 세종대로 110', destination: '인천 중구 공항로 272', waypoints: [], passengers: 2, purpose: '관광', memo: '' })}`;

test('partner (the default) names the licensed carrier on the form and in the card dialog', async ({ page, request }) => {
  const cars = await fleet(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(openPrefilled(cars[3], freeDay(cars[3])));
  await expect(page.getByTestId('butler-partner')).toContainText(/운송: .+ \(여객자동차운송사업 면허 .+\)/);
  await expect(page.getByTestId('eligibility-step')).toHaveCount(0);
  // The page is built with the server's model and partner: the box is in its HTML, drawn before any script.
  const legal = (await (await request.get('/api/butlers/legal')).json()).data;
  expect(await (await request.get('/butler/request')).text()).toContain(partnerLine(legal.partner));
  await page.getByRole('button', { name: '예약 요청하기' }).click();
  await expect(page.getByRole('dialog', { name: '정기결제(카드 등록)' }).getByTestId('dialog-partner')).toContainText('여객자동차운송사업 면허');
});

test('exemptions: the eligibility step refuses no case, a 64-year-old, a van case without vans; a foreigner books with the passport masked', async ({ page, request, context, baseURL }) => {
  test.setTimeout(90_000);
  await context.addCookies([{ name: 'luxe_test_butler_model', value: 'exemptions', url: baseURL! }]);
  const cars = await fleet(request);
  const car = cars[4];
  const day = freeDay(car);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(openPrefilled(car, day));
  const step = page.getByTestId('eligibility-step');
  await expect(step).toBeVisible();
  await expect(page.getByTestId('butler-partner')).toHaveCount(0);
  const submit = page.getByRole('button', { name: '예약 요청하기' });

  // No case: refused before the card step, with the law's message.
  await submit.click();
  await expect(step.getByTestId('eligibility-problem')).toHaveText(NO_CASE_MESSAGE);
  await expect(page.getByRole('dialog', { name: '정기결제(카드 등록)' })).toBeHidden();

  // 65+: the birth date is checked against the trip's day.
  await step.getByLabel('만 65세 이상').check();
  const birth = `${Number(day.slice(0, 4)) - 64}${day.slice(4)}`;
  await step.getByLabel('생년월일').fill(birth);
  await step.getByRole('checkbox').check();
  await submit.click();
  await expect(step.getByTestId('eligibility-problem')).toContainText('만 64세');

  // The van-only cases offer 11–15 seat vans only (the seeded fleet has none): the chosen sedan is dropped.
  await step.getByLabel(/공항·항만 출발 또는 도착/).check();
  await expect(step.getByTestId('van-only')).toContainText('승합차가 없습니다');
  await expect(page.getByTestId('car-picker')).not.toContainText(car.model.name);

  // A foreigner: the passport is kept masked.
  await step.getByLabel('외국인', { exact: true }).check();
  await page.goto(openPrefilled(car, day));
  await step.getByLabel('외국인', { exact: true }).check();
  await step.getByLabel('여권번호 또는 외국인등록번호').fill('M12345678');
  await step.getByRole('checkbox').check();
  await submit.click();
  const cardDialog = page.getByRole('dialog', { name: '정기결제(카드 등록)' });
  await cardDialog.getByRole('button', { name: '동의하고 진행' }).click();
  const back = page.waitForURL((u) => u.searchParams.has('billingKey'));
  await page.getByRole('button', { name: /승인/ }).click();
  await back;
  await expect(page.getByRole('dialog', { name: '신청이 완료되었습니다' })).toBeVisible();
  const made: ButlerRequestView[] = (await apiAs(request, user.token, 'GET', '/butlers/requests')).body.data.butler_requests;
  expect(made).toHaveLength(1);
  expect(made[0].legal).toMatchObject({ model: 'exemptions', eligibility: { case: 'FOREIGNER', proof: ['여권번호: M12******'] } });
});

test('the eligibility step fits 390 px without horizontal overflow', { tag: '@phone' }, async ({ page, request, context, baseURL }) => {
  await context.addCookies([{ name: 'luxe_test_butler_model', value: 'exemptions', url: baseURL! }]);
  const cars = await fleet(request);
  await page.goto(openPrefilled(cars[5], freeDay(cars[5])));
  await page.getByTestId('eligibility-step').getByLabel('결혼식 (신랑·신부 이동, 3,000cc 이상 승용차)').check();
  await expect(page.getByLabel('예식장')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
