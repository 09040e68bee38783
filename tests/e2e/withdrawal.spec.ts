import { addDays, todayInKorea } from '../../src/domain/dates';
import { won } from '../../src/domain/money';
import { expect, test } from './fixtures';
import { apiAs, confirm, hydrated, loginAs, newUser, orderableCar, sandboxKey, waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

test('on my page a customer changes the delivery address, then withdraws (청약철회) before the handover and sees the refund', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const start = addDays(todayInKorea(new Date()), 10);
  const options = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'DELIVERY', delivery_address: '서울 중구 세종대로 110', delivery_window: 'MORNING', prepayment: 0 };
  const placed = await apiAs(request, user.token, 'POST', `/subscriptions/cars/${car.id}/request`, { month: 12, start_date: start, options, billing_key: await sandboxKey(request) });
  expect(placed.status).toBe(201);
  const r = placed.body.data.subscription_request as { id: number; final_fee: number };
  await confirm(request, r.id, start);

  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await hydrated(page, 'SubscriptionList');
  const item = page.getByTestId('subscription-item');

  // 탁송 정보 변경: the new address, saved (the server re-checks and tells staff).
  await item.getByRole('button', { name: '탁송 정보 변경' }).click();
  const change = item.getByTestId('delivery-change');
  await expect(change).toContainText(`${addDays(start, -2)}까지 변경할 수 있습니다.`);
  await change.getByLabel('탁송 주소').fill('서울 강남구 테헤란로 152');
  await change.getByRole('button', { name: '변경 저장' }).click();
  await expect(change.getByTestId('delivery-change-saved')).toHaveText('탁송 정보가 변경되었습니다.');
  const delivery = await apiAs(request, user.token, 'GET', `/subscriptions/requests/${r.id}/delivery`);
  expect(delivery.body.data.delivery.delivery_address).toBe('서울 강남구 테헤란로 152');

  // 청약철회 before the handover: every part named, then a second question with the refund amount.
  await item.getByRole('button', { name: '청약철회', exact: true }).click();
  const panel = item.getByTestId('withdrawal');
  const quote = panel.getByTestId('withdrawal-quote');
  await expect(quote).toContainText('첫 달 구독료 환불');
  await expect(quote).toContainText('카드 환불 합계');
  await expect(quote).toContainText(won(r.final_fee));
  let asked = '';
  page.once('dialog', (d) => {
    asked = d.message();
    void d.accept();
  });
  await panel.getByRole('button', { name: `${won(r.final_fee)} 환불받고 청약철회` }).click();
  await expect(item.getByTestId('withdrawal-done')).toHaveText(`청약철회가 완료되었습니다. 등록한 카드로 ${won(r.final_fee)}이 환불됩니다.`);
  expect(asked).toContain(`등록한 카드로 ${won(r.final_fee)}을 환불합니다.`);

  const payments = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as { purpose: string; amount: number; status: string }[];
  expect(payments.filter((p) => p.purpose === 'SUBSCRIPTION_FIRST')).toEqual([expect.objectContaining({ amount: r.final_fee, status: 'CANCELLED' })]);
  await page.reload();
  await hydrated(page, 'SubscriptionList');
  await expect(item.getByRole('button', { name: '청약철회', exact: true })).toHaveCount(0);
});
