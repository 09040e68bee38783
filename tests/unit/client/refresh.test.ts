import { cleanTestStorage, getTestStorage, setTestStorageKey, useTestStorageEngine } from '@nanostores/persistent';
import type { ClientResponse } from 'hono/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Customers stay logged in as the README promises: once the 24-hour access token has lapsed, the
 * 30-day refresh token renews it (on the minute check or input, and before any API call); only a
 * refresh the server refuses ends the session.
 */
useTestStorageEngine();
// refresh.ts reads storage again under its lock (another tab may have refreshed): the same test storage.
const storage = () =>
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => getTestStorage()[k] ?? null,
    setItem: (k: string, v: string) => setTestStorageKey(k, v),
    removeItem: (k: string) => setTestStorageKey(k, undefined),
  });
const session = await import('../../../src/stores/session');
const refresh = await import('../../../src/client/refresh');
const { call, send } = await import('../../../src/client/api');

const now = () => Math.floor(Date.now() / 1000);
/** A session from 25 hours ago: its access token lapsed an hour ago, the refresh token is good. */
const lapsed = () => session.signIn({ accessToken: 'old-access', refreshToken: 'refresh-1', expiresAt: now() - 3600 });
const calls: { url: string; auth: string | null; body: string | null }[] = [];
/** The API: /accounts/refresh answers `refreshStatus` (200 = new tokens); anything else echoes 200. */
function serve(refreshStatus = 200) {
  calls.length = 0;
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    calls.push({ url, auth: new Headers(init.headers).get('authorization'), body: typeof init.body === 'string' ? init.body : null });
    if (url.endsWith('/accounts/refresh')) {
      const body = refreshStatus === 200
        ? { code: 0, data: { access_token: 'new-access', refresh_token: 'refresh-2', expires_in: 86_400 } }
        : { code: 1002, message: '다시 로그인해주세요.' };
      return Promise.resolve(new Response(JSON.stringify(body), { status: refreshStatus }));
    }
    return Promise.resolve(new Response(JSON.stringify({ code: 0, data: { ok: true } }), { status: 200 }));
  });
}

beforeEach(() => {
  cleanTestStorage();
  storage();
});
afterEach(() => vi.unstubAllGlobals());

describe('a session older than the 24-hour access token', () => {
  it('is still logged in (the refresh token renews it) and is not cleared when read', () => {
    lapsed();
    expect(session.isLoggedIn()).toBe(true);
    expect(getTestStorage()).toMatchObject({ subscribeAccessToken: 'old-access', subscribeRefreshToken: 'refresh-1' });
  });

  it('is renewed by the minute check: new tokens, a new 24-hour expiry', async () => {
    serve();
    lapsed();
    await refresh.checkSessionNow();
    expect(calls.map((c) => c.url)).toEqual([expect.stringMatching(/\/accounts\/refresh$/)]);
    expect(JSON.parse(calls[0].body!)).toEqual({ refresh_token: 'refresh-1' });
    const s = session.$session.get();
    expect(s).toMatchObject({ accessToken: 'new-access', refreshToken: 'refresh-2' });
    expect(s.expiresAt! - now()).toBeGreaterThan(86_000);
  });

  it('is renewed before an API call, which then carries the new token', async () => {
    serve();
    lapsed();
    // Any path: send() is the typed client's sender, here for a route its types do not name.
    const res = await call((o) => send('GET', 'users/me', {}, o) as Promise<ClientResponse<unknown, number, string>>);
    expect(res.ok).toBe(true);
    expect(calls.map((c) => c.url.replace(/^.*\/api/, ''))).toEqual(['/accounts/refresh', '/users/me']);
    expect(calls[1].auth).toBe('Bearer new-access');
  });

  it('ends when the server refuses the refresh token (30 days over, revoked): the session is cleared', async () => {
    serve(401);
    lapsed();
    await refresh.checkSessionNow();
    expect(session.isLoggedIn()).toBe(false);
    expect(getTestStorage()).toEqual({});
  });

  it('without a refresh token a lapsed session is cleared when read, as before', () => {
    session.signIn({ accessToken: 'old', expiresAt: 1000 });
    expect(session.isLoggedIn()).toBe(false);
    expect(getTestStorage()).toEqual({});
  });
});
