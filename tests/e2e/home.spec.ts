import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { nextAlert, siteReady } from './users';
import { blockKakaoMaps, stubKakaoMaps } from './mocks/kakao-maps';

test.beforeEach(async ({ request }) => siteReady(request));

const BRANDS = [
  ['Ferrari', 'ferrari'],
  ['Lamborghini', 'lamborghini'],
  ['Mercedes Benz', 'mercedes'],
  ['Porsche', 'porsche'],
  ['BMW', 'bmw'],
  ['기타 브랜드', 'others'],
] as const;

test.describe('brand showcase', () => {
  test('lists six brands, each linking to its garage', { tag: '@both-viewports' }, async ({ page, isMobile }) => {
    await page.goto('/');
    const slides = page.locator('[data-brand-slide]');
    await expect(slides).toHaveCount(6);
    for (const [i, [name, slug]] of BRANDS.entries()) {
      const slide = slides.nth(i);
      await expect(slide.getByRole('heading', { name })).toHaveCount(1);
      await expect(slide.getByRole('link')).toHaveAttribute('href', `/garage?brand=${slug}`);
      await expect(slide.locator('img')).toHaveCount(3);
    }
    if (!isMobile) {
      await slides.nth(2).getByRole('link').click();
      await expect(page).toHaveURL(/\/garage\?brand=mercedes$/);
      await expect(page.getByTestId('garage-title')).toHaveText('Mercedes Benz');
    }
  });

  test('on narrow screens one brand with one image shows at a time, rotating every 2 s', { tag: '@phone' }, async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    // Freeze the clock so every runFor(2000) is exactly one rotation step. The target lies far enough
    // ahead that a slow round trip cannot put it in the past; a rotation on the way is read below.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    const showcase = page.locator('[data-showcase]');
    const slugs = BRANDS.map(([, slug]) => slug);
    const start = slugs.indexOf((await showcase.getAttribute('data-active-brand')) as (typeof slugs)[number]);
    expect(start).toBeGreaterThanOrEqual(0);
    await expect(page.locator('[data-brand-slide]').filter({ visible: true })).toHaveCount(1);
    await expect(page.locator(`[data-brand-slide="${slugs[start]}"] img`).filter({ visible: true })).toHaveCount(1);
    for (let step = 1; step <= 6; step++) {
      const slug = slugs[(start + step) % 6];
      await page.clock.runFor(2000);
      await expect(showcase).toHaveAttribute('data-active-brand', slug);
      await expect(page.locator(`[data-brand-slide="${slug}"]`)).toBeVisible();
      await expect(page.locator('[data-brand-slide]').filter({ visible: true })).toHaveCount(1);
    }
  });

  test('on wide screens every brand shows its three cars and nothing rotates', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.locator('[data-brand-slide]').filter({ visible: true })).toHaveCount(6);
    await page.clock.runFor(4000);
    await expect(page.locator('[data-showcase]')).toHaveAttribute('data-active-brand', 'ferrari');
  });
});

test.describe('새로 들어온 차량 (NEW CARS) carousel', () => {
  const carousel = (page: Page) => page.locator('[data-carousel]');
  const index = async (page: Page) => Number(await carousel(page).getAttribute('data-index'));

  async function drag(page: Page, dx: number) {
    await carousel(page).locator('[data-viewport]').scrollIntoViewIfNeeded();
    const box = (await carousel(page).locator('[data-viewport]').boundingBox())!;
    const y = box.y + box.height / 3;
    const x = box.x + box.width / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(x + (dx * i) / 8, y);
    await page.mouse.up();
  }

  test('cards show tags, brand, name and price with a tilde, and link to /car/{id}', async ({ page, request }) => {
    const { new_cars } = (await (await request.get('/api/subscriptions/cars')).json()).data;
    await page.goto('/');
    const cards = carousel(page).locator('[data-car-card]');
    await expect(cards).toHaveCount(new_cars.length);
    const first = cards.first();
    await expect(first).toHaveAttribute('href', `/car/${new_cars[0].id}`);
    await expect(first.getByRole('listitem').first()).toHaveText('신규');
    await expect(first).toContainText(new_cars[0].model.brand.name);
    // The spec's exact home price: the one place ₩ stays.
    await expect(first.locator('[data-price]')).toHaveText(/^(₩[\d,]+\/월~|차량가 ₩[\d,]+|문의 필요~)$/);
    // Tags come before the brand, the brand before the name and the price.
    const text = (await first.innerText()).replace(/\s+/g, ' ');
    expect(text.indexOf('신규')).toBeLessThan(text.indexOf(new_cars[0].model.brand.name.toUpperCase()));
  });

  test('arrows and dots move the slides and wrap around', async ({ page }) => {
    await page.goto('/');
    await expect(carousel(page)).toHaveAttribute('data-index', '0');
    await page.getByRole('button', { name: '다음 차량' }).click();
    await expect(carousel(page)).toHaveAttribute('data-index', '1');
    await page.getByRole('button', { name: '이전 차량' }).click();
    await expect(carousel(page)).toHaveAttribute('data-index', '0');
    // Back from the first slide wraps to the last position.
    await page.getByRole('button', { name: '이전 차량' }).click();
    const last = await index(page);
    expect(last).toBeGreaterThan(0);
    await expect(carousel(page).locator('[data-dot]').filter({ visible: true })).toHaveCount(last + 1);
    await page.getByRole('button', { name: '다음 차량' }).click();
    await expect(carousel(page)).toHaveAttribute('data-index', '0');
    await page.getByRole('button', { name: '3번째 차량' }).click();
    await expect(carousel(page)).toHaveAttribute('data-index', '2');
    await expect(page.getByRole('button', { name: '3번째 차량' })).toHaveAttribute('aria-current', 'true');
  });

  test('a drag changes the slide only past max(40 px, 20% of the slide width)', async ({ page }) => {
    await page.goto('/');
    await expect(carousel(page)).toHaveAttribute('data-index', '0');
    const slideWidth = (await carousel(page).locator('[data-track] > li').first().boundingBox())!.width;
    const threshold = Math.max(40, slideWidth * 0.2);
    await drag(page, -(threshold - 8));
    await expect(carousel(page)).toHaveAttribute('data-index', '0');
    await expect(page).toHaveURL(/\/$/); // a drag is not a click on the card
    await drag(page, -(threshold + 10));
    await expect(carousel(page)).toHaveAttribute('data-index', '1');
    await drag(page, threshold + 10);
    await expect(carousel(page)).toHaveAttribute('data-index', '0');
    // Dragging right from the first slide wraps to the end.
    await drag(page, threshold + 10);
    expect(await index(page)).toBeGreaterThan(0);
  });

  test('a card click opens the car', async ({ page }) => {
    await page.goto('/');
    const first = carousel(page).locator('[data-car-card]').first();
    const href = await first.getAttribute('href');
    await first.click();
    await expect(page).toHaveURL(new RegExp(`${href}/?$`));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });
});

