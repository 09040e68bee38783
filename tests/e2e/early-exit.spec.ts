import { addDays, addMonths, todayInKorea } from '../../src/domain/dates';
import { earlyExitFee } from '../../src/domain/early-exit';
import { won } from '../../src/domain/money';
import { expect, test } from './fixtures';
import { apiAs, confirm, hydrated, loginAs, newUser, nextAlert, orderableCar, placeRequest, waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

test('중도 해지 on my page: choose the return day, read the quote and the rule, confirm; the subscription ends that day', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  // Starting today: month 1 (paid with the request) runs to the day before next month's charge.
  const today = todayInKorea(new Date());
  await confirm(request, r.id, today);
  const fee12 = (await apiAs(request, user.token, 'GET', `/subscriptions/requests/${r.id}`)).body.data.subscription_request.fee as number;
  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await hydrated(page, 'SubscriptionList');
  const item = page.getByTestId('subscription-item');
  await item.getByRole('button', { name: '해지하기' }).click();

  const panel = item.getByTestId('early-exit');
  const earliest = addDays(today, 3);
  const latest = addDays(addMonths(today, 1), -1);
  await expect(panel).toContainText(`반납일 (${earliest} ~ ${latest})`);
  const quote = panel.getByTestId('early-exit-quote');
  const fee = earlyExitFee(11, fee12);
  await expect(quote).toContainText(`남은 11개월 × 월 ${won(fee12)} × 20% = ${won(fee)}`);
  await expect(panel).toContainText('중도 해지 수수료는 남은 개월 수 × 월 구독료 × 20%');
  // Another day in the same month: the same remaining months.
  const exitDay = addDays(today, 5);
  await panel.getByLabel(/반납일/).fill(exitDay);
  await expect(panel.getByLabel(/반납일/)).toHaveValue(exitDay);
  await expect(quote).toContainText(won(fee));

  // The fee is asked once more (issue 49): declined, nothing is charged; accepted, once.
  const exitButton = panel.getByRole('button', { name: `${won(fee)} 결제하고 해지 확정` });
  const declined = new Promise<string>((resolve) => page.once('dialog', (d) => { resolve(d.message()); void d.dismiss(); }));
  await exitButton.click();
  expect(await declined).toContain(`중도 해지 수수료 ${won(fee)}을 등록하신 카드로 지금 결제합니다.`);
  await expect(exitButton).toBeEnabled();
  expect(((await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { purpose: string }[]).filter((p) => p.purpose === 'SUBSCRIPTION_EARLY_EXIT')).toEqual([]);
  const asked = nextAlert(page);
  await exitButton.click();
  expect(await asked).toContain(`${exitDay}에 반납하는 것으로 중도 해지를 확정하시겠습니까?`);
  await expect(item.getByTestId('early-exit-done')).toContainText(`${exitDay}에 반납해주세요`);
  await page.reload();
  await expect(item).toContainText(`${today} ~ ${exitDay}`);
  await expect(item.getByRole('button', { name: '해지하기' })).toHaveCount(0);
  const payments = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { purpose: string; amount: number; status: string }[];
  expect(payments.filter((p) => p.purpose === 'SUBSCRIPTION_EARLY_EXIT')).toEqual([expect.objectContaining({ amount: fee, status: 'PAID' })]);
});
