import { FEE_TERMS, type Car } from '../../src/domain/car';
import { expect, test } from './fixtures';
import { hydrated, newStaff, signupUser, storedSession, storeSession } from './users';

/** A car of the seeded catalogue other specs do not open, and its longest offered term (the car page's headline fee). */
async function targetCar(request: import('@playwright/test').APIRequestContext, id: number) {
  const car = (await (await request.get(`/api/subscriptions/cars/${id}`)).json()).data.car as Car;
  const term = [...FEE_TERMS].reverse().find((t) => car[`subscription_fee_${t}`] !== null)!;
  return { car, term };
}

test('a staff member signs in, edits a car price, watches the publish finish and sees it on the car page', async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const staff = await newStaff(request);
  // Each project edits its own car, so desktop and mobile runs do not race.
  const id = testInfo.project.name === 'mobile' ? 61 : 60;
  const { car, term } = await targetCar(request, id);
  const fee = 1_000_000 + Math.floor(Math.random() * 8_000) * 100;

  // Not signed in: the console sends to login and comes back after it.
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/login$/);
  await hydrated(page);
  expect((await storedSession(page)).redirect).toBe('/admin');
  await page.getByLabel('이메일').fill(staff.person.email);
  await page.getByLabel('비밀번호').fill(staff.person.password);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: '사이트 게시 상태' })).toBeVisible();

  // Find the car and change the fee of its longest term.
  await page.getByLabel('검색').fill(String(car.id));
  await page.getByRole('button', { name: '검색' }).click();
  await page.getByRole('button', { name: `#${car.id} 편집` }).click();
  await expect(page.locator('#admin-model_id')).toHaveValue(String(car.model.id));
  const input = page.getByLabel(`${term}개월 월 구독료(원)`);
  await expect(input).toHaveValue(String(car[`subscription_fee_${term}`]));
  await input.fill(String(fee));
  await page.getByRole('button', { name: '저장' }).click();
  await expect(page.getByRole('status').filter({ hasText: '저장했습니다.' })).toBeVisible();

  // The publish panel follows the rebuild of this edit's catalogue version to done.
  const status = await request.get('/api/admin/publish', { headers: { authorization: `Bearer ${staff.access_token}` } });
  const version = (await status.json()).data.catalogueVersion as number;
  await expect.poll(async () => Number(await page.getByTestId('published-version').textContent()), { timeout: 180_000 }).toBeGreaterThanOrEqual(version);
  await expect(page.getByTestId('publish-state')).toHaveText('게시 완료');

  // The public car page carries the new fee; images and tags were not touched.
  const after = (await (await request.get(`/api/subscriptions/cars/${id}`)).json()).data.car as Car;
  expect(after.images).toEqual(car.images);
  expect({ is_new: after.is_new, is_hot: after.is_hot, is_subscriptable: after.is_subscriptable }).toEqual({ is_new: car.is_new, is_hot: car.is_hot, is_subscriptable: car.is_subscriptable });
  await page.goto(`/car/${id}`);
  await expect(page.locator('meta[property="product:price:amount"]')).toHaveAttribute('content', String(fee));
  await expect(page.getByText(fee.toLocaleString('ko-KR')).first()).toBeVisible();

  // The change is in the audit log with its author.
  await page.goto('/admin#audit');
  await expect(page.getByText(staff.person.email).first()).toBeVisible();
  await expect(page.getByText(`subscription_fee_${term}:`).first()).toBeVisible();
});

test('an account without the staff role sees the refusal', async ({ page, request }) => {
  const user = await signupUser(request);
  await storeSession(page, user);
  await page.goto('/admin');
  await expect(page.getByText('권한이 없습니다')).toBeVisible();
  await expect(page.getByRole('heading', { name: '사이트 게시 상태' })).toHaveCount(0);
});

test('the order desk pages through more than 20 requests (an older subscription to settle is pages back)', async ({ page, request }) => {
  const staff = await newStaff(request);
  await storeSession(page, staff);
  const asked: string[] = [];
  await page.route(/\/api\/admin\/subscription-requests\?/, async (route) => {
    const url = new URL(route.request().url());
    asked.push(`${url.searchParams.get('status')}:${url.searchParams.get('page')}`);
    const response = await route.fetch();
    const body = (await response.json()) as { data: { pagination_info: Record<string, number> } };
    // However many the run has: three pages.
    body.data.pagination_info = { ...body.data.pagination_info, total_pages: 3 };
    await route.fulfill({ response, json: body });
  });
  await page.goto('/admin#orders');
  await hydrated(page, 'AdminConsole');
  const nav = page.getByRole('navigation', { name: '페이지' });
  await expect(nav).toContainText('1 / 3');
  await expect(nav.getByRole('button', { name: '이전' })).toBeDisabled();
  await nav.getByRole('button', { name: '다음' }).click();
  await expect(nav).toContainText('2 / 3');
  await page.getByRole('combobox', { name: '상태' }).selectOption('CONFIRMED');
  await expect(nav).toContainText('1 / 3');
  expect(asked).toEqual(['PENDING:1', 'PENDING:2', 'CONFIRMED:1']);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('작업: staff read the queue by kind and put a failed job back after being asked once more', async ({ page, request }) => {
  const staff = await newStaff(request);
  await storeSession(page, staff);
  // The run's own queue, with one dead letter added (the retry's rules are the API's tests).
  const failed = { id: 987_654, kind: 'notify.send', key: 'notify.send:42', attempts: 8, last_error: 'SOLAPI timeout', failed_at: '2026-12-03T01:00:00.000Z' };
  let retried = false;
  await page.route('**/api/admin/jobs', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { data: { failed: unknown[] } };
    body.data.failed = retried ? [] : [failed];
    await route.fulfill({ response, json: body });
  });
  await page.route(`**/api/admin/jobs/${failed.id}/retry`, async (route) => {
    retried = true;
    await route.fulfill({ json: { code: 0, message: 'OK', data: { job: { ...failed, status: 'queued', run_at: '2026-12-03T02:00:00.000Z' } } } });
  });
  await page.goto('/admin#jobs');
  await hydrated(page, 'AdminConsole');
  await expect(page.getByRole('table', { name: '작업 대기열' })).toBeVisible();
  const item = page.getByTestId('failed-jobs').getByRole('listitem');
  await expect(item).toContainText('마지막 오류: SOLAPI timeout');
  await item.getByRole('button', { name: '다시 실행…' }).click();
  await expect(item).toContainText('실제로 결제·발송됩니다');
  expect(retried).toBe(false);
  await item.getByRole('button', { name: '다시 실행', exact: true }).click();
  await expect(page.getByRole('status')).toContainText(`작업 #${failed.id}를 다시 실행하도록 대기열에 넣었습니다.`);
  await expect(page.getByText('실패한 작업이 없습니다.')).toBeVisible();
});
