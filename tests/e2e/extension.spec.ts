import { addDays, addMonths, todayInKorea } from '../../src/domain/dates';
import { won } from '../../src/domain/money';
import { expect, test } from './fixtures';
import { apiAs, confirm, hydrated, loginAs, newUser, orderableCar, placeRequest, waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

test('구독 연장 on my page: choose the months, read the new end date and fee, confirm; the new end date and the annex follow', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const r = await placeRequest(request, user.token, car.id, { month: 12 });
  // A 12-month term that started 11 months and 20 days ago ends in about 40 days: inside the window (60 … 7 days before the end).
  const today = todayInKorea(new Date());
  const start = addDays(addMonths(today, -11), -20);
  await confirm(request, r.id, start);
  const end = addDays(addMonths(start, 12), -1);
  const subs = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions as { id: number; request: { id: number } }[];
  const subscriptionId = subs.find((s) => s.request.id === r.id)!.id;
  // The car's terms priced today; another test may hold the car a year ahead, so the first free term is the one chosen.
  const choices = (await apiAs(request, user.token, 'GET', `/subscriptions/${subscriptionId}/extension`)).body.data.choices as { months: number; monthly_fee: number; first_month: number; new_end_date: string; taken_from: string | null }[];
  const server = choices.find((c) => c.taken_from === null)!;
  const months = server.months;
  const newEnd = addDays(addMonths(start, 12 + months), -1);
  expect([server.first_month, server.new_end_date]).toEqual([13, newEnd]);

  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  await hydrated(page, 'SubscriptionList');
  const item = page.getByTestId('subscription-item');
  await expect(item.getByTestId('subscription-term')).toContainText(`12개월 · ${start} ~ ${end}`);
  const open = item.getByRole('button', { name: '연장하기' });
  expect((await open.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await open.click();

  const panel = item.getByTestId('extension');
  await panel.getByText(`${months}개월`, { exact: true }).click();
  const quote = panel.getByTestId('extension-quote');
  await expect(quote).toContainText(`현재 종료일${end}`);
  await expect(quote).toContainText(`새 종료일${newEnd}`);
  await expect(quote).toContainText(`${addDays(end, 1)}부터 (13개월 차부터) 월 ${won(server.monthly_fee)}`);
  await expect(panel).toContainText('구독 연장은 계약 종료일 60일 전부터 7일 전까지');
  // Tap targets of 44 px (the month choices and the buttons), also at 390 px.
  for (const target of [panel.getByText(`${months}개월`, { exact: true }), panel.getByRole('button', { name: `${months}개월 연장 확정` }), panel.getByRole('button', { name: '닫기' })]) {
    expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }

  // 가격 변경 동의: the button waits for the explicit consent to the new monthly fee.
  const confirmButton = panel.getByRole('button', { name: `${months}개월 연장 확정` });
  await expect(confirmButton).toBeDisabled();
  await panel.getByLabel(`변경된 월 구독료 ${won(server.monthly_fee)}에 동의합니다`).check();
  await confirmButton.click();
  await expect(item.getByTestId('extension-done')).toContainText(`새 종료일은 ${newEnd}입니다`);
  await page.reload();
  await hydrated(page, 'SubscriptionList');
  await expect(item.getByTestId('subscription-term')).toContainText(`12개월 + 연장 ${months}개월 · ${start} ~ ${newEnd}`);
  const annex = item.getByTestId('annex-download');
  await expect(annex).toHaveText('부속 계약서 (PDF)');
  const download = page.waitForEvent('download');
  await annex.click();
  expect((await download).suggestedFilename()).toMatch(/^LUXE-S-\d{6}-E01\.pdf$/);
  // Confirmed once: another click on the API answers the same extension.
  const again = await apiAs(request, user.token, 'POST', `/subscriptions/${subscriptionId}/extension`, { months, quoted_fee: server.monthly_fee, end_date: end });
  expect(again.body.data.end_date).toBe(newEnd);
  expect((await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions.find((s: { id: number }) => s.id === subscriptionId).extensions).toHaveLength(1);
});
