import { addDays, todayInKorea } from '../../src/domain/dates';
import { withParticle } from '../../src/domain/korean';
import { won } from '../../src/domain/money';
import { expect, test } from './fixtures';
import { apiAs, confirm, hydrated, loginAs, newUser, nextAlert, orderableCar, placeRequest, waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

test('차량 교체 on my page: choose the day and a free car, read the arithmetic, confirm; the scheduled swap and its annex follow', async ({ page, request }) => {
  const car = await orderableCar(request);
  const target = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  // A 12-month term that started 10 days ago: month 1 is paid for about 20 more days, so a swap in 5 days is inside the window.
  const today = todayInKorea(new Date());
  const start = addDays(today, -10);
  await confirm(request, r.id, start);
  const day = addDays(today, 5);
  const subs = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[];
  const subscriptionId = subs.find((s) => s.request.id === r.id)!.id;
  const server = (await apiAs(request, user.token, 'GET', `/subscriptions/${subscriptionId}/swap?date=${day}&car_id=${target.id}`)).body.data.quote as { arithmetic: string; car_name: string; adjustment: number; new_fee: number; old_fee: number };
  expect(server.arithmetic).toMatch(/^\(월 [\d,]+원 − 월 [\d,]+원\) × \d+\/\d+일 = /);

  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await hydrated(page, 'SubscriptionList');
  const item = page.getByTestId('subscription-item');
  const open = item.getByRole('button', { name: '차량 교체' });
  expect((await open.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await open.click();

  const panel = item.getByTestId('swap');
  await panel.locator('input[type="date"]').fill(day);
  const radioSelector = `input[type="radio"][value="${target.id}"]`;
  const radio = panel.locator(radioSelector);
  await expect(radio).toBeEnabled();
  await radio.check();
  await expect(panel.getByTestId('swap-arithmetic')).toHaveText(server.arithmetic);
  await expect(panel).toContainText('결제 월은 일할 계산합니다');
  // Tap targets of 44 px (the car choices and the buttons); nothing wider than the screen.
  const confirmButton = panel.getByRole('button', { name: /교체 확정/ });
  for (const box of [panel.locator('label', { has: page.locator(radioSelector) }), confirmButton, panel.getByRole('button', { name: '닫기' })]) {
    expect((await box.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // 가격 변경 동의: when the fee changes, the button waits for the explicit consent to the new one.
  if (server.new_fee !== server.old_fee) {
    await expect(confirmButton).toBeDisabled();
    await panel.getByLabel(`변경된 월 구독료 ${won(server.new_fee)}에 동의합니다`).check();
  }
  // What moves is asked once more (issue 49), to the won.
  const asked = nextAlert(page);
  await confirmButton.click();
  expect(await asked).toContain(`새 월 구독료: `);
  await expect(item.getByTestId('swap-done')).toContainText(`${day}에`);
  await page.reload();
  await hydrated(page, 'SubscriptionList');
  await expect(item.getByTestId('subscription-swap')).toHaveText(`교체 예정: ${day} → ${server.car_name}`);
  const annex = item.getByTestId('swap-annex-download');
  await expect(annex).toHaveText('교체 부속 계약서 (PDF)');
  const download = page.waitForEvent('download');
  await annex.click();
  expect((await download).suggestedFilename()).toMatch(/^LUXE-S-\d{6}-C01\.pdf$/);
  // Confirmed once: the same click through the API answers the same swap.
  const again = await apiAs(request, user.token, 'POST', `/subscriptions/${subscriptionId}/swap`, { date: day, car_id: target.id, quoted_adjustment: server.adjustment, quoted_fee: 0 });
  expect(again.status).toBe(200);
  expect((await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions.find((s: { id: number }) => s.id === subscriptionId).swaps).toHaveLength(1);

  // 교체 취소 (until two days before the day): asked first with what the money does; then it reads cancelled, its annex gone.
  const cancel = item.getByRole('button', { name: '교체 취소' });
  expect((await cancel.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expect(item).toContainText(`${addDays(day, -2)}까지 취소할 수 있습니다.`);
  const [question] = await Promise.all([page.waitForEvent('dialog').then(async (d) => (await d.accept(), d.message())), cancel.click()]);
  expect(question).toContain(`${day} ${withParticle(server.car_name, '으로/로')}의 차량 교체를 취소하시겠습니까?`);
  expect(question).toMatch(server.adjustment > 0 ? /교체 차액 [\d,]+원을 환불해드립니다/ : server.adjustment < 0 ? /다시 결제합니다/ : /오가는 금액은 없습니다/);
  await expect(item.getByTestId('subscription-swap')).toHaveText(`교체 취소: ${day} → ${server.car_name}`);
  await expect(item.getByRole('button', { name: '교체 취소' })).toHaveCount(0);
  await expect(item.getByTestId('swap-annex-download')).toHaveCount(0);
});
