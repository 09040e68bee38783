import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiAs, hydrated, loginAs, newUser, orderableCar, waitForSite } from './users';

/**
 * Korean reading quality and finish (issue 15): line breaking, tracking, no sideways scroll on
 * a phone, the mobile menu's backdrop, garage filters, coupon states, consent texts, real
 * links, the inquiry path for 문의 필요 and the balance behind the order's completion.
 * With SHOTS=<folder> every page of the tour is also saved as a full-page screenshot.
 */

test.beforeAll(async ({ request }) => waitForSite(request));

const PUBLIC_PAGES = ['/', '/garage', '/car/1', '/about', '/contact', '/faq', '/privacy', '/terms', '/login', '/signup', '/forgot-password', '/butler', '/fleet', '/butler/request', '/chat'];
const USER_PAGES = ['/inquire?carId=1&month=12', '/coupon', '/referral', '/points', '/my', '/my/requests', '/my/subscriptions'];
/** Pages whose source is not in the tree yet (another agent's work in progress) are skipped, saying so. */
const pageSource: Record<string, string> = { '/chat': 'src/pages/chat.astro', '/butler': 'src/pages/butler/index.astro', '/fleet': 'src/pages/fleet.astro', '/butler/request': 'src/pages/butler/request/index.astro' };

const HANGUL = /[\uAC00-\uD7A3]/;

/** Visible elements with Hangul in their own text whose tracking is over 0.05em or that may break inside a word. */
function readingOffenders(page: Page) {
  return page.evaluate((hangul) => {
    const re = new RegExp(hangul);
    const out: { text: string; letterSpacingEm: number; wordBreak: string }[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join('').trim();
      if (!own || !re.test(own)) continue;
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      const em = style.letterSpacing === 'normal' ? 0 : parseFloat(style.letterSpacing) / parseFloat(style.fontSize);
      if (em > 0.05 || style.wordBreak !== 'keep-all') out.push({ text: own.slice(0, 30), letterSpacingEm: Math.round(em * 100) / 100, wordBreak: style.wordBreak });
    }
    return out;
  }, HANGUL.source);
}

/** How far the page reaches past the viewport sideways, with the elements that stick out. */
function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const over = document.documentElement.scrollWidth - width;
    const culprits = over > 0
      ? [...document.body.querySelectorAll<HTMLElement>('*')].filter((el) => el.getBoundingClientRect().right > width + 1).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 80))
      : [];
    return { over, culprits };
  });
}

async function tour(page: Page, path: string, isMobile: boolean, projectName: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  const url = new URL(page.url());
  expect((url.pathname.replace(/(.)\/$/, '$1')) + url.search, 'the page is shown, not redirected').toBe(path);
  expect(await page.evaluate(() => [getComputedStyle(document.body).wordBreak, getComputedStyle(document.body).overflowWrap])).toEqual(['keep-all', 'break-word']);
  expect(await readingOffenders(page), 'Korean text: no wide tracking, no breaks inside words').toEqual([]);
  if (isMobile) expect(await sidewaysOverflow(page), 'no sideways scroll at 390 px').toEqual({ over: 0, culprits: [] });
  if (process.env.SHOTS) {
    // Walk down once so lazy images and client:visible islands are in the picture.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
        scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 120));
      }
      scrollTo(0, 0);
    });
    await page.waitForLoadState('networkidle');
    await shot(page, `${projectName}-${path.replace(/[/?&=]+/g, '_').replace(/^_|_$/g, '') || 'home'}`, true);
  }
}

/** With SHOTS=<folder>, saves a screenshot for a person to look at. */
async function shot(page: Page, name: string, fullPage = false) {
  if (process.env.SHOTS) await page.screenshot({ path: join(process.env.SHOTS, `${name}.png`), fullPage });
}

