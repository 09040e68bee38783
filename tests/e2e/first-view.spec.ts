import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { hydrated, loginAs, newUser, siteReady } from './users';
import { addDays, dotDate } from '../../src/domain/dates';
import { BRAND_FONT_CLASS, CORE_FONT, SUBSETS_CSS } from '../../src/domain/fonts';

test.beforeEach(async ({ request }) => siteReady(request));

/**
 * What keeps a first view fast on a slow phone (issue 37, docs/decisions/fonts.md): a first visit
 * paints in the system's Korean face and downloads no font before its load event; it then fetches
 * Pretendard's one core file (within budget) and every later view draws with it from the cache, with
 * nothing moving; the unicode-range subsets only for characters outside it; nothing but the site
 * stylesheet holds up the first paint. Structure only, never a timing (the timings are
 * `npm run bench -- --only lighthouse`).
 */
/** The faces Chromium draws an element's text with (DevTools protocol). */
async function fontsDrawing(page: Page, selector: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts;
}

/**
 * The layout shifts of the page so far (the CLS of a load), from the browser's own entries. `all`
 * counts every shift, as Lighthouse does, also a field's text changing width in place.
 */
const layoutShift = (page: Page, { all = false } = {}) =>
  page.evaluate((all) => new Promise<number>((resolve) => {
    // Layout shifts are not in the performance timeline (getEntriesByType gives none): a buffered observer.
    type Rect = { x: number; y: number };
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { previousRect: Rect; currentRect: Rect }[] };
    let total = 0;
    const add = (entries: PerformanceEntryList) => {
      for (const e of entries as Shift[]) {
        // What moved: a field whose text changes width in place (a date filled in) is reported as well.
        const moved = e.sources.some((s) => s.previousRect.x !== s.currentRect.x || s.previousRect.y !== s.currentRect.y);
        if (!e.hadRecentInput && (moved || all)) total += e.value;
      }
    };
    const observer = new PerformanceObserver((list) => add(list.getEntries()));
    observer.observe({ type: 'layout-shift', buffered: true });
    setTimeout(() => {
      add(observer.takeRecords());
      observer.disconnect();
      resolve(total);
    }, 0);
  }), all);

/** Whether this browser remembers the core file (the before-paint script's condition). */
const remembersCore = (page: Page) => page.evaluate(([key, version]) => localStorage.getItem(key) === version, [CORE_FONT.storageKey, CORE_FONT.version]);

/** The header's mode links (sans text on every page) are drawn with Pretendard, or with system faces only. */
async function modeLinksDrawnWith(page: Page): Promise<'Pretendard' | 'system'> {
  const faces = new Set<string>();
  for (const selector of ['[data-mode-link="subscribe"]', '[data-mode-link="butler"]']) {
    const drawing = await fontsDrawing(page, selector);
    expect(drawing.length).toBeGreaterThan(0);
    for (const f of drawing) faces.add(f.isCustomFont ? 'Pretendard' : 'system');
  }
  expect(faces.size).toBe(1);
  return [...faces][0] as 'Pretendard' | 'system';
}

const PAGES = ['/', '/garage', '/car/1', '/butler', '/fleet', '/chat', '/butler/request', '/faq', '/about', '/contact', '/login', '/signup'];

