import { expect, test } from './fixtures';
import { hydrated, siteReady } from './users';

test.beforeEach(async ({ request }) => siteReady(request));

test('/contact: every field is required and the email field has the email type', async ({ page }) => {
  await page.goto('/contact');
  await page.locator('form').scrollIntoViewIfNeeded();
  await hydrated(page, 'ContactForm');
  for (const label of ['이름', '이메일', '제목', '메시지']) await expect(page.getByLabel(label)).toHaveAttribute('required', '');
  await expect(page.getByLabel('이메일')).toHaveAttribute('type', 'email');
  let posted = false;
  page.on('request', (r) => r.url().includes('/api/services/contacts') && (posted = true));
  await page.getByRole('button', { name: '보내기' }).click();
  expect(await page.getByLabel('이름').evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  await page.getByLabel('이름').fill('홍길동');
  await page.getByLabel('이메일').fill('not-an-email');
  await page.getByRole('button', { name: '보내기' }).click();
  expect(await page.getByLabel('이메일').evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
  expect(posted).toBe(false);
  // Static contact details.
  await expect(page.locator('main aside').getByText('서울특별시 강남구 도산대로 442')).toBeVisible();
  await expect(page.locator('main aside').getByRole('link', { name: '02-6952-0808' })).toHaveAttribute('href', 'tel:0269520808');
});

test('/contact: a message is sent to the API and the success is shown in Korean', async ({ page }) => {
  await page.goto('/contact');
  await page.locator('form').scrollIntoViewIfNeeded();
  await hydrated(page, 'ContactForm');
  await page.getByLabel('이름').fill('홍길동');
  await page.getByLabel('이메일').fill('hong@example.com');
  await page.getByLabel('제목').fill('구독 문의');
  await page.getByLabel('메시지').fill('포르쉐 911 12개월 구독이 가능한지 궁금합니다.');
  const response = page.waitForResponse((r) => r.url().endsWith('/api/services/contacts') && r.request().method() === 'POST');
  await page.getByRole('button', { name: '보내기' }).click();
  const res = await response;
  expect(res.status()).toBe(201);
  expect(res.request().postDataJSON()).toEqual({ name: '홍길동', email: 'hong@example.com', subject: '구독 문의', message: '포르쉐 911 12개월 구독이 가능한지 궁금합니다.' });
  await expect(page.getByRole('status')).toHaveText('문의가 접수되었습니다. 담당자가 빠르게 연락드리겠습니다.');
  await expect(page.getByLabel('이름')).toHaveValue('');
});

test('/contact: a failure is shown in Korean with the server message', async ({ page }) => {
  await page.route('**/api/services/contacts', (route) =>
    route.fulfill({ status: 400, json: { code: 1001, message: '입력값을 확인해주세요.', errors: { email: ['올바른 이메일 주소를 입력해주세요.'] } } }),
  );
  await page.goto('/contact');
  await page.locator('form').scrollIntoViewIfNeeded();
  await hydrated(page, 'ContactForm');
  await page.getByLabel('이름').fill('홍길동');
  await page.getByLabel('이메일').fill('hong@example.com');
  await page.getByLabel('제목').fill('문의');
  await page.getByLabel('메시지').fill('내용');
  await page.getByRole('button', { name: '보내기' }).click();
  await expect(page.getByRole('alert')).toHaveText('입력값을 확인해주세요.');
  await expect(page.getByText('올바른 이메일 주소를 입력해주세요.')).toBeVisible();
  await expect(page.getByLabel('이메일')).toHaveAttribute('aria-invalid', 'true');
});

test('/about: hero links, three feature cards, philosophy and the statistics', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('link', { name: '차량 둘러보기' })).toHaveAttribute('href', '/garage');
  await expect(page.getByRole('link', { name: '문의하기' })).toHaveAttribute('href', '/contact');
  await expect(page.locator('#features-title + ul > li')).toHaveCount(3);
  await expect(page.getByRole('heading', { name: '좋은 차는 경험이어야 합니다.' })).toBeVisible();
  await expect(page.locator('[data-stat]')).toHaveText(['20+', '300+', '24/7', '99.9%']);
});
