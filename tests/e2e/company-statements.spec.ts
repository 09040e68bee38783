import { expect, test } from './fixtures';
import { hydrated, loginAs, newStaff, newUser, waitForSite } from './users';
import { E2E_ADMIN_TOKEN } from '../../playwright.config';

test.beforeAll(async ({ request }) => waitForSite(request));

/**
 * A 후불 company run by a fresh user, with last month's statement (the test fixture: the monthly job's own code);
 * with `credit`, a month whose credits exceed its charges: 300,000원 of trips, 500,000원 of deposit back.
 */
async function companyWithStatement(request: Parameters<typeof newUser>[0], { credit = false } = {}) {
  const user = await newUser(request);
  const res = await request.post('/api/admin/test-company-statement', { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { user_id: user.id, ...(credit ? { credit } : {}) } });
  expect(res.status()).toBe(201);
  return { user, made: (await res.json()).data as { company_id: number; company_name: string; statement_id: number; month: string } };
}

const monthLabel = (month: string) => `${Number(month.slice(0, 4))}년 ${Number(month.slice(5))}월`;

test("a company admin sees the month's statement: lines with cost centres, 공급가액 · 부가세 · 합계, and the 전자세금계산서", { tag: '@both-viewports' }, async ({ page, request }) => {
  const { user, made } = await companyWithStatement(request);
  await loginAs(page, user.token);
  await page.goto('/my/statements');
  await hydrated(page, 'CompanyStatements');
  await expect(page.getByRole('heading', { level: 1, name: '회사 청구서' })).toBeVisible();
  const statement = page.getByTestId('statement');
  await expect(statement.getByRole('heading', { name: `${made.company_name} · ${monthLabel(made.month)} 청구서` })).toBeVisible();
  // 800,000 + 330,000 (the charge after the first trip) + 770,000, each split by the one VAT rule.
  const totals = page.getByTestId('statement-totals');
  await expect(totals).toContainText('1,727,273원');
  await expect(totals).toContainText('172,727원');
  await expect(totals).toContainText('1,900,000원');
  const lines = page.getByTestId('statement-line');
  await expect(lines).toHaveCount(3);
  await expect(lines.nth(0)).toContainText('비용 센터: 영업1팀');
  await expect(lines.nth(1)).toContainText('초과 이용 요금');
  await expect(lines.nth(2)).toContainText('비용 센터: 경영지원');
  await expect(lines.nth(2)).toContainText('700,000원');
  const tax = page.getByTestId('tax-invoice');
  await expect(tax).toContainText('전자세금계산서 · 발행 완료');
  await expect(tax.getByTestId('approval-number')).toHaveText(/^\d{8}-\d{8}-\d{8}$/);
  await expect(page.getByTestId('statement-item')).toHaveCount(1);
  // The list shows each month's 공급가액 and 부가세 too, not only its total.
  await expect(page.getByTestId('statement-item-vat')).toHaveText('공급가액 1,727,273원 · 부가세 172,727원');
  // The document the sandbox issued opens from its link.
  const href = await tax.getByRole('link', { name: '세금계산서 보기' }).getAttribute('href');
  const doc = await request.get(href!);
  expect(doc.status()).toBe(200);
  expect(await doc.text()).toContain(await tax.getByTestId('approval-number').innerText());
});

// The console is a desktop tool (as admin.spec.ts): untagged, it runs at 1280 px only.
test('staff open the statement in the console and record the transfer', async ({ page, request }) => {
  const { made } = await companyWithStatement(request);
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#invoices');
  await page.getByRole('button', { name: new RegExp(`${made.company_name} · ${monthLabel(made.month)}`) }).click();
  const statement = page.getByTestId('statement');
  await expect(statement.getByTestId('statement-line')).toHaveCount(3);
  await expect(statement.getByTestId('statement-totals')).toContainText('1,900,000원');
  await page.getByRole('button', { name: '입금 확인 (납부 완료로 기록)' }).click();
  await expect(page.getByRole('status')).toContainText('납부 완료로 기록했습니다');
  await expect(statement.getByTestId('statement-status')).toHaveText('납부 완료');
});

// 1280 px, as the rest of the console.
test('staff read a statement owed back as 환급 예정 and record the transfer back: 환급 완료', async ({ page, request }) => {
  const { made } = await companyWithStatement(request, { credit: true });
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#invoices');
  const item = page.getByRole('button', { name: new RegExp(`${made.company_name} · ${monthLabel(made.month)}`) });
  await expect(item).toContainText('-200,000원');
  await expect(item).toContainText('환급 예정');
  // Owed back: no due day in the list, as nothing is to be paid.
  await expect(item).not.toContainText('기한');
  await item.click();
  const statement = page.getByTestId('statement');
  await expect(statement.getByTestId('statement-status')).toHaveText('환급 예정');
  await expect(statement.getByTestId('statement-totals')).toContainText('합계 (돌려드릴 금액)');
  await expect(statement.getByTestId('statement-totals')).toContainText('-200,000원');
  await expect(statement.getByTestId('statement-credit-note')).toContainText('200,000원(공급가액 181,818원 + 부가세 18,182원)을 회사 계좌로 돌려드립니다.');
  await expect(statement.getByTestId('statement-line')).toHaveCount(2);
  await expect(statement.getByTestId('statement-line').nth(1)).toContainText('보증금 반환');
  // The existing 입금 확인 route, under the words of a transfer back.
  await expect(page.getByRole('button', { name: '입금 확인 (납부 완료로 기록)' })).toHaveCount(0);
  await page.getByRole('button', { name: '환급 완료로 기록 (200,000원을 회사 계좌로 보낸 뒤)' }).click();
  await expect(page.getByRole('status')).toContainText(`${made.company_name} ${monthLabel(made.month)} 청구서의 환급(200,000원)을 완료로 기록했습니다.`);
  await expect(statement.getByTestId('statement-status')).toHaveText('환급 완료');
  await expect(page.getByRole('button', { name: /환급 완료로 기록/ })).toHaveCount(0);
  await expect(item).toContainText('환급 완료');
});

// 1280 px, as the rest of the console.
test("staff see a company card payment's 전자세금계산서 in the console and send it again", async ({ page, request }) => {
  const user = await newUser(request);
  const res = await request.post('/api/admin/test-company-card-tax-invoice', { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { user_id: user.id } });
  expect(res.status()).toBe(201);
  const made = (await res.json()).data as { company_name: string; payment_id: string };
  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#card-tax');
  await expect(page.getByRole('heading', { name: '법인카드 결제 세금계산서' })).toBeVisible();
  const doc = page.getByTestId('card-tax-invoice').filter({ hasText: made.payment_id });
  await expect(doc).toHaveCount(1);
  await expect(doc).toContainText(made.company_name);
  await expect(doc.getByTestId('card-tax-status')).toHaveText('발행 완료');
  // 880,000원 split by the one VAT rule: 800,000 + 80,000.
  await expect(doc.getByTestId('card-tax-amounts')).toContainText('공급가액 800,000원 + 부가세 80,000원 = 합계 880,000원');
  await expect(doc.getByTestId('card-tax-payment')).toContainText('카드 결제 880,000원');
  await expect(doc.getByTestId('card-tax-approval')).toHaveText(/^\d{8}-\d{8}-\d{8}$/);
  await expect(doc.getByTestId('card-tax-sent')).toContainText('발송 1회');
  await doc.getByRole('button', { name: '다시 보내기' }).click();
  await expect(page.getByRole('status')).toContainText('다시 보냈습니다');
  await expect(doc.getByTestId('card-tax-sent')).toContainText('발송 2회');
});
