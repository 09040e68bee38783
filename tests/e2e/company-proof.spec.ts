import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import { PROOF_DOCUMENTS_LINE, PROOF_WRONG_TYPE } from '../../src/domain/company-proof';
import { expect, test } from './fixtures';
import { companyOf } from './company-fixtures';
import { apiAs, hydrated, loginAs, newStaff, newUser, waitForSite } from './users';

/**
 * 재직·위임 확인 서류 (issue 52): the admin of a company whose creator is not the 대표자 uploads the
 * proof on /my/company at 390 px (a phone's photo of the paper is the usual case); staff open the
 * company in the console at 1280 px, download the file, refuse it with a reason the admin then
 * reads, and confirm it once the admin uploaded again.
 */

test.beforeAll(async ({ request }) => waitForSite(request));

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('stamp')]);

/** A PENDING company: the test users' 본인인증 name is 홍길동, and the 대표자 is 김철수. */
const pendingCompanyOf = (request: APIRequestContext, token: string, name: string) => companyOf(request, token, { name, ceo: '김철수' });

/** An upload as /my/company sends it: the raw file, its name in X-File-Name. */
async function uploadAs(request: APIRequestContext, token: string, companyId: number, name: string, type: string, body: Buffer) {
  const res = await request.post(`/api/companies/${companyId}/authority-documents`, { headers: { authorization: `Bearer ${token}`, 'content-type': type, 'x-file-name': encodeURIComponent(name) }, data: body });
  expect(res.status(), await res.text()).toBe(201);
}

test("the admin uploads the proof on a phone, sees each file's name, size and time, and removes one", { tag: '@phone' }, async ({ page, request }) => {
  const admin = await newUser(request);
  await pendingCompanyOf(request, admin.token, '주식회사 증빙테스트');
  await loginAs(page, admin.token);
  await page.goto('/my/company');
  await hydrated(page, 'CompanyPage');
  const proof = page.getByRole('region', { name: '재직·위임 확인 서류' });
  await expect(proof).toContainText(PROOF_DOCUMENTS_LINE);
  await expect(proof).toContainText('아직 올린 서류가 없습니다.');

  const picker = proof.getByLabel('확인 서류 올리기');
  await picker.setInputFiles({ name: 'memo.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(proof.getByRole('alert')).toContainText(PROOF_WRONG_TYPE);

  await picker.setInputFiles([
    { name: '위임장.pdf', mimeType: 'application/pdf', buffer: PDF },
    { name: '법인인감증명서.png', mimeType: 'image/png', buffer: PNG },
  ]);
  await expect(proof.getByRole('status')).toContainText('서류 2개를 올렸습니다');
  const rows = proof.getByTestId('proof-document');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('위임장.pdf');
  await expect(rows.nth(0)).toContainText(`${PDF.byteLength} B`);
  await expect(rows.nth(1)).toContainText('법인인감증명서.png');
  await expect(rows.nth(1)).toContainText(/\d{4}\.\d{2}\.\d{2} \d{2}:\d{2}/);

  await proof.getByRole('button', { name: '위임장.pdf 지우기' }).click();
  await expect(proof.getByRole('status')).toContainText('위임장.pdf 파일을 지웠습니다');
  await expect(rows).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('proof-document')).toHaveCount(1);
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

// The console is a desktop tool (as admin.spec.ts): untagged, it runs at 1280 px only.
test('staff download the proof, refuse it with a reason the admin reads, and confirm it after a new upload', async ({ page, browser, request, baseURL }) => {
  const admin = await newUser(request);
  const name = `주식회사 확인${Date.now() % 100_000}`;
  const companyId = await pendingCompanyOf(request, admin.token, name);
  await uploadAs(request, admin.token, companyId, '재직증명서.pdf', 'application/pdf', PDF);

  const staff = await newStaff(request);
  await loginAs(page, staff.access_token);
  await page.goto('/admin#companies');
  await page.getByLabel('상호 또는 사업자등록번호').fill(name);
  await page.getByRole('button', { name: '검색' }).click();
  await page.getByRole('button', { name: new RegExp(name) }).click();
  const doc = page.getByTestId('admin-proof-document');
  await expect(doc).toHaveCount(1);
  const saved = page.waitForEvent('download');
  await doc.getByRole('button', { name: '재직증명서.pdf 내려받기' }).click();
  const download = await saved;
  expect(download.suggestedFilename()).toBe('재직증명서.pdf');
  expect(Buffer.from(await readFile(await download.path())).equals(PDF)).toBe(true);

  await page.getByLabel('확인 내용 또는 반려 사유').fill('법인인감증명서도 함께 올려주세요');
  await page.getByRole('button', { name: '서류 반려 (다시 올리기 요청)' }).click();
  await expect(page.getByTestId('admin-proof-refusal')).toContainText('법인인감증명서도 함께 올려주세요');

  // The admin reads the reason on /my/company and uploads what was missing.
  const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  await phone.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
  try {
    const mine = await phone.newPage();
    await loginAs(mine, admin.token);
    await mine.goto('/my/company');
    await hydrated(mine, 'CompanyPage');
    await expect(mine.getByTestId('proof-refusal')).toContainText('반려 사유: 법인인감증명서도 함께 올려주세요');
    await mine.getByLabel('확인 서류 올리기').setInputFiles({ name: '법인인감증명서.png', mimeType: 'image/png', buffer: PNG });
    await expect(mine.getByTestId('proof-document')).toHaveCount(2);
  } finally {
    await phone.close();
  }

  await page.reload();
  await page.getByLabel('상호 또는 사업자등록번호').fill(name);
  await page.getByRole('button', { name: '검색' }).click();
  await page.getByRole('button', { name: new RegExp(name) }).click();
  await expect(page.getByTestId('admin-proof-document')).toHaveCount(2);
  await expect(page.getByTestId('admin-proof-document').nth(1)).toContainText('반려 이후 새로 올림');
  await page.getByLabel('확인 내용 또는 반려 사유').fill('재직증명서와 법인인감증명서 확인');
  await page.getByRole('button', { name: '재직·위임 확인 승인' }).click();
  await expect(page.getByText('대리 권한 재직·위임 확인 완료')).toBeVisible();
  expect((await apiAs(request, admin.token, 'GET', `/companies/${companyId}`)).body.data.company.authority).toBe('CONFIRMED');
});
