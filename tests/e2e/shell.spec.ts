import { expect, test } from './fixtures';
import { logIn, nextAlert, siteReady } from './users';

test.beforeEach(async ({ request }) => siteReady(request));

const headerLink = (page: import('@playwright/test').Page, name: string) =>
  page.locator('#site-header').getByRole('link', { name, exact: true }).filter({ visible: true });

test.describe('header', () => {
  test('is 56 px high and shows the subscription links on subscription pages', { tag: '@both-viewports' }, async ({ page, isMobile }) => {
    await page.goto('/garage');
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'subscribe');
    expect((await page.locator('#site-header').boundingBox())!.height).toBe(56);
    if (isMobile) await page.getByRole('button', { name: '메뉴 열기' }).click();
    await expect(headerLink(page, '구독 차량')).toHaveAttribute('href', '/garage');
    await expect(headerLink(page, '자주 묻는 질문')).toHaveAttribute('href', '/faq');
    await expect(headerLink(page, '채팅 상담')).toHaveCount(0);
    await expect(headerLink(page, '구독')).toHaveAttribute('href', '/');
    await expect(headerLink(page, '의전')).toHaveAttribute('href', '/butler');
  });

  test('butler paths show 채팅 상담, 차량·요금 and 예약하기 (CHAT, FLEET, RESERVE), and the mode is remembered for neutral pages', { tag: '@both-viewports' }, async ({ page, isMobile }) => {
    await page.goto('/chat');
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'butler');
    if (isMobile) await page.getByRole('button', { name: '메뉴 열기' }).click();
    for (const [name, href] of [['채팅 상담', '/chat'], ['차량·요금', '/fleet'], ['예약하기', '/butler/request']]) {
      await expect(headerLink(page, name)).toHaveAttribute('href', href);
    }
    await expect(headerLink(page, '구독 차량')).toHaveCount(0);
    expect(await page.evaluate(() => [localStorage.getItem('lastService'), localStorage.getItem('lastPath')])).toEqual(['butler', '/chat']);
    // /my belongs to neither service: the remembered one shows.
    await page.goto('/my');
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'butler');
    await page.goto('/about');
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'subscribe');
    expect(await page.evaluate(() => localStorage.getItem('lastService'))).toBe('subscribe');
  });

  test('예약하기 (RESERVE) without login alerts 로그인이 필요합니다. and goes to /login', { tag: '@both-viewports' }, async ({ page, isMobile }) => {
    await page.goto('/chat');
    if (isMobile) await page.getByRole('button', { name: '메뉴 열기' }).click();
    const alert = nextAlert(page);
    await headerLink(page, '예약하기').click();
    expect(await alert).toBe('로그인이 필요합니다.');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('shows 로그인 for visitors and 마이페이지 with a valid session', { tag: '@both-viewports' }, async ({ page, isMobile }) => {
    await page.goto('/');
    if (isMobile) await page.getByRole('button', { name: '메뉴 열기' }).click();
    await expect(headerLink(page, '로그인')).toHaveAttribute('href', '/login');
    await logIn(page);
    await page.goto('/');
    if (isMobile) await page.getByRole('button', { name: '메뉴 열기' }).click();
    await expect(headerLink(page, '마이페이지')).toHaveAttribute('href', '/my');
  });

  test('the hamburger opens and closes the mobile menu', { tag: '@phone' }, async ({ page }) => {
    await page.goto('/');
    const menu = page.locator('#mobile-menu');
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: '메뉴 열기' }).click();
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: '메뉴 닫기' })).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
  });
});