for (const path of PAGES) {
  test(`first view of ${path}: no font before load, then the one core file within budget drawn from the next view on; nothing render-blocking`, { tag: '@phone' }, async ({ page }) => {
    const fonts: { url: string; type: string; afterLoad: boolean; bytes: Promise<number> }[] = [];
    const scripts: string[] = [];
    let loaded = false;
    page.on('response', (res) => {
      const url = new URL(res.url()).pathname;
      const type = res.request().resourceType();
      if (url.endsWith('.woff2')) fonts.push({ url, type, afterLoad: loaded, bytes: res.body().then((b) => b.length).catch(() => 0) });
      if (type === 'script') scripts.push(url);
    });
    page.on('load', () => (loaded = true));
    await page.goto(path, { waitUntil: 'load' });
    // A first visit: the system face, no font file before the load event; the core file is fetched after it.
    expect(await page.evaluate((c) => document.documentElement.classList.contains(c), BRAND_FONT_CLASS)).toBe(false);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).not.toContain('Pretendard');
    expect(await modeLinksDrawnWith(page)).toBe('system');
    await expect.poll(() => remembersCore(page), { timeout: 15_000 }).toBe(true);
    expect(fonts.map((f) => [f.url, f.afterLoad])).toEqual([[CORE_FONT.href, true]]);
    expect(await fonts[0].bytes).toBeLessThanOrEqual(CORE_FONT.budgetBytes);
    await page.waitForLoadState('networkidle');
    // Nothing switched faces on this page: nothing moved.
    expect(await modeLinksDrawnWith(page)).toBe('system');
    expect(await layoutShift(page)).toBe(0);

    // Render-blocking: no classic external script (the before-paint scripts are inline), one stylesheet at most.
    const blocking = await page.evaluate(() =>
      [...document.querySelectorAll('script[src]')].filter((s) => (s as HTMLScriptElement).type !== 'module' && !(s as HTMLScriptElement).defer && !(s as HTMLScriptElement).async).map((s) => s.getAttribute('src')),
    );
    expect(blocking).toEqual([]);
    // No point for the parser to paint at before the main content: no inline script in the body (the mode
    // and island prescripts are in the head) and no script of any kind before <main>.
    const bodyScripts = await page.evaluate(() => {
      const main = document.querySelector('main')!;
      return [...document.body.querySelectorAll<HTMLScriptElement>('script:not([type="application/ld+json"])')]
        .filter((s) => !s.src || main.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_PRECEDING)
        .map((s) => s.src || s.textContent.slice(0, 60));
    });
    expect(bodyScripts).toEqual([]);
    await expect(page.locator('html')).toHaveAttribute('data-mode', /^(subscribe|butler)$/);
    expect(scripts.filter((s) => s.startsWith('/scripts/'))).toEqual([]);
    expect(await page.locator(`head link[rel="stylesheet"]:not([href="${SUBSETS_CSS}"])`).count()).toBeLessThanOrEqual(1);
    await expect(page.locator('head link[rel="preload"][as="font"]')).toHaveCount(0);
    // The meta description every page needs (Lighthouse SEO), and no noindex on a page people search for.
    await expect(page.locator('head meta[name="description"]')).toHaveAttribute('content', /.{20,}/);
    await expect(page.locator('head meta[name="robots"][content*="noindex"]')).toHaveCount(0);

    // The next view: Pretendard from the cached core file from the first paint (optional: never a late swap),
    // the core's characters are all the text needs (no subset file), the subsets stylesheet added after load.
    fonts.length = 0;
    loaded = false;
    await page.reload({ waitUntil: 'load' });
    expect(await page.evaluate((c) => document.documentElement.classList.contains(c), BRAND_FONT_CLASS)).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^Pretendard/);
    await expect(page.locator(`head link[rel="preload"][as="font"][href="${CORE_FONT.href}"][crossorigin]`)).toHaveCount(1);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForLoadState('networkidle');
    await expect.poll(() => page.evaluate((href) => [...document.styleSheets].some((s) => s.href?.endsWith(href)), SUBSETS_CSS)).toBe(true);
    expect(await modeLinksDrawnWith(page)).toBe('Pretendard');
    expect(fonts.map((f) => f.url)).toEqual([CORE_FONT.href]);
    expect(await layoutShift(page)).toBe(0);
  });
}

