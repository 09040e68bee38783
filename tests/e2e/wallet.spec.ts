import { expect, test } from './fixtures';
import { apiAs, loginAs, newUser, waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

test('coupon page: tabs remembered, code entry, lists, errors, point coupons', async ({ page, request }) => {
  const user = await newUser(request, { coupons: ['EXPIRED20'] });
  await loginAs(page, user.token);
  await page.goto('/coupon');
  await expect(page.getByRole('tab', { name: '구독' })).toHaveAttribute('aria-selected', 'true');
  const available = page.getByRole('region', { name: '사용 가능한 쿠폰' });
  const spent = page.getByRole('region', { name: '사용 완료 · 기간 만료 쿠폰' });
  await expect(spent.getByText('지난 시즌 쿠폰')).toBeVisible();
  await expect(available.getByText('사용 가능한 쿠폰이 없습니다.')).toBeVisible();

  const input = page.getByLabel('쿠폰 코드');
  const add = page.getByRole('button', { name: '등록' });
  await input.fill('   ');
  await expect(add).toBeDisabled();
  await input.fill('  welcome10 ');
  await add.click();
  await expect(page.getByRole('status')).toContainText('쿠폰이 등록되었습니다.');
  await expect(available.getByText('웰컴 10% 할인')).toBeVisible();
  await expect(input).toHaveValue('');

  await input.fill('WELCOME10');
  await add.click();
  await expect(page.getByRole('alert')).toContainText('쿠폰 등록에 실패했습니다.');
  await expect(page.getByRole('alert')).toContainText('이미 등록한 쿠폰입니다.');

  await input.fill('POINT50K');
  await add.click();
  await expect(page.getByRole('status')).toContainText('50,000 P가 적립되었습니다.');
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(50_000);
  await input.fill('POINT50K');
  await add.click();
  await expect(page.getByRole('alert')).toContainText('이미 사용한 포인트 쿠폰입니다.');

  await page.getByRole('tab', { name: '의전' }).click();
  await input.fill('BUTLER50');
  await add.click();
  await expect(available.getByText('의전 5만원 할인')).toBeVisible();
  await expect(available.getByText('웰컴 10% 할인')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('tab', { name: '의전' })).toHaveAttribute('aria-selected', 'true');
  await expect(available.getByText('의전 5만원 할인')).toBeVisible();
});

test('referral page: my code and copy, applying a friend code once, both lists', async ({ page, request, context }) => {
  const friend = await newUser(request);
  const user = await newUser(request);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => {});
  await loginAs(page, user.token);
  await page.goto('/referral');
  await expect(page.getByTestId('my-referral-code')).toHaveText(user.referral_code);
  await page.getByRole('button', { name: '코드 복사' }).click();
  await expect(page.getByText(/^(추천 코드를 복사했습니다\.|복사하지 못했습니다\. 코드를 직접 선택해 복사해주세요\.)$/)).toBeVisible();

  const box = page.getByLabel('추천 코드 입력');
  await box.fill(user.referral_code);
  await page.getByRole('button', { name: '등록' }).click();
  await expect(page.getByRole('alert')).toContainText('추천 코드 등록에 실패했습니다.');
  await expect(page.getByRole('alert')).toContainText('본인의 추천 코드는 사용할 수 없습니다.');

  await box.fill(` ${friend.referral_code.toLowerCase()} `);
  await page.getByRole('button', { name: '등록' }).click();
  await expect(page.getByRole('status').filter({ hasText: '추천 코드가 등록되었습니다.' })).toBeVisible();
  await expect(page.getByRole('region', { name: '나를 추천한 사람' })).toContainText(friend.username);
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(10_000);

  await box.fill(friend.referral_code);
  await page.getByRole('button', { name: '등록' }).click();
  await expect(page.getByRole('alert')).toContainText('한 번만');

  await loginAs(page, friend.token);
  await page.goto('/referral');
  await expect(page.getByRole('region', { name: '내가 추천한 사람' })).toContainText(user.username);
});

test('referral status that fails to load says so', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.route('**/api/users/referrals', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":1500,"message":"x","errors":{}}' }));
  await page.goto('/referral');
  await expect(page.getByRole('alert')).toHaveText('추천 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.');
});

test('points history: an entry is listed on its Korean day (06:52 KST on the 2nd is the 2nd, not UTC’s 1st)', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  const at = '2026-12-01T21:52:00.000Z';
  await page.route(/\/users\/point-transactions/, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ code: 0, data: { point: 50_000, point_transactions: [{ id: 1, amount: 50_000, description: '포인트 쿠폰 등록', created_at: at }] } }) }),
  );
  await page.goto('/points');
  const entry = page.getByRole('listitem').filter({ hasText: '포인트 쿠폰 등록' });
  await expect(entry).toContainText('2026.12.02');
  await expect(entry).not.toContainText('2026-12-01');
});