test('the footer has the social links, the policy pages render their documents, and a copyright line', async ({ page }) => {
  await page.goto('/');
  const footer = page.locator('footer');
  for (const name of ['포토', '블로그', '채팅 채널', '영상']) await expect(footer.getByRole('link', { name: new RegExp(name) })).toHaveAttribute('target', '_blank');
  await expect(footer).toContainText('©');
  await footer.getByRole('link', { name: '개인정보 처리방침' }).click();
  await expect(page).toHaveURL(/\/privacy\/?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('개인정보 처리방침');
  await expect(page.getByRole('heading', { name: '1. 수집하는 개인정보' })).toBeVisible();
  await page.locator('footer').getByRole('link', { name: '서비스 이용약관' }).click();
  await expect(page).toHaveURL(/\/terms\/?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('서비스 이용약관');
  await expect(page.getByRole('heading', { name: '제1조 (목적)' })).toBeVisible();
});

test('every page\'s footer names the seller (전자상거래법 제10조·제13조) with the 공정위 사업자정보 link, at 390 px too', { tag: '@both-viewports' }, async ({ page }) => {
  for (const path of ['/', '/faq']) {
    await page.goto(path);
    const info = page.locator('footer').getByTestId('business-info');
    await info.scrollIntoViewIfNeeded();
    await expect(info).toBeVisible();
    for (const label of ['상호', '대표자', '주소', '전화', '이메일', '사업자등록번호', '통신판매업 신고번호', '호스팅 서비스 제공자', '개인정보 보호책임자']) {
      await expect(info.locator('dt', { hasText: new RegExp(`^${label}$`) })).toBeVisible();
    }
    // The development samples (src/domain/business.ts): visibly samples, and a number whose check digit is right.
    await expect(info).toContainText('주식회사 럭스모빌리티');
    await expect(info).toContainText('123-45-67891');
    await expect(info).toContainText('제0000-서울강남-00000호');
    await expect(info).toContainText('예시');
    await expect(info.getByRole('link', { name: '02-6952-0808' })).toHaveAttribute('href', 'tel:0269520808');
    const ftc = info.getByRole('link', { name: '사업자정보 확인' });
    await expect(ftc).toHaveAttribute('href', 'https://www.ftc.go.kr/bizCommPop.do?wrkr_no=1234567891');
    await expect(ftc).toHaveAttribute('target', '_blank');
    // Nothing of it runs off a 390 px screen.
    const box = await info.boundingBox();
    const width = page.viewportSize()?.width ?? 0;
    expect(box && box.x + box.width).toBeLessThanOrEqual(width);
  }
});

test('/{product} and any unknown path show home', async ({ page }) => {
  for (const path of ['/ferrari-296-gtb', '/no/such/page']) {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('원하는 차를');
  }
});

test('a new page opens scrolled to the top', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: '전체 차량 보기' }).scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.getByRole('link', { name: '전체 차량 보기' }).click();
  await expect(page).toHaveURL(/\/garage$/);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('the sitemap lists the storefront pages and every car', async ({ request }) => {
  const index = await (await request.get('/sitemap-index.xml')).text();
  expect(index).toContain('sitemap-0.xml');
  const map = await (await request.get('/sitemap-0.xml')).text();
  for (const path of ['/garage/', '/about/', '/contact/', '/car/1/']) expect(map).toContain(path);
  expect(map).not.toContain('/car/fallback');
});

test.describe('session rules', () => {
  test('an expired session counts as logged out and clears the tokens, the identity flag and the subscribeUser cookie', async ({ page, context }) => {
    await context.addCookies([{ name: 'subscribeUser', value: encodeURIComponent('{"name":"홍길동"}'), url: 'http://localhost' }]);
    await page.addInitScript(() => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('subscribeAccessToken', 'old');
      localStorage.setItem('subscribeRefreshToken', 'old-refresh');
      localStorage.setItem('subscribeTokenExpiry', String(Math.floor(Date.now() / 1000) - 10));
      localStorage.setItem('subscribeIdentityVerified', 'true');
    });
    await page.goto('/about');
    await expect(page.locator('[data-session-link]').first()).toHaveAttribute('href', '/login');
    await expect(page.locator('html')).not.toHaveClass(/\bsigned-in\b/);
    const left = await page.evaluate(() => ['subscribeAccessToken', 'subscribeRefreshToken', 'subscribeTokenExpiry', 'subscribeIdentityVerified'].map((k) => localStorage.getItem(k)));
    expect(left).toEqual([null, null, null, null]);
    expect((await context.cookies()).some((c) => c.name === 'subscribeUser')).toBe(false);
  });

  test('a protected route without login saves the path and goes to /login', async ({ page }) => {
    await page.goto('/my/requests');
    await expect(page).toHaveURL(/\/login$/);
    // The login page reads redirectAfterLogin once and removes it, so check the stored value as soon as it is written.
    await page.goto('/about');
    await page.evaluate(() => localStorage.removeItem('redirectAfterLogin'));
    await page.route('**/login', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>login</title>' }));
    await page.goto('/my/subscriptions');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('redirectAfterLogin'))).toBe('/my/subscriptions');
  });
});
