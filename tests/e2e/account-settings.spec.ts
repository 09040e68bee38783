import type { Locator, Page } from '@playwright/test';
import { RETAINED_RECORDS } from '../../src/domain/account-closure';
import { expect, test } from './fixtures';
import { hydrated, orderableCar, placeRequest, signupUser, storedSession, storeSession, waitForSite } from './users';

/** /my: 비밀번호 변경 and 회원 탈퇴 (issue 49), at 390 and 1280 px. docs/decisions/accounts.md. */

test.beforeAll(async ({}, info) => waitForSite(info.project.use.baseURL!));

async function tapTarget(target: Locator, name: string) {
  const box = await target.boundingBox();
  expect(box, name).not.toBeNull();
  expect.soft(box!.height, `${name}: height`).toBeGreaterThanOrEqual(44);
  expect.soft(box!.width, `${name}: width`).toBeGreaterThanOrEqual(44);
}

async function openMy(page: Page) {
  await page.goto('/my');
  await hydrated(page, 'MyPage');
  await expect(page.getByRole('heading', { name: '비밀번호 변경' })).toBeVisible();
}

async function loginWith(page: Page, email: string, password: string) {
  await page.goto('/login');
  await hydrated(page);
  await page.getByLabel('이메일').fill(email);
  await page.getByLabel('비밀번호').fill(password);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
}