test('a character outside the core file is drawn from its unicode-range subset, fetched only then', async ({ page }) => {
  await page.goto('/about', { waitUntil: 'load' });
  await expect.poll(() => remembersCore(page), { timeout: 15_000 }).toBe(true);
  const fonts: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'font') fonts.push(new URL(req.url()).pathname);
  });
  await page.reload({ waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  expect(fonts).toEqual([CORE_FONT.href]);
  await expect.poll(() => page.evaluate((href) => [...document.styleSheets].some((s) => s.href?.endsWith(href)), SUBSETS_CSS)).toBe(true);
  // 뷁 (U+BDC1) is in no page's text: a name or an address typed later.
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.textContent = '뷁';
    document.querySelector('main')!.append(p);
  });
  await expect.poll(() => fonts.filter((f) => f !== CORE_FONT.href).length).toBe(1);
  expect(fonts[1]).toMatch(/^\/fonts\/pretendard\/PretendardVariable\.subset\.\d+\.woff2$/);
});

test("on a phone the home page's first view: its largest element is never lazy-loaded; the first showcase picture is the one image at high priority", { tag: '@phone' }, async ({ page }) => {
  await page.goto('/');
  const first = page.locator('[data-showcase] [data-brand-slide] img').first();
  await expect(first).toHaveAttribute('fetchpriority', 'high');
  await expect(first).toHaveAttribute('loading', 'eager');
  await expect(page.locator('img[fetchpriority="high"]')).toHaveCount(1);
  // The LCP the browser reports (at 390 × 844 the membership banner's top, on shorter phones the
  // showcase picture): whichever it is, it was not waiting for a lazy load.
  const lcp = await page.evaluate(
    () =>
      new Promise<{ src: string | null; loading: string | null }>((resolve) =>
        new PerformanceObserver((list) => {
          const last = list.getEntries().at(-1) as PerformanceEntry & { element: Element | null };
          resolve({ src: last.element?.getAttribute('src') ?? null, loading: last.element?.getAttribute('loading') ?? null });
        }).observe({ type: 'largest-contentful-paint', buffered: true }),
      ),
  );
  expect(['/banner.svg', await first.getAttribute('src')]).toContain(lcp.src);
  expect(lcp.loading).toBe('eager');
});

test('/my paints its frame before the account answers; the values then fill it without moving anything', async ({ page, request }) => {
  const user = await newUser(request, { points: 1200 });
  await loginAs(page, user.token);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/accounts$/, async (route) => {
    if (route.request().method() === 'GET') await held;
    await route.continue();
  });
  await page.goto('/my');
  await hydrated(page, 'MyPage');
  // The account has not answered: the labels, the cards and the consent text are there, the values not yet.
  await expect(page.getByText('이벤트·혜택 소식을 이메일로 받습니다.', { exact: false })).toBeVisible();
  await expect(page.getByText('추천 코드')).toBeVisible();
  await expect(page.getByTestId('my-points')).toHaveText('');
  await expect(page.getByTestId('marketing-consent')).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: '회원 정보를 불러오는 중입니다.' })).toBeAttached();
  const before = await page.getByText('추천 코드').boundingBox();
  release();
  await expect(page.getByTestId('my-points')).toHaveText('1,200 P');
  await expect(page.getByTestId('my-referral-code')).toHaveText(user.referral_code);
  await expect(page.getByTestId('marketing-consent')).toBeEnabled();
  expect(await page.getByText('추천 코드').boundingBox()).toEqual(before);
  expect(await layoutShift(page)).toBe(0);
});

test('a my-page list going from 로딩 중... to its empty text moves nothing', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/payments(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/my/payments');
  await expect(page.getByRole('status').filter({ hasText: '로딩 중...' })).toBeVisible();
  await page.evaluate(() => new Promise(requestAnimationFrame));
  release();
  await expect(page.getByText('아직 결제 내역이 없습니다.')).toBeVisible();
  expect(await layoutShift(page)).toBe(0);
});

