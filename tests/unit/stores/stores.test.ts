import { cleanTestStorage, getTestStorage, setTestStorageKey, useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// The stores keep their values under the spec's storage keys; a test engine stands in for localStorage.
useTestStorageEngine();
setTestStorageKey('lastService', 'butler');
const session = await import('../../../src/stores/session');
const mode = await import('../../../src/stores/mode');
const coupon = await import('../../../src/stores/coupon-mode');

beforeAll(() => {
  // Read at start from storage: a stored mode is there before the first page script runs.
  expect(mode.resolveMode('/my')).toBe('butler');
  cleanTestStorage();
});
afterEach(() => cleanTestStorage());

describe('session store', () => {
  it('stores tokens, expiry and identity under the spec keys and clears them on logout', () => {
    session.signIn({ accessToken: 'a1', refreshToken: 'r1', expiresAt: 4_000_000_000 });
    session.setIdentityVerified(true);
    expect(getTestStorage()).toEqual({ subscribeAccessToken: 'a1', subscribeRefreshToken: 'r1', subscribeTokenExpiry: '4000000000', subscribeIdentityVerified: 'true' });
    expect(session.isLoggedIn()).toBe(true);
    expect(session.$session.get()).toEqual({ accessToken: 'a1', refreshToken: 'r1', expiresAt: 4_000_000_000, identityVerified: true });
    session.signOut();
    expect(getTestStorage()).toEqual({});
    expect(session.isLoggedIn()).toBe(false);
  });

  it('defaults the expiry to 24 hours and keeps the refresh token when none is given', () => {
    session.signIn({ accessToken: 'a1', refreshToken: 'r1' });
    session.signIn({ accessToken: 'a2' });
    const s = session.$session.get();
    expect(s.refreshToken).toBe('r1');
    expect(s.expiresAt! - Math.floor(Date.now() / 1000)).toBeGreaterThan(86_390);
  });

  it('clears an expired session when it is read, unless a refresh token can renew it', () => {
    session.signIn({ accessToken: 'old', expiresAt: 1000 });
    expect(session.isLoggedIn()).toBe(false);
    expect(getTestStorage()).toEqual({});
    session.signIn({ accessToken: 'old', refreshToken: 'r', expiresAt: 1000 });
    expect(session.isLoggedIn()).toBe(true);
    expect(session.isAccessValid(session.$session.get())).toBe(false);
  });

  it('reads a token stored without expiry as logged in, and a broken expiry as none', () => {
    setTestStorageKey('subscribeAccessToken', 'x');
    setTestStorageKey('subscribeTokenExpiry', 'soon');
    expect(session.loadSession().expiresAt).toBeNull();
    expect(session.isLoggedIn()).toBe(true);
  });

  it('hands the saved return path over once, same-site only', () => {
    session.saveRedirect('/my/requests?x=1');
    expect(getTestStorage().redirectAfterLogin).toBe('/my/requests?x=1');
    expect(session.takeRedirect()).toBe('/my/requests?x=1');
    expect(session.takeRedirect()).toBeNull();
    session.saveRedirect('//evil.example');
    expect(session.takeRedirect()).toBeNull();
    expect(getTestStorage()).toEqual({});
  });
});

describe('mode store', () => {
  it('remembers the mode and path of pages that belong to a mode', () => {
    mode.rememberMode('/fleet');
    expect(getTestStorage()).toEqual({ lastService: 'butler', lastPath: '/fleet' });
    mode.rememberMode('/my');
    expect(getTestStorage()).toEqual({ lastService: 'butler', lastPath: '/fleet' });
    expect(mode.resolveMode('/coupon')).toBe('butler');
    expect(mode.resolveMode('/garage')).toBe('subscribe');
    mode.rememberMode('/garage');
    expect(mode.resolveMode('/my')).toBe('subscribe');
  });
});

describe('coupon tab store', () => {
  it('remembers the tab under couponMode; anything else reads as SUBSCRIBE', () => {
    expect(coupon.$couponMode.get()).toBe('SUBSCRIBE');
    coupon.$couponMode.set('BUTLER');
    expect(getTestStorage()).toEqual({ couponMode: 'BUTLER' });
    expect(coupon.COUPON_MODE_KEY).toBe('couponMode');
  });
});
