import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { hydrated, waitForSite } from './users';
import { expect, test } from './fixtures';

test.beforeAll(async ({ request }) => waitForSite(request));

/** Tomorrow in Korea, YYYY-MM-DD. */
const tomorrow = () => new Date(Date.now() + 9 * 3600_000 + 86_400_000).toISOString().slice(0, 10);

async function openChat(page: Page, path = '/chat') {
  await page.goto(path);
  await hydrated(page);
}

async function say(page: Page, text: string) {
  // As a person would: after the answer before has finished (while it streams, Enter sends nothing and 중지 shows instead of 보내기).
  await expect(page.getByRole('button', { name: '보내기' })).toBeVisible();
  const box = page.getByLabel('메시지', { exact: true });
  await box.fill(text);
  await box.press('Enter');
}

const answers = (page: Page) => page.getByRole('listitem', { name: '도우미 답변' });
const card = (page: Page) => page.getByRole('complementary', { name: '예약 정보' });

test('a Korean conversation fills the booking state and hands off to a prefilled reservation form', async ({ page, request }) => {
  const { cars } = (await (await request.get('/api/butlers/cars')).json()).data;
  const car = cars.find((c: any) => !c.butler_reservated_dates.includes(tomorrow()));
  await openChat(page);
  await expect(page.getByRole('heading', { level: 1, name: '의전 예약 도우미' })).toBeVisible();

  await say(page, '내일 오후 2시 반에 인천공항에서 강남역까지 3명이요');
  await expect(page.getByRole('listitem', { name: '보낸 메시지' })).toHaveText('내일 오후 2시 반에 인천공항에서 강남역까지 3명이요');
  await expect(answers(page).first()).toContainText('· 출발지: 인천공항');
  await expect(answers(page).first()).toContainText('원하시는 차량을 알려주세요.');
  await expect(page.getByRole('status')).toContainText('원하시는 차량을 알려주세요.'); // the live region reads the finished answer
  await expect(card(page).getByTestId('booking-출발지')).toContainText('인천공항');
  await expect(card(page).getByTestId('booking-탑승 인원')).toContainText('3명');
  await expect(answers(page).first().getByRole('link', { name: '차량 보기' })).toHaveAttribute('href', '/fleet');

  await say(page, `${car.model.name}로 해주세요`);
  await expect(answers(page).nth(1)).toContainText('예약에 필요한 정보가 모두 준비되었습니다.');
  await expect(card(page).getByTestId('booking-차량')).toContainText(car.model.name);
  await expect(answers(page).nth(1).getByRole('link', { name: '예약 신청서 열기' })).toBeVisible();

  await card(page).getByRole('link', { name: '이 내용으로 예약하기' }).click();
  await page.waitForURL(/\/butler\/request\?/);
  const q = new URL(page.url()).searchParams;
  expect(Object.fromEntries(q)).toEqual({ carId: String(car.id), date: tomorrow(), time: '14:30', from: '인천공항', to: '강남역', passengers: '3' });
  // The form (another island) reads the same query; its fields show the values.
  await hydrated(page);
  await expect.poll(() => page.locator('input, textarea').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(expect.arrayContaining(['인천공항', '강남역']));
});

test('a correction in the summary card reaches the state, the history survives a reload, and 대화 지우기 clears both', async ({ page }) => {
  await openChat(page);
  await say(page, '모레 세 명');
  await expect(answers(page).first()).toContainText('· 탑승 인원: 3명');

  await card(page).getByRole('button', { name: '탑승 인원 수정' }).click();
  await card(page).getByLabel('탑승 인원 수정').fill('25');
  await card(page).getByRole('button', { name: '저장' }).click();
  await expect(card(page).getByText('탑승 인원은 최대 20명입니다.')).toBeVisible();
  await card(page).getByLabel('탑승 인원 수정').fill('4');
  await card(page).getByRole('button', { name: '저장' }).click();
  await expect(card(page).getByTestId('booking-탑승 인원')).toContainText('4명');

  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('listitem', { name: '보낸 메시지' })).toHaveText('모레 세 명');
  await expect(answers(page).first()).toContainText('· 탑승 인원: 3명');
  await expect(card(page).getByTestId('booking-탑승 인원')).toContainText('4명');
  const stored = await page.evaluate(() => ({ history: JSON.parse(localStorage.getItem('butlerChatHistory') ?? '[]'), state: JSON.parse(localStorage.getItem('butlerChatState') ?? '{}') }));
  expect(stored.history).toHaveLength(2);
  expect(stored.state['탑승 인원']).toBe(4);

  await page.getByRole('button', { name: '대화 지우기' }).click();
  await expect(page.getByRole('region', { name: '대화 내용' }).getByRole('listitem')).toHaveCount(3); // the three example prompts
  await expect(card(page).getByTestId('booking-탑승 인원')).toContainText('-');
  expect(await page.evaluate(() => localStorage.getItem('butlerChatHistory'))).toBe('[]');
});

