import { persistentAtom } from '@nanostores/persistent';
import { computed } from 'nanostores';

/** Browser storage keys, exactly as the spec names them. */
export const SESSION_KEYS = {
  access: 'subscribeAccessToken',
  refresh: 'subscribeRefreshToken',
  expiry: 'subscribeTokenExpiry',
  identity: 'subscribeIdentityVerified',
  redirect: 'redirectAfterLogin',
  userCookie: 'subscribeUser',
} as const;

/** Session length the storefront stores after login, in seconds. */
export const SESSION_TTL_SECONDS = 86_400;

export interface Session {
  accessToken: string | null;
  refreshToken: string | null;
  /** Unix seconds; null when none is stored. */
  expiresAt: number | null;
  identityVerified: boolean;
}

/** One stored string per key (localStorage; in memory where storage is blocked). Absent is undefined. */
const stored = (key: string) => persistentAtom<string | undefined>(key, undefined);
const $access = stored(SESSION_KEYS.access);
const $refresh = stored(SESSION_KEYS.refresh);
const $expiry = stored(SESSION_KEYS.expiry);
const $identity = stored(SESSION_KEYS.identity);
const $redirect = stored(SESSION_KEYS.redirect);

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The access token is usable: stored and, if an expiry is stored, now is below it. */
export function isAccessValid(s: Session, now = nowSeconds()): boolean {
  return Boolean(s.accessToken) && (s.expiresAt === null || now < s.expiresAt);
}

/**
 * Logged in: a usable access token, or a lapsed one with the refresh token that renews it (30 days,
 * src/client/refresh.ts; the server is the judge: a refused refresh clears the session). The
 * 24-hour access token lapsing alone never logs a customer out.
 */
function isSessionValid(s: Session, now = nowSeconds()): boolean {
  return isAccessValid(s, now) || (Boolean(s.accessToken) && Boolean(s.refreshToken));
}

/** The current session, from the stored values (kept in step with other tabs while the page is open). */
export const $session = computed([$access, $refresh, $expiry, $identity], (access, refresh, expiry, identity): Session => {
  const expiresAt = expiry === undefined ? null : Number(expiry);
  return {
    accessToken: access ?? null,
    refreshToken: refresh ?? null,
    expiresAt: expiresAt === null || Number.isNaN(expiresAt) ? null : expiresAt,
    identityVerified: identity === 'true',
  };
});
// In the browser, listen for the whole page: another tab's login or logout updates this one.
if (typeof window !== 'undefined') $session.listen(() => {});

/** The session; an expired one that cannot be renewed (no refresh token) is cleared on the spot. */
export function loadSession(): Session {
  const s = $session.get();
  if (s.accessToken && !isSessionValid(s)) {
    clearSession();
    return $session.get();
  }
  return s;
}

/** Whether the user is logged in now (re-checks the expiry each call). */
export function isLoggedIn(): boolean {
  return isSessionValid(loadSession());
}

/** Stores tokens after login or refresh; the expiry defaults to 24 hours from now. */
export function signIn(tokens: { accessToken: string; refreshToken?: string | null; expiresAt?: number }): void {
  $access.set(tokens.accessToken);
  if (tokens.refreshToken) $refresh.set(tokens.refreshToken);
  $expiry.set(String(tokens.expiresAt ?? nowSeconds() + SESSION_TTL_SECONDS));
}

/** Records whether the account's identity is verified. */
export function setIdentityVerified(verified: boolean): void {
  $identity.set(String(verified));
}

/** Clears tokens, the identity flag and the subscribeUser cookie. */
export function clearSession(): void {
  for (const $key of [$access, $refresh, $expiry, $identity]) $key.set(undefined);
  if (typeof document !== 'undefined') document.cookie = `${SESSION_KEYS.userCookie}=; Max-Age=0; path=/`;
}

/** Logs out. */
export const signOut = clearSession;

/** Keeps the user as JSON in the subscribeUser cookie. */
export function setUserCookie(user: unknown): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${SESSION_KEYS.userCookie}=${encodeURIComponent(JSON.stringify(user))}; Max-Age=${SESSION_TTL_SECONDS}; path=/; SameSite=Lax`;
}

/** Saves where to return after login. */
export function saveRedirect(path: string): void {
  $redirect.set(path);
}

/** Reads and removes the saved return path. */
export function takeRedirect(): string | null {
  const path = $redirect.get() ?? null;
  $redirect.set(undefined);
  // Only same-site paths: never bounce to another origin.
  return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
}

/** The API refused the token (expired, revoked): drop the session and log in again, back to this page afterwards. */
export function loginAgain(): void {
  clearSession();
  saveRedirect(location.pathname + location.search);
  location.assign('/login');
}