test('a customer changes the password on my page (Korean errors first), then logs in with the new one', async ({ page, request }) => {
  const account = await signupUser(request);
  await storeSession(page, account);
  await openMy(page);
  const form = page.locator('form[aria-labelledby="password-heading"]');
  const submit = form.getByRole('button', { name: '비밀번호 변경' });
  await tapTarget(submit, '비밀번호 변경');

  // Rule and confirmation, checked before anything is sent; each error announced and tied to its field.
  await form.getByLabel('현재 비밀번호').fill(account.person.password);
  await form.getByLabel('새 비밀번호', { exact: true }).fill('12345');
  await form.getByLabel('새 비밀번호 확인').fill('12346');
  await submit.click();
  await expect(form.getByRole('alert').filter({ hasText: '비밀번호는 6자 이상이어야 합니다.' })).toBeVisible();
  await expect(form.getByRole('alert').filter({ hasText: '비밀번호가 일치하지 않습니다.' })).toBeVisible();
  await expect(form.getByLabel('새 비밀번호', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  // A wrong current password: the server's answer, on its field.
  const next = 'new-secret-49';
  await form.getByLabel('현재 비밀번호').fill('not-my-password');
  await form.getByLabel('새 비밀번호', { exact: true }).fill(next);
  await form.getByLabel('새 비밀번호 확인').fill(next);
  await submit.click();
  await expect(form.getByRole('alert')).toHaveText('현재 비밀번호가 올바르지 않습니다.');
  await expect(form.getByLabel('현재 비밀번호')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('현재 비밀번호').fill(account.person.password);
  await submit.click();
  await expect(form.getByRole('status')).toHaveText('비밀번호를 변경했습니다. 다른 기기에서는 새 비밀번호로 다시 로그인해주세요.');
  await expect(form.getByLabel('현재 비밀번호')).toHaveValue('');

  // This session stays; after logging out, the old password fails and the new one logs in.
  await page.getByRole('button', { name: '로그아웃' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await request.post('/api/accounts/login', { data: { email: account.person.email, password: account.person.password } })).status()).toBe(401);
  await loginWith(page, account.person.email, next);
  await expect(page).toHaveURL(/\/my$/);
  await expect(page.getByRole('heading', { name: account.person.name })).toBeVisible();
});

test('withdrawal states what is erased and what the law keeps, confirms twice, then logs out for good', async ({ page, request }) => {
  const account = await signupUser(request);
  await storeSession(page, account);
  await openMy(page);
  const open = page.getByRole('button', { name: '회원 탈퇴' });
  await tapTarget(open, '회원 탈퇴');
  await open.click();

  // Step 1: the retention list of the privacy policy, each record with its period and law.
  const notice = page.getByRole('dialog', { name: '회원 탈퇴 안내 (1/2)' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('이름, 이메일, 휴대폰 번호, 연계정보(CI), 비밀번호');
  const retention = notice.getByTestId('withdrawal-retention').getByRole('listitem');
  await expect(retention).toHaveCount(RETAINED_RECORDS.length);
  await expect(retention.first()).toHaveText('계약 또는 청약철회 등에 관한 기록5년 (전자상거래법)');
  await expect(notice).toContainText('소비자의 불만 또는 분쟁처리에 관한 기록3년 (전자상거래법)');
  await expect(notice.getByRole('link', { name: '개인정보 처리방침' })).toHaveAttribute('href', '/privacy');
  await expect(notice.getByTestId('withdrawal-blockers')).toHaveCount(0);
  const nextStep = notice.getByRole('button', { name: '다음' });
  await tapTarget(nextStep, '다음');
  await nextStep.click();

  // Step 2: the checkbox and the current password, each refused in Korean until given.
  const confirmDialog = page.getByRole('dialog', { name: '회원 탈퇴 확인 (2/2)' });
  const go = confirmDialog.getByRole('button', { name: '탈퇴하기' });
  await tapTarget(go, '탈퇴하기');
  await go.click();
  await expect(confirmDialog.getByRole('alert').filter({ hasText: '위 내용을 확인했다고 체크해주세요.' })).toBeVisible();
  await expect(confirmDialog.getByRole('alert').filter({ hasText: '현재 비밀번호를 입력해주세요.' })).toBeVisible();
  await tapTarget(confirmDialog.locator('label').filter({ hasText: '위 내용을 확인했습니다' }), '위 내용을 확인했습니다');
  await confirmDialog.getByLabel('위 내용을 확인했습니다').check();
  await confirmDialog.getByLabel('현재 비밀번호').fill('not-my-password');
  await go.click();
  await expect(confirmDialog.getByRole('alert')).toHaveText('현재 비밀번호가 올바르지 않습니다.');
  await expect(page).toHaveURL(/\/my$/);

  await confirmDialog.getByLabel('현재 비밀번호').fill(account.person.password);
  await go.click();
  // Home, told once; the session is gone and the account no longer logs in.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('#home-notice').getByRole('status')).toHaveText(/^회원 탈퇴가 완료되었습니다\./);
  await tapTarget(page.locator('#home-notice').getByRole('button', { name: '닫기' }), '닫기');
  expect((await storedSession(page)).access).toBeNull();
  expect((await request.post('/api/accounts/login', { data: { email: account.person.email, password: account.person.password } })).status()).toBe(401);
  await loginWith(page, account.person.email, account.person.password);
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('a pending subscription request blocks withdrawal: the dialog says what to end first and where', async ({ page, request }) => {
  const account = await signupUser(request);
  const car = await orderableCar(request);
  await placeRequest(request, account.access_token, car.id, { month: 12 });
  await storeSession(page, account);
  await openMy(page);
  await page.getByRole('button', { name: '회원 탈퇴' }).click();
  const notice = page.getByRole('dialog', { name: '회원 탈퇴 안내 (1/2)' });
  // The retention list is there too, before anything else can happen.
  await expect(notice.getByTestId('withdrawal-retention').getByRole('listitem')).toHaveCount(RETAINED_RECORDS.length);
  const blockers = notice.getByRole('alert');
  await expect(blockers).toContainText('접수 중인 구독 신청 1건: 구독 신청 내역에서 취소하거나 확정된 뒤 구독을 마쳐주세요.');
  const go = blockers.getByRole('link', { name: '바로 가기' });
  await expect(go).toHaveAttribute('href', '/my/requests');
  await tapTarget(go, '바로 가기');
  await expect(notice.getByRole('button', { name: '다음' })).toHaveCount(0);
  await notice.getByRole('button', { name: '닫기' }).click();
  await expect(notice).toBeHidden();
});