test('a failed call says 오류가 발생했습니다 and an empty answer says 응답이 없습니다 (the spec\'s An error occurred. and No response.)', async ({ page }) => {
  await page.route('**/api/services/gpt/1', (route) => route.fulfill({ status: 500, json: { code: 1500, message: '일시적인 오류가 발생했습니다.', errors: {} } }));
  await openChat(page);
  await say(page, '내일');
  await expect(page.getByRole('alert')).toContainText('오류가 발생했습니다. 잠시 후 다시 시도해주세요.');
  await expect(page.getByRole('status')).toHaveText('오류가 발생했습니다. 잠시 후 다시 시도해주세요.');

  await page.unroute('**/api/services/gpt/1');
  await page.route('**/api/services/gpt/1', (route) =>
    route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: 'data: {"is_finished":true}\n\ndata: [DONE]\n\n' }),
  );
  await say(page, '모레');
  await expect(page.getByRole('alert').nth(1)).toHaveText('응답이 없습니다. 잠시 후 다시 시도해주세요.');
});

test('hours said in passing reach the card, and 취소 starts over', async ({ page }) => {
  await openChat(page);
  await say(page, '모레 오후 2시 서울역에서 강남역까지 2명');
  await expect(answers(page).first()).toContainText('원하시는 차량을 알려주세요.');
  await say(page, '3시간 쓸게요');
  await expect(answers(page).nth(1)).toContainText('이용 시간은 오후 2시부터 오후 5시까지 3시간으로 잡았습니다.');
  await expect(card(page).getByTestId('booking-메모')).toContainText('이용 시간: 오후 2시 ~ 오후 5시 (3시간)');
  await expect(card(page).getByTestId('booking-출발지')).toContainText('서울역');

  await say(page, '취소');
  await expect(answers(page).nth(2)).toContainText('진행 중이던 예약 내용을 모두 취소하고 지웠습니다.');
  await expect(card(page).getByTestId('booking-출발지')).toContainText('-');
  await expect(card(page).getByTestId('booking-메모')).toContainText('-');
});

test('하루종일 says its hours and writes them into the card; 어제 is answered as past and empties the day', async ({ page }) => {
  await openChat(page);
  await say(page, '모레 하루종일 이용할게요');
  await expect(answers(page).first()).toContainText('하루종일 이용으로 오전 9시부터 오후 9시까지 12시간 일정을 잡았습니다.');
  await expect(card(page).getByTestId('booking-탑승 시간')).toContainText('오전 9시');
  await expect(card(page).getByTestId('booking-메모')).toContainText('하루종일 이용: 오전 9시 ~ 오후 9시 (12시간)');

  await say(page, '어제로 바꿔주세요');
  await expect(answers(page).nth(1)).toContainText('이미 지난 날짜입니다.');
  await expect(answers(page).nth(1)).toContainText('언제 이용하실 예정인가요?');
  await expect(card(page).getByTestId('booking-날짜')).toContainText('-');
  await expect(card(page).getByTestId('booking-탑승 시간')).toContainText('오전 9시');
});

test('a plain JSON answer is understood: text, updates and action buttons', async ({ page }) => {
  await page.route('**/api/services/gpt/1', (route) =>
    route.fulfill({ json: { code: 0, message: 'OK', data: { message_text: '마이페이지에서 확인하세요.', next_prompt: null, updates: { 출발지: '서울역', '탑승 인원': 99 }, ui_triggers: ['my', 'pricing'] } } }),
  );
  await openChat(page);
  await say(page, '내 예약 확인');
  await expect(answers(page).first()).toContainText('마이페이지에서 확인하세요.');
  await expect(answers(page).first().getByRole('link', { name: '마이페이지' })).toHaveAttribute('href', '/my');
  await expect(answers(page).first().getByRole('link', { name: '요금 안내' })).toHaveAttribute('href', /^\/fleet/);
  await expect(card(page).getByTestId('booking-출발지')).toContainText('서울역');
  await expect(card(page).getByTestId('booking-탑승 인원')).toContainText('-'); // 99 fails the schema
});

test('?carId starts with that car; the page fits 390 px and passes axe', async ({ page, request }) => {
  const { cars } = (await (await request.get('/api/butlers/cars')).json()).data;
  await openChat(page, `/chat?carId=${cars[1].id}`);
  await expect(card(page).getByTestId('booking-차량')).toContainText(cars[1].model.name);
  await say(page, '어떤 차량이 있나요?');
  await expect(answers(page).first()).toContainText(cars[0].model.name);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
});
