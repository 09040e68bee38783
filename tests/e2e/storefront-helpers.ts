import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Accepts the next alert and returns its text once it has appeared. */
export function nextAlert(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', async (d) => {
      resolve(d.message());
      await d.accept();
    });
  });
}

/** A valid session as the login page stores it (the spec's keys), set before any script runs. */
export async function logIn(page: Page) {
  await page.addInitScript(() => {
    localStorage.setItem('subscribeAccessToken', 'e2e-token');
    localStorage.setItem('subscribeTokenExpiry', String(Math.floor(Date.now() / 1000) + 3600));
  });
}

/** The server answers 503 (a page that refreshes itself) until its first build is in place. */
export async function siteReady(request: APIRequestContext) {
  await expect.poll(async () => (await request.get('/about')).status(), { timeout: 120_000 }).toBe(200);
}

/** Waits until the named island has hydrated (Astro drops the ssr attribute then). */
export async function hydrated(page: Page, component: string) {
  await expect(page.locator(`astro-island[component-url*="${component}"]`).first()).not.toHaveAttribute('ssr', /.*/);
}
