import { signAccessToken } from '../../src/api/auth/tokens';
import { expect, test } from './fixtures';
import { confirm, hydrated, newPerson, orderableCar, placeRequest, sandboxVerify, signupUser, storedSession, storeSession, waitForSite } from './users';

test.beforeAll(async ({}, info) => waitForSite(info.project.use.baseURL!));
import { kakaoStandInPort } from './mocks/kakao-oauth';

const E2E_JWT_SECRET = 'e2e-secret-e2e-secret-e2e-secret';

test('signup through the sandbox verification, with the form kept across the redirect', async ({ page, request }) => {
  const referrer = await signupUser(request);
  const me = newPerson();
  await page.goto(`/signup?code=${referrer.person.mobile}`);
  await hydrated(page);
  await expect(page.getByLabel('추천인 휴대폰 번호 (선택)')).toHaveValue(referrer.person.mobile);

  await page.getByRole('button', { name: '중복 확인' }).click();
  await expect(page.getByText('이메일을 입력해주세요.')).toBeVisible();
  await page.getByRole('button', { name: '본인인증' }).click();
  await expect(page.getByText('이름과 휴대폰 번호를 먼저 입력해주세요.')).toBeVisible();

  await page.getByLabel('이름').fill(me.name);
  await page.getByLabel('휴대폰 번호', { exact: true }).fill(me.mobile);
  await page.getByLabel('이메일').fill(me.email);
  await page.getByRole('button', { name: '중복 확인' }).click();
  await expect(page.getByText('사용 가능한 이메일입니다.')).toBeVisible();

  // A failed verification first: the provider returns code and message.
  await page.getByRole('button', { name: '본인인증' }).click();
  await expect(page.getByText('테스트 환경 · 실제 본인인증이 아닙니다')).toBeVisible();
  await page.getByRole('button', { name: '인증 실패' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '본인인증에 실패했습니다' })).toBeVisible();
  await expect(page.getByLabel('이메일')).toHaveValue(me.email);

  await page.getByRole('button', { name: '본인인증' }).click();
  await expect(page.getByLabel('이름')).toHaveValue(me.name);
  await page.getByRole('button', { name: '인증 완료' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByText(/본인인증 완료:/)).toBeVisible();
  await expect(page.getByLabel('이메일')).toHaveValue(me.email);
  await expect(page.getByLabel('추천인 휴대폰 번호 (선택)')).toHaveValue(referrer.person.mobile);

  const submit = page.getByRole('button', { name: '회원가입' });
  await page.getByLabel('비밀번호', { exact: true }).fill('12345');
  await page.getByLabel('비밀번호 확인').fill('12346');
  await submit.click();
  await expect(page.getByText('비밀번호는 6자 이상이어야 합니다.').last()).toBeVisible();
  await expect(page.getByText('비밀번호가 일치하지 않습니다.')).toBeVisible();
  await expect(page.getByText('이용약관과 개인정보 처리방침에 동의해주세요.')).toBeVisible();

  await page.getByLabel('비밀번호', { exact: true }).fill(me.password);
  await page.getByLabel('비밀번호 확인').fill(me.password);
  await page.getByLabel('[필수] 서비스 이용약관 동의').check();
  await page.getByLabel('[필수] 개인정보 처리방침 동의').check();
  await submit.click();
  await expect(page).toHaveURL(/\/my$/);
  await expect(page.getByTestId('identity-badge')).toHaveText('본인인증 완료');
  await expect(page.getByRole('heading', { name: me.name })).toBeVisible();
  const s = await storedSession(page);
  expect(s.access).toBeTruthy();
  expect(s.refresh).toBeTruthy();
  expect(Math.abs(s.expiry - (s.now + 86_400))).toBeLessThan(120);
  expect(s.verified).toBe('true');
  expect(await page.evaluate(() => sessionStorage.getItem('signupForm'))).toBeNull();
  // The referral was recorded with the account.
  const referrals = await request.get('/api/users/referrals', { headers: { authorization: `Bearer ${referrer.access_token}` } });
  expect((await referrals.json()).data.referrals_given).toHaveLength(1);
});