test.describe('every page reads well', { tag: '@both-viewports' }, () => {
  for (const path of PUBLIC_PAGES) {
    test(`public ${path}`, async ({ page, isMobile }, info) => {
      test.skip(Boolean(pageSource[path]) && !existsSync(pageSource[path]), `${path} is not built yet (${pageSource[path]} does not exist)`);
      await tour(page, path, isMobile, info.project.name);
    });
  }
  for (const path of USER_PAGES) {
    test(`logged in ${path}`, async ({ page, request, isMobile }, info) => {
      const user = await newUser(request, { points: 30_000, coupons: ['WELCOME10', 'EXPIRED20'] });
      await loginAs(page, user.token);
      await tour(page, path, isMobile, info.project.name);
    });
  }
});

test('Latin eyebrows keep their wide tracking', async ({ page }) => {
  await page.goto('/contact');
  const ls = await page.locator('.eyebrow').first().evaluate((el) => parseFloat(getComputedStyle(el).letterSpacing) / parseFloat(getComputedStyle(el).fontSize));
  expect(ls).toBeGreaterThan(0.2);
  const label = await page.locator('main').getByText('이메일', { exact: true }).evaluate((el) => getComputedStyle(el).letterSpacing);
  expect(label).toBe('normal');
});

test('the mobile menu dims and covers the page; a tap on the dimmed part closes it', { tag: '@phone' }, async ({ page }) => {
  await page.goto('/about');
  await page.getByRole('button', { name: '메뉴 열기' }).click();
  const menu = page.locator('#mobile-menu');
  await expect(menu).toBeVisible();
  const viewport = page.viewportSize()!;
  expect(await menu.boundingBox()).toEqual({ x: 0, y: 56, width: viewport.width, height: viewport.height - 56 });
  // Black at 60 %, however the browser spells the colour.
  expect(await menu.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^(rgba\(0, 0, 0, 0\.6\)|oklab\(0 0 0 \/ 0\.6\))$/);
  // Whatever lies below the links is the backdrop, not the page.
  expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.id, [viewport.width / 2, viewport.height - 20])).toBe('mobile-menu');
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
  await shot(page, 'mobile-menu-open');
  await page.mouse.click(viewport.width / 2, viewport.height - 20);
  await expect(menu).toBeHidden();
  await expect(page.getByRole('button', { name: '메뉴 열기' })).toHaveAttribute('aria-expanded', 'false');
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('visible');
});

