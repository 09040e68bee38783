import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { nextAlert, siteReady } from './users';

test.beforeEach(async ({ request }) => siteReady(request));

const banner = (page: Page) => page.locator('[data-banner]');
const portfolio = (page: Page) => page.locator('[data-portfolio]');

/** A clock paused before the page loads, so timers run only through runFor(n), exactly n ms at a time. */
async function frozenClock(page: Page) {
  const now = Date.now();
  await page.clock.install({ time: now });
  await page.clock.pauseAt(now + 1000);
  await page.goto('/butler');
}

test('the banner shows one of 2 slides and advances every 3 s, with CTAs to /butler/request and /chat', async ({ page }) => {
  await frozenClock(page);
  await expect(page.getByRole('heading', { level: 1, name: 'LUXE 의전 서비스' })).toBeAttached();
  const slides = banner(page).locator('[data-slide]');
  await expect(slides).toHaveCount(2);
  await expect(slides.filter({ visible: true })).toHaveCount(1);
  await expect(banner(page)).toHaveAttribute('data-index', '0');
  const first = slides.nth(0);
  await expect(first.getByRole('link', { name: '의전 예약하기' })).toHaveAttribute('href', '/butler/request');
  await expect(first.getByRole('link', { name: 'AI 채팅 상담' })).toHaveAttribute('href', '/chat');
  // The hidden slide's links are out of reach.
  await expect(slides.nth(1)).toHaveJSProperty('inert', true);

  await page.clock.runFor(2900);
  await expect(banner(page)).toHaveAttribute('data-index', '0');
  await page.clock.runFor(100);
  await expect(banner(page)).toHaveAttribute('data-index', '1');
  await expect(slides.nth(1).getByRole('link', { name: '채팅으로 예약하기' })).toHaveAttribute('href', '/chat');
  await expect(slides.nth(0)).toHaveJSProperty('inert', true);
  await page.clock.runFor(3000);
  await expect(banner(page)).toHaveAttribute('data-index', '0');

  // The pause button stops the rotation; the dots choose a slide.
  await banner(page).getByRole('button', { name: '배너 자동 넘김 정지' }).click();
  await expect(banner(page).getByRole('button', { name: '배너 자동 넘김 재생' })).toBeVisible();
  await page.mouse.move(0, 0);
  await page.clock.runFor(9000);
  await expect(banner(page)).toHaveAttribute('data-index', '0');
  await banner(page).getByRole('button', { name: '2번째 배너 보기' }).click();
  await expect(banner(page)).toHaveAttribute('data-index', '1');
  await slides.nth(1).getByRole('link', { name: '예약 요청서 작성' }).click();
  await expect(page).toHaveURL(/\/butler\/request\/?$/);
});

test('with reduced motion nothing rotates and the film does not play by itself', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await frozenClock(page);
  await expect(banner(page).getByRole('button', { name: '배너 자동 넘김 재생' })).toBeVisible();
  await expect(portfolio(page).getByRole('button', { name: '포트폴리오 자동 넘김 재생' })).toBeVisible();
  await page.clock.runFor(12_000);
  await expect(banner(page)).toHaveAttribute('data-index', '0');
  await expect(portfolio(page)).toHaveAttribute('data-index', '0');
  const video = page.locator('[data-loop-video] video');
  await video.scrollIntoViewIfNeeded();
  await expect(page.getByRole('button', { name: '영상 재생' })).toBeVisible();
  expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
});

test('a muted looping film with a poster, shipped with the site', async ({ page, request }) => {
  await page.goto('/butler');
  const video = page.locator('[data-loop-video] video');
  await expect(video).toHaveAttribute('loop', '');
  await expect(video).toHaveAttribute('playsinline', '');
  await expect(video).not.toHaveAttribute('autoplay', /.*/);
  expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
  const poster = await video.getAttribute('poster');
  expect((await request.get(poster!)).status()).toBe(200);
  for (const src of await video.locator('source').evaluateAll((s) => s.map((e) => e.getAttribute('src')!))) {
    const res = await request.get(src);
    expect(res.status()).toBe(200);
    expect((await res.body()).length).toBeLessThan(400_000);
  }
  await expect(page.getByRole('button', { name: '영상 일시정지' })).toBeAttached();
});

test('the portfolio loops through 6 events, 3 in view from 768 px and 1 below, 20 px apart', { tag: '@both-viewports' }, async ({ page, isMobile }) => {
  await frozenClock(page);
  const cards = portfolio(page).locator('[data-portfolio-card]');
  await expect(cards).toHaveCount(6);
  await portfolio(page).scrollIntoViewIfNeeded();
  await page.mouse.move(0, 0);
  const a = (await cards.nth(0).boundingBox())!;
  const b = (await cards.nth(1).boundingBox())!;
  expect(Math.round(b.x - (a.x + a.width))).toBe(20);
  const perView = isMobile ? 1 : 3;
  await expect(cards.and(page.locator('[aria-hidden="false"]'))).toHaveCount(perView);
  const viewport = (await portfolio(page).locator('[data-viewport]').boundingBox())!;
  expect(Math.round(a.width * perView + 20 * (perView - 1))).toBe(Math.round(viewport.width));

  const max = 6 - perView;
  await portfolio(page).getByRole('button', { name: '다음 행사' }).click();
  await expect(portfolio(page)).toHaveAttribute('data-index', '1');
  await portfolio(page).getByRole('button', { name: '이전 행사' }).click();
  await portfolio(page).getByRole('button', { name: '이전 행사' }).click();
  await expect(portfolio(page)).toHaveAttribute('data-index', String(max));
  // It advances by itself (once the pointer and focus have left) and wraps around to the first card.
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.clock.runFor(4000);
  await expect(portfolio(page)).toHaveAttribute('data-index', '0');
  await page.clock.runFor(4000);
  await expect(portfolio(page)).toHaveAttribute('data-index', '1');
});

test('사례 더 보기 (VIEW ARTICLES) says it is in preparation', async ({ page }) => {
  await page.goto('/butler');
  const alert = nextAlert(page);
  await page.getByRole('button', { name: '사례 더 보기' }).click();
  expect(await alert).toBe('준비중입니다.');
});

test('the landing is in butler mode, has no horizontal overflow and no serious axe violation', { tag: '@both-viewports' }, async ({ page }) => {
  await page.goto('/butler');
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'butler');
  await expect(page.locator('#site-header a[href="/fleet"]').first()).toBeAttached();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
});