test('signup shows a duplicate email and a second account for the same person', async ({ page, request }) => {
  const existing = await signupUser(request);
  await page.goto('/signup');
  await hydrated(page);
  await page.getByLabel('이메일').fill(existing.person.email);
  await page.getByRole('button', { name: '중복 확인' }).click();
  await expect(page.getByText('이미 사용 중인 이메일입니다.')).toBeVisible();
  await page.getByLabel('이메일').fill('not-an-email');
  await page.getByRole('button', { name: '중복 확인' }).click();
  await expect(page.getByText('이메일 중복 확인에 실패했습니다: 올바른 이메일 주소를 입력해주세요.')).toBeVisible();

  // Same person again: the server refuses, the message is shown.
  const fresh = newPerson();
  await page.getByLabel('이름').fill(existing.person.name);
  await page.getByLabel('휴대폰 번호', { exact: true }).fill(existing.person.mobile);
  await page.getByLabel('이메일').fill(fresh.email);
  await page.getByRole('button', { name: '중복 확인' }).click();
  // The check's answer first: 본인인증 leaves the page, and an answer still on its way is lost with it.
  await expect(page.getByText('사용 가능한 이메일입니다.')).toBeVisible();
  await page.getByRole('button', { name: '본인인증' }).click();
  await page.getByRole('button', { name: '인증 완료' }).click();
  await expect(page.getByText(/본인인증 완료:/)).toBeVisible();
  await page.getByLabel('비밀번호', { exact: true }).fill(fresh.password);
  await page.getByLabel('비밀번호 확인').fill(fresh.password);
  await page.getByLabel('전체 동의').check();
  await page.getByRole('button', { name: '회원가입' }).click();
  await expect(page.getByText(/이미 가입된 회원입니다/).first()).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

/** Holds an island's script until `release()`: the form is on the page, not yet hydrated (a slow phone). */
async function holdIsland(page: import('@playwright/test').Page, component: string) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/_astro/${component}\\.[^/]+\\.js$`), async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('login: what is typed (or filled in by a password manager) before the form hydrates is kept', async ({ page, request }) => {
  const u = await signupUser(request);
  const release = await holdIsland(page, 'LoginForm');
  await page.goto('/login');
  await page.getByLabel('이메일').fill(u.person.email);
  await page.getByLabel('비밀번호').fill(u.person.password);
  await expect(page.locator('astro-island[ssr][component-url*="LoginForm"]')).toHaveCount(1);
  release();
  await hydrated(page, 'LoginForm');
  await expect(page.getByLabel('이메일')).toHaveValue(u.person.email);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/my$/);
});

test('signup: what is typed before the form hydrates is kept', async ({ page }) => {
  const me = newPerson();
  const release = await holdIsland(page, 'SignupForm');
  await page.goto('/signup');
  await page.getByLabel('이름').fill(me.name);
  await page.getByLabel('이메일').fill(me.email);
  await expect(page.locator('astro-island[ssr][component-url*="SignupForm"]')).toHaveCount(1);
  release();
  await hydrated(page, 'SignupForm');
  await page.getByRole('button', { name: '중복 확인' }).click();
  await expect(page.getByText('사용 가능한 이메일입니다.')).toBeVisible();
  await expect(page.getByLabel('이름')).toHaveValue(me.name);
});

test('login: errors, then the saved return path', async ({ page, request }) => {
  const u = await signupUser(request);
  await page.goto('/points');
  await expect(page).toHaveURL(/\/login$/);
  await hydrated(page);
  expect((await storedSession(page)).redirect).toBe('/points');

  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page.getByText('이메일을 입력해주세요.')).toBeVisible();
  await expect(page.getByText('비밀번호를 입력해주세요.')).toBeVisible();
  await page.getByLabel('이메일').fill(u.person.email);
  await page.getByLabel('비밀번호').fill('wrong-password');
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('로그인에 실패했습니다');
  await expect(page.getByRole('alert')).toContainText('이메일 또는 비밀번호가 올바르지 않습니다.');

  await page.getByLabel('비밀번호').fill(u.person.password);
  await page.getByRole('button', { name: '로그인', exact: true }).click();
  await expect(page).toHaveURL(/\/points$/);
  await expect(page.getByTestId('point-balance')).toHaveText('0 P');
  await expect(page.getByText('포인트 내역이 없습니다.')).toBeVisible();
  const s = await storedSession(page);
  expect(s.redirect).toBeNull();
  expect(Math.abs(s.expiry - (s.now + 86_400))).toBeLessThan(120);

  // Logged in: /login and /signup send to /my.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/my$/);
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/my$/);
});

test('session expiry: a stored expiry in the past without a refresh token logs out; a token the server calls expired says so', async ({ page, request }) => {
  const u = await signupUser(request);
  await storeSession(page, { access_token: u.access_token }, -10);
  await page.goto('/my');
  await expect(page).toHaveURL(/\/login$/);
  const cleared = await storedSession(page);
  expect(cleared.access).toBeNull();
  expect(cleared.redirect).toBe('/my');

  const expired = await signAccessToken(E2E_JWT_SECRET, u.user.id, 'expired-session', Date.now() - 2 * 86_400_000);
  await page.evaluate((t) => {
    localStorage.setItem('subscribeAccessToken', t);
    localStorage.setItem('subscribeTokenExpiry', String(Math.floor(Date.now() / 1000) + 3600 * 20));
  }, expired);
  await page.goto('/my');
  await hydrated(page);
  await expect(page.getByText('로그인이 만료되었습니다. 다시 로그인해주세요.')).toBeVisible();
  expect((await storedSession(page)).access).toBeNull();
  await page.getByRole('link', { name: '로그인' }).last().click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a session older than 24 hours is renewed by its refresh token: the customer stays logged in', async ({ page, request }) => {
  const u = await signupUser(request);
  // Logged in 25 hours ago: the access token and its stored expiry lapsed an hour ago; the 30-day refresh token is good.
  const lapsed = await signAccessToken(E2E_JWT_SECRET, u.user.id, 'old-session', Date.now() - 25 * 3_600_000);
  await storeSession(page, { access_token: lapsed, refresh_token: u.refresh_token }, -3600);
  await page.goto('/my');
  await hydrated(page);
  await expect(page).toHaveURL(/\/my$/);
  await expect(page.getByTestId('identity-badge')).toHaveText('본인인증 완료');
  const s = await storedSession(page);
  expect(s.refresh).not.toBe(u.refresh_token);
  expect(s.access).not.toBe(lapsed);
  expect(s.expiry).toBeGreaterThan(s.now + 80_000);
});

test('an active user gets new tokens before the session expires', async ({ page, request }) => {
  const u = await signupUser(request);
  await storeSession(page, u, 600);
  await page.goto('/my');
  await hydrated(page);
  await expect(page.getByTestId('identity-badge')).toHaveText('본인인증 완료');
  await page.mouse.click(5, 300);
  await expect.poll(async () => (await storedSession(page)).refresh).not.toBe(u.refresh_token);
  const s = await storedSession(page);
  expect(s.access).toBeTruthy();
  expect(s.expiry).toBeGreaterThan(s.now + 80_000);
  // The old refresh token was rotated out: within the two-tab grace window it answers the same
  // successor the page stored (another tab refreshing at the same time is not logged out).
  const again = await request.post('/api/accounts/refresh', { data: { refresh_token: u.refresh_token } });
  expect(again.status()).toBe(200);
  expect((await again.json()).data.refresh_token).toBe(s.refresh);
});

test('two tabs refreshing at once both stay logged in', async ({ page, context, request }) => {
  const u = await signupUser(request);
  await storeSession(page, u, 600);
  const other = await context.newPage();
  await page.goto('/my');
  await hydrated(page);
  await other.goto('/my');
  await hydrated(other);
  await Promise.all([page.mouse.click(5, 300), other.mouse.click(5, 300)]);
  await expect.poll(async () => (await storedSession(page)).refresh).not.toBe(u.refresh_token);
  await Promise.all([page.reload(), other.reload()]);
  for (const p of [page, other]) {
    await hydrated(p);
    await expect(p.getByTestId('identity-badge')).toHaveText('본인인증 완료');
  }
  const s = await storedSession(other);
  expect((await request.get('/api/accounts', { headers: { authorization: `Bearer ${s.access}` } })).status()).toBe(200);
});

test('a session ended elsewhere (logout on another device) is cleared and asks for login', async ({ page, request }) => {
  const u = await signupUser(request);
  await storeSession(page, u);
  expect((await request.post('/api/accounts/logout', { data: { refresh_token: u.refresh_token } })).status()).toBe(200);
  await page.goto('/my');
  await hydrated(page);
  await expect(page.getByText('로그인이 만료되었습니다. 다시 로그인해주세요.')).toBeVisible();
  expect((await storedSession(page)).access).toBeNull();
  await page.getByRole('link', { name: '로그인' }).last().click();
  await expect(page).toHaveURL(/\/login$/);
});

test('Kakao login against the stand-in OAuth server', async ({ page }) => {
  const standIn = `http://127.0.0.1:${kakaoStandInPort()}`;
  // Kakao's real authorize page is replaced by the stand-in, which redirects back with a code.
  await page.route('https://kauth.kakao.com/oauth/authorize**', (route) => {
    const url = new URL(route.request().url());
    return route.fulfill({ status: 302, headers: { location: `${standIn}/oauth/authorize${url.search}` } });
  });
  await page.goto('/login');
  await hydrated(page);
  await page.getByRole('button', { name: '카카오로 로그인' }).click();
  await expect(page).toHaveURL(/\/my$/);
  await expect(page.getByTestId('identity-badge')).toHaveText('본인인증 전');
  await expect(page.getByText(/^kakao\d+@example\.com$/)).toBeVisible();
  expect((await storedSession(page)).access).toBeTruthy();
});