test('the order page paints its guide and the product card before the car answers; the car then fills the card without moving anything', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  // The car and its first free day answer separately, the car first.
  const held = (pattern: RegExp) => {
    let release!: () => void;
    const answer = new Promise<void>((resolve) => (release = resolve));
    void page.route(pattern, async (route) => {
      await answer;
      await route.continue();
    });
    return release;
  };
  const releaseCar = held(/\/api\/subscriptions\/cars\/1$/);
  const releaseAvailability = held(/\/api\/subscriptions\/availability\?/);
  await page.goto('/inquire?month=12&carId=1');
  await hydrated(page, 'OrderPage');
  await expect(page.getByTestId('order-guide')).toContainText('정기결제 카드를 등록하면 첫 달 요금이 결제되고');
  const product = page.getByRole('region', { name: '차량 정보' });
  await expect(product).toBeVisible();
  await expect(page.getByTestId('order-fee')).toHaveText('');
  await expect(page.getByRole('status').filter({ hasText: '로딩 중...' })).toBeVisible();
  const before = await product.boundingBox();
  await page.evaluate(() => new Promise(requestAnimationFrame));
  releaseCar();
  await page.waitForResponse(/\/api\/subscriptions\/cars\/1$/);
  await page.evaluate(() => new Promise(requestAnimationFrame));
  releaseAvailability();
  await expect(page.getByTestId('order-fee')).toHaveText(/원\/월$/);
  await expect(page.getByTestId('order-availability')).toContainText('구독 가능');
  await expect(page.getByTestId('order-start-date')).not.toHaveValue('');
  // The card stays where it was painted (a long name may make it taller on a phone).
  const filled = await page.getByRole('region', { name: /296 GTB/ }).boundingBox();
  expect({ x: filled?.x, y: filled?.y, width: filled?.width }).toEqual({ x: before?.x, y: before?.y, width: before?.width });
  // Every shift, as Lighthouse counts them: also the start date's segments had it been drawn empty first.
  expect(await layoutShift(page, { all: true })).toBe(0);
});

test('a car taken from its earliest day: the order page names the first free day at once and nothing moves', async ({ page, request }) => {
  const user = await newUser(request);
  await loginAs(page, user.token);
  // Another customer's term holds the car until 40 days from now (as in a full suite run): the
  // first read says from when, and reading that start again must not blank the line meanwhile.
  await page.route(/\/api\/subscriptions\/availability\?/, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const start = new URL(route.request().url()).searchParams.get('start');
    const a = body.data.availability[0];
    // The same world for the start's read: free from that day (whatever other specs ordered of car 1).
    if (start) {
      body.data.availability[0] = { ...a, start, free: true, next_start: start, available_from: start, text: `${dotDate(start)}부터 구독 가능` };
      return route.fulfill({ response, json: body });
    }
    const from = addDays(a.start, 40);
    body.data.availability[0] = { ...a, free: false, next_start: from, available_from: from, text: `${dotDate(from)}부터 구독 가능` };
    await route.fulfill({ response, json: body });
  });
  await page.goto('/inquire?month=12&carId=1');
  await hydrated(page, 'OrderPage');
  await expect(page.getByTestId('order-availability')).toHaveText(/^\d{4}\.\d{2}\.\d{2}부터 구독 가능$/);
  const from = await page.getByTestId('order-start-date').inputValue();
  await expect(page.getByTestId('order-availability')).toHaveText(`${dotDate(from)}부터 구독 가능`);
  await page.waitForLoadState('networkidle');
  expect(await layoutShift(page, { all: true })).toBe(0);
});

test('the butler form fills its times in without any layout shift, not even inside the fields', async ({ page }) => {
  await page.goto('/butler/request');
  await hydrated(page, 'ReservationForm');
  await expect(page.getByLabel('출발 시간')).not.toHaveValue('');
  await expect(page.getByLabel('도착 시간 (선택)')).not.toHaveValue('');
  await page.evaluate(() => new Promise(requestAnimationFrame));
  expect(await layoutShift(page, { all: true })).toBe(0);
});

test('the islands whose text is the first view hydrate once the first frame is laid out (client:visible)', async ({ request }) => {
  for (const path of ['/chat', '/my', '/inquire', '/butler/request']) {
    const html = await (await request.get(path)).text();
    const directives = [...html.matchAll(/<astro-island[^>]* client="(\w+)"/g)].map((m) => m[1]);
    expect(directives, path).toEqual(['visible']);
  }
});
