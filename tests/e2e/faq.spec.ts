import { expect, test } from './fixtures';
import { waitForSite } from './users';

test.beforeAll(async ({ request }) => waitForSite(request));

test('FAQ is pre-rendered, opens as an accordion with a 500 px answer, and links to terms and chat', async ({ page, request, browser }) => {
  const { faqs } = (await (await request.get('/api/services/faqs')).json()).data;
  // Without JavaScript the questions are already in the HTML.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const bare = await noJs.newPage();
  await bare.goto(`${test.info().project.use.baseURL}/faq`);
  await expect(bare.getByText(`Q. ${faqs[0].question}`)).toBeVisible();
  await noJs.close();

  await page.goto('/faq');
  const items = page.locator('details');
  const first = items.filter({ hasText: faqs[0].question });
  await expect(first).not.toHaveAttribute('open');
  await first.getByText(`Q. ${faqs[0].question}`).click();
  await expect(first).toHaveAttribute('open');
  const answer = first.getByTestId('faq-answer');
  await expect(answer).toContainText(faqs[0].answer);
  await expect(answer).toHaveCSS('max-height', '500px');
  await items.filter({ hasText: faqs[1].question }).getByText(`Q. ${faqs[1].question}`).click();
  await expect(first).not.toHaveAttribute('open');
  const aside = page.getByRole('complementary', { name: '도움말 링크' });
  await expect(aside.getByRole('link', { name: '서비스 이용약관' })).toHaveAttribute('href', '/terms');
  await expect(aside.getByRole('link', { name: '채팅 채널로 문의하기' })).toHaveAttribute('target', '_blank');
});

test('an empty FAQ list shows the 4 built-in questions', async ({ page }) => {
  await page.route('**/api/services/faqs', (route) => route.fulfill({ json: { code: 0, message: 'OK', data: { faqs: [] } } }));
  await page.goto('/faq');
  await expect(page.locator('details')).toHaveCount(4);
  await expect(page.getByText('Q. 차량 구독은 어떤 서비스인가요?')).toBeVisible();
});

test('a failing FAQ load says 자주 묻는 질문을 불러오지 못했습니다 (the spec\'s Failed to load FAQ)', async ({ page }) => {
  await page.route('**/api/services/faqs', (route) => route.fulfill({ status: 500, json: { code: 1500, message: '오류', errors: {} } }));
  await page.goto('/faq');
  await expect(page.getByRole('alert')).toHaveText('자주 묻는 질문을 불러오지 못했습니다. 잠시 후 다시 시도해주세요.');
});
