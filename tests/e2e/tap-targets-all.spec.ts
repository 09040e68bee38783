import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { confirm, hydrated, loginAs, newUser, orderableCar, placeRequest, waitForSite } from './users';
import { placeButler } from './butler-users';

/**
 * Issue 49: every tap target a customer meets at 390 px gives a finger 44 × 44 px. One walk over
 * every customer-facing page kind (home, garage, car page, order page, sign-up, login, /my and its
 * lists, /my/payments with a receipt link, the 의전 pages, FAQ, terms), measuring every visible
 * link, button, range slider and checkbox/radio label as laid out. No exemption for links inside
 * running text: the spec states no such rule, so they are given the height too.
 */
test.beforeAll(async ({ request }) => waitForSite(request));

/** Every visible interactive element under 44 × 44 px: its kind, text and size. */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const MIN = 44;
    const seen = new Set<Element>();
    const out: string[] = [];
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      if (r.width <= 2 || r.height <= 2) return false; // screen-reader-only (skip link, hidden inputs)
      const s = getComputedStyle(el);
      if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false;
      if (el.closest('[aria-hidden="true"], [inert], details:not([open]) > :not(summary)')) return false;
      return true;
    };
    const targets: Element[] = [
      ...document.querySelectorAll('a[href], button, summary, input[type=range], [role=slider], [role=tab], [role=button]'),
      // A checkbox or radio is tapped through its label.
      ...[...document.querySelectorAll('input[type=checkbox], input[type=radio]')].map((i) => (i as HTMLInputElement).labels?.[0] ?? i),
    ];
    for (const el of targets) {
      if (seen.has(el) || !visible(el)) continue;
      seen.add(el);
      const r = el.getBoundingClientRect();
      if (r.width + 0.5 < MIN || r.height + 0.5 < MIN) {
        const name = (el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.getAttribute('href') || '').trim().replace(/\s+/g, ' ').slice(0, 40);
        out.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return out;
  });
}

/** Opens `path`, waits for it to settle, and returns what is too small there. */
async function audit(page: Page, path: string, ready?: () => Promise<unknown>): Promise<string[]> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  if (ready) await ready();
  return (await smallTargets(page)).map((t) => `${path}: ${t}`);
}

test('at 390 px every link, button, slider and checkbox label of every page kind is at least 44 × 44 px', { tag: '@phone' }, async ({ page, request }) => {
  test.setTimeout(240_000);
  expect(page.viewportSize()!.width).toBe(390);
  const car = await orderableCar(request);
  const small: string[] = [];

  // Before login: home, garage, a car, sign-up, login, FAQ, terms, privacy, the 의전 pages.
  small.push(...(await audit(page, '/', () => expect(page.locator('[data-car-card]').first()).toBeVisible())));
  // The phone header's menu, opened.
  await page.locator('#menu-button').click();
  await expect(page.locator('#mobile-menu')).toBeVisible();
  small.push(...(await smallTargets(page)).map((t) => `/ (menu): ${t}`));
  small.push(...(await audit(page, '/garage', () => hydrated(page, 'GarageBrowser'))));
  small.push(...(await audit(page, `/car/${car.id}`, () => hydrated(page))));
  small.push(...(await audit(page, '/signup', () => hydrated(page))));
  small.push(...(await audit(page, '/login', () => hydrated(page, 'LoginForm'))));
  small.push(...(await audit(page, '/faq')));
  small.push(...(await audit(page, '/terms')));
  small.push(...(await audit(page, '/privacy')));
  small.push(...(await audit(page, '/butler')));
  small.push(...(await audit(page, '/fleet')));
  small.push(...(await audit(page, '/about')));
  small.push(...(await audit(page, '/contact', () => hydrated(page))));
  small.push(...(await audit(page, '/forgot-password', () => hydrated(page))));

  // Logged in, with a pending order, a confirmed one (a paid first payment: its receipt link) and a 의전 booking.
  const user = await newUser(request, { points: 30_000 });
  const pending = await placeRequest(request, user.token, car.id, { month: 12 });
  const second = await orderableCar(request);
  const confirmed = await placeRequest(request, user.token, second.id, { month: 12 });
  await confirm(request, confirmed.id, '2033-01-01');
  const booking = await placeButler(request, user.token);
  await loginAs(page, user.token);
  small.push(...(await audit(page, `/inquire?month=12&carId=${(await orderableCar(request)).id}`, () => hydrated(page))));
  // With 탁송 chosen: the address search and the window appear.
  await page.getByRole('radio', { name: '탁송', exact: true }).check();
  await expect(page.locator('#order-delivery-window')).toBeVisible();
  small.push(...(await smallTargets(page)).map((t) => `/inquire (탁송): ${t}`));
  small.push(...(await audit(page, '/my', () => hydrated(page, 'MyPage'))));
  small.push(...(await audit(page, '/my/requests', () => expect(page.getByTestId('request-item').first()).toBeVisible())));
  small.push(...(await audit(page, '/my/subscriptions', () => expect(page.getByTestId('subscription-item').first()).toBeVisible())));
  small.push(...(await audit(page, '/my/payments', () => expect(page.getByRole('link', { name: /영수증/ }).first()).toBeVisible())));
  small.push(...(await audit(page, `/subscribe/request/${pending.id}`, () => hydrated(page, 'RequestDetail'))));
  small.push(...(await audit(page, '/my/butler', () => hydrated(page))));
  small.push(...(await audit(page, '/my/butler-requests', () => hydrated(page))));
  small.push(...(await audit(page, '/my/butler-subscriptions', () => hydrated(page))));
  small.push(...(await audit(page, `/butler/request/${booking.id}`, () => hydrated(page))));
  small.push(...(await audit(page, '/coupon', () => hydrated(page, 'CouponWallet'))));
  small.push(...(await audit(page, '/points')));
  small.push(...(await audit(page, '/referral', () => hydrated(page, 'ReferralPanel'))));

  expect(small).toEqual([]);
});