test('인기 차량 (POPULAR CARS): labelled 기타 (OTHERS), 4 per row wide and 2 narrow, 전체 차량 보기 to /garage', { tag: '@both-viewports' }, async ({ page, request, isMobile }) => {
  const { hot_cars } = (await (await request.get('/api/subscriptions/cars')).json()).data;
  await page.goto('/');
  const grid = page.locator('[data-popular]');
  const cards = grid.locator('[data-car-card]');
  await expect(cards).toHaveCount(hot_cars.length);
  for (const [i, car] of hot_cars.entries()) {
    await expect(cards.nth(i)).toHaveAttribute('href', `/car/${car.id}`);
    await expect(cards.nth(i).getByRole('listitem').first()).toHaveText('기타');
  }
  const columns = await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
  expect(columns).toBe(isMobile ? 2 : 4);
  await page.getByRole('link', { name: '전체 차량 보기' }).click();
  await expect(page).toHaveURL(/\/garage$/);
});

test('LUXE 매거진 (ARTICLES): four fixed entries with a date, and 매거진 더 보기 alerts 준비중입니다.', async ({ page }) => {
  await page.goto('/');
  const items = page.locator('[data-articles] article');
  await expect(items).toHaveCount(4);
  for (let i = 0; i < 4; i++) {
    await expect(items.nth(i).getByRole('heading')).not.toBeEmpty();
    await expect(items.nth(i).locator('time')).toHaveText(/^\d{4}\.\d{2}\.\d{2}$/);
  }
  const alert = nextAlert(page);
  await page.getByRole('button', { name: '매거진 더 보기' }).filter({ visible: true }).click();
  expect(await alert).toBe('준비중입니다.');
});

test.describe('lounge location', () => {
  const section = (page: Page) => page.locator('section', { has: page.getByRole('heading', { name: '라운지 안내' }) });

  test('geocodes the lounge address and places a marker and its label', async ({ page }) => {
    await stubKakaoMaps(page);
    await page.goto('/');
    await section(page).scrollIntoViewIfNeeded();
    const map = page.getByTestId('lounge-map');
    await expect(map).toHaveAttribute('data-lat', '37.5246');
    await expect(map).toHaveAttribute('data-lng', '127.0446');
    await expect(page.getByTestId('kakao-map-stub')).toBeAttached();
    await expect(map).toContainText('LUXE 라운지 청담');
    expect(await page.evaluate(() => (window as any).__kakaoGeocoded)).toBe('서울특별시 강남구 도산대로 442');
    expect(await page.evaluate(() => (window as any).__kakaoMarkers.length)).toBe(1);
  });

  test('falls back to the default Seoul position when geocoding fails', async ({ page }) => {
    await stubKakaoMaps(page, { geocode: 'fail' });
    await page.goto('/');
    await section(page).scrollIntoViewIfNeeded();
    await expect(page.getByTestId('lounge-map')).toHaveAttribute('data-lat', '37.5665');
    await expect(page.getByTestId('lounge-map')).toHaveAttribute('data-lng', '126.978');
    await expect(page.getByTestId('lounge-map')).toContainText('LUXE 라운지 청담');
  });

  test('shows a readable address card when the SDK cannot load, and the place link opens a new tab', async ({ page }) => {
    await blockKakaoMaps(page);
    await page.goto('/');
    await section(page).scrollIntoViewIfNeeded();
    await expect(page.getByTestId('lounge-address-card')).toContainText('서울특별시 강남구 도산대로 442');
    const link = section(page).getByRole('link', { name: /카카오맵에서 보기/ });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('href', /^https:\/\/map\.kakao\.com\//);
  });
});
