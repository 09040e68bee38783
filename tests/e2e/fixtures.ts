import { test as base, expect } from '@playwright/test';

/**
 * Every page: requests that leave localhost are aborted (tests never need the internet;
 * third-party scripts are stood in for with page.route in tests/e2e/mocks/), a
 * console.error fails the test unless the test expects it via `allowConsoleErrors`, and a
 * Content-Security-Policy violation (src/api/security-headers.ts) always fails it.
 */
export const test = base.extend<{ allowConsoleErrors: RegExp[] }>({
  allowConsoleErrors: [[], { option: true }],
  context: async ({ context }, use) => {
    await context.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.abort());
    await use(context);
  },
  page: async ({ page, allowConsoleErrors }, use) => {
    const errors: string[] = [];
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
      if (msg.type() !== 'error') return;
      const text = msg.text();
      // Aborted third-party requests are expected noise.
      if (/net::ERR_FAILED|Failed to load resource/.test(text)) return;
      if (allowConsoleErrors.some((re) => re.test(text))) return;
      errors.push(text);
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await use(page);
    expect(violations, 'Content-Security-Policy violations').toEqual([]);
    expect(errors, 'console errors on the page').toEqual([]);
  },
});

export { expect };
