import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { addDays, todayInKorea } from '../../src/domain/dates';
import { cardLabel, type CardView } from '../../src/domain/card-label';
import { pdfText } from '../pdf-text';
import { apiAs, confirm, loginAs, newStaff, newUser, orderableCar, placeRequest, waitForSite } from './users';

/** Issue 38: the contract (계약서) downloaded from /my, and 결제 카드 변경 on an active subscription. */

test.beforeAll(async ({ request }) => waitForSite(request));

test('order a car, then download its contract PDF from /my/requests, the request page and the staff console', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  // The order, as a customer places it: consents, 신청하기, the sandbox card, the completion.
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '구독 신청 완료' })).toBeVisible();
  const [mine] = (await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests as { id: number; requested_start: string }[];

  await page.goto('/my/requests');
  const item = page.getByTestId('request-item').filter({ hasText: `신청 #${mine.id}` });
  const answer = page.waitForResponse((r) => r.url().endsWith(`/api/subscriptions/requests/${mine.id}/contract`));
  const download = page.waitForEvent('download');
  await item.getByTestId('contract-download').click();
  const res = await answer;
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const file = await download;
  expect(file.suggestedFilename()).toBe(`LUXE-S-${String(mine.id).padStart(6, '0')}.pdf`);
  const bytes = new Uint8Array(await readFile((await file.path())));
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(10_000);
  expect(bytes.length).toBe(Number(res.headers()['content-length']));
  const text = await pdfText(bytes);
  expect(text).toContain('자동차 구독 계약서');
  expect(text).toContain(`${car.fee.toLocaleString('ko-KR')}원`);
  expect(text).toContain(mine.requested_start.replaceAll('-', '.'));

  // The request page offers the same file.
  await page.goto(`/subscribe/request/${mine.id}`);
  const again = page.waitForEvent('download');
  await page.getByRole('region', { name: '계약서' }).getByTestId('contract-download').click();
  expect((await again).suggestedFilename()).toBe(file.suggestedFilename());
  // Issue 49: the seller's 대표자 and 사업자등록번호, a 계약 체결 block, the insurance limits; and the
  // SHA-256 its footer points to is printed on the request page, equal to the downloaded file's.
  for (const s of ['대표자', '사업자등록번호', '123-45-67891', '통신판매업 신고번호', '계약 체결 (전자 서명)', '대인배상', '무한', '자기차량손해', 'SHA-256 값은 마이페이지의 구독 신청 상세 화면']) expect(text).toContain(s);
  expect(text).not.toContain('인수 방법 탁송');
  const shown = page.getByRole('region', { name: '계약서' }).getByTestId('contract-sha256');
  await expect(shown).toContainText(createHash('sha256').update(bytes).digest('hex'));

  // Staff download the same bytes from the console's 주문 tab.
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#orders');
  const row = page.getByRole('listitem').filter({ has: page.getByText(`#${mine.id}`, { exact: true }) }).filter({ has: page.getByTestId('contract-download') });
  const staffFile = page.waitForEvent('download');
  await row.getByTestId('contract-download').click();
  const staffBytes = new Uint8Array(await readFile((await (await staffFile).path())));
  expect(Buffer.from(staffBytes).equals(Buffer.from(bytes))).toBe(true);
});

test('결제 카드 변경 on /my/subscriptions: a new card from the sandbox, the next charge on it; the contract is there too', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  const start = addDays(todayInKorea(new Date()), 3);
  const req = await placeRequest(request, user.token, car.id, { month: 12, start_date: start });
  await confirm(request, req.id, start);
  const before = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions[0] as { id: number; billing: { card: CardView } };
  await loginAs(page, user.token);
  await page.goto('/my/subscriptions');
  const item = page.getByTestId('subscription-item');
  await expect(item).toHaveCount(1);
  const change = item.getByTestId('card-change');
  await expect(change).toContainText(`결제 카드 ${cardLabel(before.billing.card)}`);
  await change.getByRole('button', { name: '결제 카드 변경' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page).toHaveURL(new RegExp(`/my/subscriptions\\?card=${before.id}$`));
  await expect(change.getByRole('status')).toHaveText('결제 카드를 변경했습니다. 다음 결제부터 새 카드로 결제됩니다.');
  const after = (await apiAs(request, user.token, 'GET', '/subscriptions')).body.data.subscriptions[0] as { billing: { card: CardView; status: string } };
  expect(after.billing.card).not.toEqual(before.billing.card);
  expect(after.billing.status).toBe('ACTIVE');
  await expect(change).toContainText(`결제 카드 ${cardLabel(after.billing.card)}`);
  // Nothing was charged for the change (no 카드 변경 후 결제 took the return).
  const payments = (await apiAs(request, user.token, 'GET', '/payments')).body.data.payments as unknown[];
  expect(payments).toHaveLength(1);

  const download = page.waitForEvent('download');
  await item.getByTestId('contract-download').click();
  expect((await download).suggestedFilename()).toBe(`LUXE-S-${String(req.id).padStart(6, '0')}.pdf`);
});
