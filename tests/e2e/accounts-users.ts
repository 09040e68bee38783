import { randomBytes, randomInt } from 'node:crypto';
import { expect, request as playwrightRequest, type APIRequestContext, type Page } from '@playwright/test';

/** A person nobody else in the run uses. */
export function newPerson() {
  const digits = String(randomInt(10_000_000, 99_999_999));
  const tag = randomBytes(4).toString('hex');
  return { name: `김테스트${tag.slice(0, 2)}`, mobile: `010${digits}`, email: `e2e-${tag}@example.com`, password: 'secret123' };
}

/** Passes the identity sandbox as a tester would; returns the identityVerificationId. */
export async function sandboxVerify(request: APIRequestContext, person: { name: string; mobile: string }): Promise<string> {
  const id = `identity-verification-${randomBytes(8).toString('hex')}`;
  const res = await request.post('/api/sandbox/identity/verify', {
    form: { identityVerificationId: id, redirectUrl: '/signup', name: person.name, phone: person.mobile, birthDate: '1990-01-01' },
    maxRedirects: 0,
  });
  if (res.status() !== 303) throw new Error(`sandbox: ${res.status()} ${await res.text()}`);
  return id;
}

export interface SignedUp {
  person: ReturnType<typeof newPerson>;
  access_token: string;
  refresh_token: string;
  user: { id: number; name: string; referral_code: string; mobile: string };
}

/** A verified account made through the real signup API. */
export async function signupUser(request: APIRequestContext): Promise<SignedUp> {
  const person = newPerson();
  const identity_code = await sandboxVerify(request, person);
  const res = await request.post('/api/accounts', { data: { ...person, identity_code } });
  if (res.status() !== 201) throw new Error(`signup: ${res.status()} ${await res.text()}`);
  return { person, ...(await res.json()).data };
}

/** Stores a session before any page script runs; `expiresIn` seconds from now (default 24 h). */
export async function storeSession(page: Page, s: { access_token: string; refresh_token?: string }, expiresIn = 86_400) {
  await page.addInitScript(
    ([access, refresh, exp]) => {
      if (sessionStorage.getItem('e2eSessionSet')) return; // only on the first page of the test
      sessionStorage.setItem('e2eSessionSet', '1');
      localStorage.setItem('subscribeAccessToken', access);
      if (refresh) localStorage.setItem('subscribeRefreshToken', refresh);
      localStorage.setItem('subscribeTokenExpiry', String(Math.floor(Date.now() / 1000) + Number(exp)));
    },
    [s.access_token, s.refresh_token ?? '', String(expiresIn)] as const,
  );
}

/** What the page holds in local storage under the spec's keys. */
export async function storedSession(page: Page) {
  return page.evaluate(() => ({
    access: localStorage.getItem('subscribeAccessToken'),
    refresh: localStorage.getItem('subscribeRefreshToken'),
    expiry: Number(localStorage.getItem('subscribeTokenExpiry')),
    verified: localStorage.getItem('subscribeIdentityVerified'),
    redirect: localStorage.getItem('redirectAfterLogin'),
    now: Math.floor(Date.now() / 1000),
  }));
}

/** Waits until every island on the page has hydrated (Astro drops the `ssr` attribute then). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0);
}

/** The API answers before the first build is served (503 until then): wait for the site itself. */
export async function waitForSite(baseURL: string) {
  const ctx = await playwrightRequest.newContext({ baseURL });
  await expect.poll(async () => (await ctx.get('/login')).status(), { timeout: 180_000 }).toBe(200);
  await ctx.dispose();
}