test.describe('garage', () => {
  test('every months option is in view at 390 px and the filter block stays compact', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/garage');
    await hydrated(page, 'GarageBrowser');
    const group = page.getByRole('group', { name: '기간(개월)' });
    const width = page.viewportSize()!.width;
    for (const name of ['전체', '1', '3', '6', '12', '24', '36']) {
      const box = (await group.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(box.x, `${name} starts in view`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name} ends in view`).toBeLessThanOrEqual(width - 16);
      expect(box.width).toBeGreaterThanOrEqual(28);
    }
    const filters = (await page.getByTestId('month-options').locator('xpath=ancestor::div[contains(@class,"border-y")]').boundingBox())!;
    // Compact: three rows of 44 px tap targets (issue 40), two of them under their labels, and nothing
    // more (before the 44 px rule the same block was under 190 px).
    expect(filters.height).toBeLessThan(240);
    await group.getByRole('button', { name: '36', exact: true }).click();
    await expect(page).toHaveURL(/month=36/);
  });

  test('the brand order is the showcase order before and after the first fetch', { tag: '@both-viewports' }, async ({ page, request, isMobile }) => {
    const api = (await (await request.get('/api/subscriptions/garages')).json()).data.garage_list as { name: string }[];
    const expected = ['전체', ...api.map((b) => b.name), '기타 브랜드'];
    const names = () => (isMobile
      ? page.getByLabel('브랜드 선택').locator('option').allTextContents()
      : page.getByRole('navigation', { name: '브랜드' }).locator(':scope > ul > li > button').allTextContents());
    await page.goto('/garage');
    expect(await names()).toEqual(expected);
    await hydrated(page, 'GarageBrowser');
    const fetched = page.waitForResponse((r) => r.url().includes('/api/subscriptions/garages'));
    await page.getByRole('group', { name: '기간(개월)' }).getByRole('button', { name: '12', exact: true }).click();
    await fetched;
    await expect(page.getByTestId('garage-grid')).toBeVisible();
    expect(await names()).toEqual(expected);
  });

  test('a failed fetch does not keep the old count', async ({ page }) => {
    await page.goto('/garage');
    await hydrated(page, 'GarageBrowser');
    await expect(page.getByTestId('garage-count')).toHaveText(/\d+ \/ \d+대/);
    await page.route('**/api/subscriptions/garages**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":1,"message":"x"}' }));
    await page.getByRole('group', { name: '기간(개월)' }).getByRole('button', { name: '6', exact: true }).click();
    await expect(page.getByRole('button', { name: '다시 시도' })).toBeVisible();
    await expect(page.getByTestId('garage-count')).toHaveText('');
    await page.unroute('**/api/subscriptions/garages**');
    await page.getByRole('button', { name: '다시 시도' }).click();
    await expect(page.getByTestId('garage-count')).toHaveText(/\d+ \/ \d+대/);
  });
});

test('a coupon whose period has not started is 사용 예정 among the usable ones, not 기간 만료', async ({ page, request }) => {
  const user = await newUser(request, { coupons: ['WELCOME10', 'EXPIRED20'] });
  await loginAs(page, user.token);
  const later = new Date(Date.now() + 9 * 3600_000 + 20 * 86_400_000).toISOString().slice(0, 10);
  // The seed has no future coupon: one is added to the real answer.
  await page.route((url) => url.pathname === '/api/subscriptions/coupons' && url.searchParams.get('service') === 'SUBSCRIBE', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    const welcome = body.data.coupons.find((h: { coupon: { code: string } }) => h.coupon.code === 'WELCOME10');
    body.data.coupons.push({ ...welcome, id: 99_999, is_valid: false, coupon: { ...welcome.coupon, id: 99_999, name: '봄 시즌 쿠폰', code: 'SPRING', valid_from: later } });
    await route.fulfill({ response: res, json: body });
  });
  await page.goto('/coupon');
  const available = page.getByRole('region', { name: '사용 가능한 쿠폰' });
  const spent = page.getByRole('region', { name: '사용 완료 · 기간 만료 쿠폰' });
  const upcoming = available.getByTestId('coupon-card').filter({ hasText: '봄 시즌 쿠폰' });
  await expect(upcoming).toHaveAttribute('data-state', '사용 예정');
  await expect(upcoming).toContainText('사용 예정');
  await expect(upcoming).toContainText(`${later}부터 사용 가능`);
  await shot(page, `${test.info().project.name}-coupon-upcoming`, true);
  await expect(available.getByTestId('coupon-card').filter({ hasText: '웰컴 10% 할인' })).toHaveAttribute('data-state', '사용 가능');
  await expect(spent.getByTestId('coupon-card')).toHaveCount(1);
  await expect(spent.getByTestId('coupon-card')).toHaveAttribute('data-state', '기간 만료');
  await expect(spent).toContainText('기간 만료');
});

test('each consent opens its text; the service terms are the published ones', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await hydrated(page, 'OrderPage');
  await page.getByRole('button', { name: '정기결제 동의 보기' }).click();
  const dialog = page.getByRole('dialog', { name: '정기결제 동의' });
  await expect(dialog.getByTestId('consent-text')).toContainText('매월 자동 결제');
  await shot(page, `${test.info().project.name}-consent-dialog`);
  await dialog.getByRole('button', { name: '확인' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel('[필수] 정기결제 동의')).not.toBeChecked();

  const published = (await (await request.get('/api/services/terms')).json()).data.terms[0].content as string;
  await page.getByRole('button', { name: '자동차 구독 서비스 이용약관 동의 보기' }).click();
  const terms = page.getByRole('dialog', { name: '자동차 구독 서비스 이용약관 동의' });
  await expect(terms.getByTestId('consent-text')).toContainText(published.split('\n')[0]);
  await page.keyboard.press('Escape');
  await expect(terms).toBeHidden();
  for (const name of ['반납 평가 기준', '위치정보 이용약관', '전자금융거래 기본약관', '개인신용정보 수집·이용', '개인신용정보 제공']) {
    await page.getByRole('button', { name: `${name} 동의 보기` }).click();
    const d = page.getByRole('dialog', { name: `${name} 동의` });
    await expect(d.getByTestId('consent-text')).not.toBeEmpty();
    await d.getByRole('button', { name: '확인' }).click();
  }
});

/** Every .html file of the e2e build. */
function builtPages(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? builtPages(p) : p.endsWith('.html') ? [p] : [];
  });
}

test('the built site links to real addresses: no bare service roots, tap-to-call and mail links', async ({ page }) => {
  const dist = `.e2e/${process.env.E2E_PORT ?? 4399}/dist`;
  const bare = /href="https?:\/\/(?:www\.)?(?:pf\.kakao\.com|instagram\.com|blog\.naver\.com|youtube\.com|facebook\.com|twitter\.com|x\.com)\/?"/g;
  const found = builtPages(dist).flatMap((file) => (readFileSync(file, 'utf8').match(bare) ?? []).map((m) => `${file}: ${m}`));
  expect(found).toEqual([]);

  for (const path of ['/', '/faq', '/contact']) {
    await page.goto(path);
    const external = await page.locator('a[href^="http"]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const href of external) expect(new URL(href).pathname.length, `${path}: ${href}`).toBeGreaterThan(1);
  }
  await page.goto('/');
  const footer = page.locator('footer');
  await expect(footer.getByRole('link', { name: '02-6952-0808' })).toHaveAttribute('href', 'tel:0269520808');
  await expect(footer.getByRole('link', { name: 'concierge@luxe-subscribe.kr' })).toHaveAttribute('href', 'mailto:concierge@luxe-subscribe.kr');
  await expect(footer.getByRole('link', { name: /채팅 채널/ })).toHaveAttribute('href', 'https://pf.kakao.com/_LuxeSubscribe');
  await expect(page.locator('#lounge-title').locator('xpath=..').getByRole('link', { name: '02-6952-0808' })).toHaveAttribute('href', 'tel:0269520808');
  await page.goto('/faq');
  await expect(page.getByRole('link', { name: '채팅 채널로 문의하기' })).toHaveAttribute('href', 'https://pf.kakao.com/_LuxeSubscribe/chat');
});

/** A seeded car without any fee (every term 문의 필요). */
async function carWithoutFees(request: APIRequestContext) {
  for (let p = 1; ; p++) {
    const data = (await (await request.get(`/api/subscriptions/garages?page=${p}`)).json()).data;
    const car = (data.cars as { id: number; subscription_fee_minimum: number | null; model: { name: string; brand: { name: string } } }[]).find((c) => c.subscription_fee_minimum === null);
    if (car) return car;
    if (!data.pagination_info.next) throw new Error('the seed has no car without fees');
  }
}

test('문의 필요: the car and the order page offer the contact form, prefilled with the car', async ({ page, request }) => {
  const car = await carWithoutFees(request);
  await page.goto(`/car/${car.id}`);
  await expect(page.getByTestId('monthly-fee')).toHaveText('문의 필요');
  await expect(page.getByTestId('car-inquiry')).toHaveAttribute('href', /^\/contact\?subject=/);

  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/inquire?carId=${car.id}`);
  await expect(page.getByTestId('order-fee')).toHaveText('문의 필요');
  await expect(page.getByTestId('order-inquiry')).toContainText('상담이 필요한 차량입니다');
  await shot(page, `${test.info().project.name}-order-inquiry`, true);
  await expect(page.getByRole('button', { name: '신청하기' })).toHaveCount(0);
  await page.getByRole('link', { name: '문의하기' }).click();
  await expect(page).toHaveURL(/\/contact\?/);
  await hydrated(page, 'ContactForm');
  await expect(page.getByLabel('제목')).toHaveValue(new RegExp(`^\\[차량 문의\\] ${car.model.brand.name} ${car.model.name}`));
  await expect(page.getByLabel('메시지')).toHaveValue(new RegExp(`상품 번호 ${car.id}\\)의 구독 조건과 요금을 문의합니다\\.$`));
  await expect(page.getByLabel('이름')).toHaveValue('');
  await shot(page, `${test.info().project.name}-contact-prefilled`, true);
});

test('behind the completion dialog the order page shows the balance after the spend', async ({ page, request }) => {
  const car = await orderableCar(request);
  const user = await newUser(request, { points: 80_000 });
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await expect(page.getByTestId('point-balance')).toHaveText('80,000 P');
  await page.getByLabel('사용할 포인트').fill('50000');
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await page.getByRole('button', { name: /승인/ }).click();
  await expect(page.getByRole('dialog', { name: '구독 신청 완료' })).toBeVisible();
  await expect(page.getByTestId('point-balance')).toHaveText('30,000 P');
  await shot(page, `${test.info().project.name}-order-done`);
  await expect(page.getByLabel('사용할 포인트')).toHaveValue('');
  expect((await apiAs(request, user.token, 'GET', '/users/point-transactions')).body.data.point).toBe(30_000);
});

test('the payment sandbox looks like the site, says it is a test, and its cancel returns to the order with a failure', { tag: '@both-viewports' }, async ({ page, request, isMobile }) => {
  const car = await orderableCar(request);
  const user = await newUser(request);
  await loginAs(page, user.token);
  await page.goto(`/inquire?month=12&carId=${car.id}`);
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '신청하기' }).click();
  await page.getByRole('dialog', { name: '주문 확인' }).getByRole('button', { name: '다음' }).click();
  await expect(page.getByText('테스트 환경 · 실제 결제가 아닙니다')).toBeVisible();
  await expect(page.getByText('TEST · 테스트 페이지')).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^Pretendard/);
  expect(await readingOffenders(page)).toEqual([]);
  if (isMobile) expect(await sidewaysOverflow(page)).toEqual({ over: 0, culprits: [] });
  await shot(page, `${test.info().project.name}-sandbox-billing`, true);
  const alert = page.waitForEvent('dialog');
  await page.getByRole('button', { name: '취소하고 돌아가기' }).click();
  const dialog = await alert;
  expect(dialog.message()).toBe('결제에 실패했습니다: 카드 등록을 취소했습니다.');
  await dialog.accept();
  await expect(page).toHaveURL(new RegExp(`/inquire\\?month=12&carId=${car.id}$`));
  await expect(page.getByRole('button', { name: '신청하기' })).toBeVisible();
  expect((await apiAs(request, user.token, 'GET', '/subscriptions/requests')).body.data.subscription_requests).toHaveLength(0);
});

test('the identity sandbox has the same look and a cancel back to signup', { tag: '@both-viewports' }, async ({ page, isMobile }) => {
  await page.goto('/signup');
  await hydrated(page, 'SignupForm');
  await page.getByLabel('이름').fill('홍길동');
  await page.getByLabel('휴대폰 번호', { exact: true }).fill('010-1234-5678');
  await page.getByRole('button', { name: '본인인증' }).click();
  await expect(page.getByText('테스트 환경 · 실제 본인인증이 아닙니다')).toBeVisible();
  if (isMobile) expect(await sidewaysOverflow(page)).toEqual({ over: 0, culprits: [] });
  await shot(page, `${test.info().project.name}-sandbox-identity`, true);
  await page.getByRole('button', { name: '취소하고 돌아가기' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('alert').filter({ hasText: '본인인증에 실패했습니다' })).toBeVisible();
  await expect(page.getByLabel('이름')).toHaveValue('홍길동');
});
