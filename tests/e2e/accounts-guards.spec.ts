import { GUARDED_PATHS, GUEST_PATHS } from '../../src/domain/routes';
import { expect, test } from './fixtures';
import { hydrated, signupUser, storedSession, storeSession, waitForSite } from './users';

test.beforeAll(async ({}, info) => waitForSite(info.project.use.baseURL!));

/** Protected routes of the route table (spec §2.1–2.3); ids are examples, their shells read them from the path. */
for (const path of GUARDED_PATHS) {
  test(`guard: ${path} sends a visitor to /login and returns after login`, async ({ page, request }) => {
    // The API answers before the first build is served (503 then): wait for the page itself.
    let html = '';
    await expect.poll(async () => {
      const res = await request.get(path);
      html = await res.text();
      return res.status();
    }, { timeout: 120_000 }).not.toBe(503);
    // Every guarded path has its own page now: one without the guard script is a failure, not a skip.
    expect(html, `${path} carries the login guard`).toContain('redirectAfterLogin');
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
    expect((await storedSession(page)).redirect).toBe(path);
    await hydrated(page);
    const u = await signupUser(request);
    await page.getByLabel('이메일').fill(u.person.email);
    await page.getByLabel('비밀번호').fill(u.person.password);
    await page.getByRole('button', { name: '로그인', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
  });
}

for (const path of GUEST_PATHS) {
  test(`guest only: ${path} sends a logged-in user to /my`, async ({ page, request }) => {
    const u = await signupUser(request);
    await storeSession(page, u);
    await page.goto(path);
    await expect(page).toHaveURL(/\/my$/);
  });
}
