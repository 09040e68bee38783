import { test, expect } from '@playwright/test';

/**
 * The site's Content-Security-Policy is enforced by the browser (src/api/security-headers.ts):
 * an injected inline script does not run, while the pages themselves run without a violation
 * (tests/e2e/fixtures.ts fails every other spec on one).
 */
test('pages carry the security headers and the browser refuses an injected inline script', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  const res = await page.goto('/garage');
  const headers = res!.headers();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).not.toContain("'unsafe-inline' https"); // scripts: no unsafe-inline
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toContain('camera=()');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['strict-transport-security']).toBeUndefined();
  // Hydrated islands prove Astro's inline runtime is allowed.
  await expect(page.locator('astro-island').first()).not.toHaveAttribute('ssr', '');
  expect(violations).toEqual([]);
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true;';
    // An inserted inline script runs during append() when the policy lets it: no wait needed.
    document.head.append(script);
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});