test('Kakao callback without a code or with a refused code', async ({ page }) => {
  await page.goto('/login/kakao');
  await hydrated(page);
  await expect(page.getByRole('alert')).toContainText('카카오 로그인에 실패했습니다');
  await page.evaluate(() => sessionStorage.setItem('kakaoOAuthState', 'st-1'));
  await page.goto('/login/kakao?code=bad-code&state=st-1');
  await hydrated(page);
  await expect(page.getByRole('alert')).toContainText('카카오 로그인에 실패했습니다');
  await expect(page.getByRole('alert')).toContainText('카카오 로그인에 실패했습니다.');
  await expect(page).toHaveURL(/\/login\/kakao$/);
});

test('forgot password: verification, tokens saved, then a new password', async ({ page, request }) => {
  const u = await signupUser(request);
  await page.goto('/reset-password');
  await hydrated(page);
  await expect(page.getByText('본인인증이 필요합니다.')).toBeVisible();

  await page.goto('/forgot-password');
  await hydrated(page);
  await page.getByRole('button', { name: '본인인증하기' }).click();
  await page.getByLabel('이름').fill(u.person.name);
  await page.getByLabel('휴대폰 번호').fill(u.person.mobile);
  await page.getByRole('button', { name: '인증 완료' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  expect((await storedSession(page)).access).toBeTruthy();

  const submit = page.getByRole('button', { name: '비밀번호 변경' });
  await submit.click();
  await expect(page.getByText('새 비밀번호를 입력해주세요.')).toBeVisible();
  await page.getByLabel('새 비밀번호', { exact: true }).fill('abc');
  await page.getByLabel('새 비밀번호 확인').fill('abd');
  await submit.click();
  await expect(page.getByText('비밀번호는 6자 이상이어야 합니다.')).toBeVisible();
  await expect(page.getByText('비밀번호가 일치하지 않습니다.')).toBeVisible();
  await page.getByLabel('새 비밀번호', { exact: true }).fill('new-secret-1');
  await page.getByLabel('새 비밀번호 확인').fill('new-secret-1');
  await submit.click();
  await expect(page.getByText('비밀번호가 변경되었습니다.')).toBeVisible();
  const login = await request.post('/api/accounts/login', { data: { email: u.person.email, password: 'new-secret-1' } });
  expect(login.status()).toBe(200);
});

test('forgot password: a failed or unknown verification', async ({ page, request }) => {
  await page.goto('/forgot-password');
  await hydrated(page);
  await page.getByRole('button', { name: '본인인증하기' }).click();
  await page.getByRole('button', { name: '인증 실패' }).click();
  await expect(page.getByRole('alert')).toContainText('본인인증에 실패했습니다');

  const stranger = newPerson();
  const id = await sandboxVerify(request, stranger);
  await page.goto(`/forgot-password?identityVerificationId=${id}`);
  await hydrated(page);
  await expect(page.getByRole('alert')).toContainText('본인인증 처리에 실패했습니다');
  await expect(page.getByRole('alert')).toContainText('가입된 계정이 없습니다');
});

test('my page: profile, points, referral code, coupon box, latest activity, logout', async ({ page, request }) => {
  const u = await signupUser(request);
  await storeSession(page, u);
  await page.goto('/my');
  await hydrated(page);
  await expect(page.getByRole('heading', { name: u.person.name })).toBeVisible();
  await expect(page.getByTestId('identity-badge')).toHaveText('본인인증 완료');
  await expect(page.getByText(u.person.email)).toBeVisible();
  await expect(page.getByTestId('my-points')).toHaveText('0 P');
  await expect(page.getByTestId('my-referral-code')).toHaveText(u.user.referral_code);
  await expect(page.getByRole('link', { name: /^포인트/ })).toHaveAttribute('href', '/points');
  await expect(page.getByRole('link', { name: /^추천 코드/ })).toHaveAttribute('href', '/referral');
  await expect(page.getByRole('link', { name: /쿠폰함/ })).toHaveAttribute('href', '/coupon');
  for (const [heading, href] of [['나의 구독', '/my/subscriptions'], ['구독 신청', '/my/requests'], ['의전 구독', '/my/butler-subscriptions'], ['의전 요청', '/my/butler-requests']]) {
    const region = page.getByRole('region', { name: heading });
    await expect(region.getByRole('link', { name: '전체 보기' })).toHaveAttribute('href', href);
  }
  await expect(page.getByText('현재 구독이 없습니다.')).toBeVisible();
  await expect(page.getByText('아직 신청한 차량이 없습니다.')).toBeVisible();

  // With a confirmed request: the latest request and subscription cards appear and link on.
  const car = await orderableCar(request);
  const placed = await placeRequest(request, u.access_token, car.id, { month: 12 });
  await confirm(request, placed.id, '2030-01-01');
  await page.reload();
  await hydrated(page);
  const latestRequest = page.getByRole('region', { name: '구독 신청' }).getByRole('link').last();
  await expect(latestRequest).toHaveAttribute('href', `/subscribe/request/${placed.id}`);
  await expect(latestRequest).toContainText('12개월');
  await expect(page.getByRole('region', { name: '나의 구독' }).getByText('이용 중', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: '로그아웃' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await storedSession(page)).access).toBeNull();
  const refresh = await request.post('/api/accounts/refresh', { data: { refresh_token: u.refresh_token } });
  expect(refresh.status()).toBe(401);
  await page.goto('/my');
  await expect(page).toHaveURL(/\/login$/);
});
