import type { Page } from '@playwright/test';

/**
 * Stands in for the PortOne browser SDK (https://cdn.portone.io/v2/browser-sdk.js) when a
 * build sets PUBLIC_PORTONE_STORE_ID: requestIssueBillingKey redirects to redirectUrl with
 * the provider's query contract, success or failure.
 */
export async function mockPortOne(page: Page, outcome: { billingKey: string } | { code: string; message: string }) {
  await page.addInitScript((o) => {
    const back = (redirectUrl: string, q: Record<string, string>) => {
      const url = new URL(redirectUrl, location.href);
      for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
      location.assign(url.toString());
    };
    (window as unknown as { PortOne: unknown }).PortOne = {
      requestIssueBillingKey: (req: { redirectUrl: string }) => {
        back(req.redirectUrl, { ...o, transactionType: 'ISSUE_BILLING_KEY' });
        return Promise.resolve(undefined);
      },
      requestIdentityVerification: () => Promise.resolve(undefined),
    };
  }, outcome);
  await page.route('https://cdn.portone.io/**', (route) => route.fulfill({ contentType: 'text/javascript', body: '/* PortOne stub: window.PortOne is predefined */' }));
}
