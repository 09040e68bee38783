import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { siteReady } from './users';
import { blockKakaoMaps } from './mocks/kakao-maps';

test.beforeEach(async ({ request }) => siteReady(request));

for (const path of ['/', '/garage', '/car/1', '/about', '/contact', '/privacy', '/terms', '/car/99999999']) {
  test(`axe finds no serious or critical violation on ${path}`, { tag: '@both-viewports' }, async ({ page }) => {
    await blockKakaoMaps(page);
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const { violations } = await new AxeBuilder({ page }).analyze();
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
  });
}
