import { atom } from 'nanostores';

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

const empty: Session = { accessToken: null, refreshToken: null, expiresAt: null, identityVerified: false };

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // private mode or blocked storage
  }
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Logged in only while a token is stored and, if an expiry is stored, now is below it. */
export function isSessionValid(s: Session, now = nowSeconds()): boolean {
  return Boolean(s.accessToken) && (s.expiresAt === null || now < s.expiresAt);
}

function read(): Session {
  const ls = storage();
  if (!ls) return empty;
  const expiryRaw = ls.getItem(SESSION_KEYS.expiry);
  const expiry = expiryRaw === null ? null : Number(expiryRaw);
  return {
    accessToken: ls.getItem(SESSION_KEYS.access),
    refreshToken: ls.getItem(SESSION_KEYS.refresh),
    expiresAt: expiry === null || Number.isNaN(expiry) ? null : expiry,
    identityVerified: ls.getItem(SESSION_KEYS.identity) === 'true',
  };
}

/** The current session; starts empty on the server and is loaded in the browser. */
export const $session = atom<Session>(empty);

/** Reads storage; an expired session is cleared on the spot. Call once per page in the browser. */
export function loadSession(): Session {
  const s = read();
  if (s.accessToken && !isSessionValid(s)) {
    clearSession();
    return $session.get();
  }
  $session.set(s);
  // Keep an active user's session alive (loaded lazily: only logged-in pages need it).
  if (s.refreshToken && typeof window !== 'undefined') void import('../client/refresh').then((m) => m.keepSessionFresh()).catch(() => {});
  return s;
}

/** Whether the user is logged in now (re-checks the expiry each call). */
export function isLoggedIn(): boolean {
  return isSessionValid(loadSession());
}

/** Stores tokens after login or refresh; the expiry defaults to 24 hours from now. */
export function signIn(tokens: { accessToken: string; refreshToken?: string | null; expiresAt?: number }): void {
  const ls = storage();
  const expiresAt = tokens.expiresAt ?? nowSeconds() + SESSION_TTL_SECONDS;
  ls?.setItem(SESSION_KEYS.access, tokens.accessToken);
  if (tokens.refreshToken) ls?.setItem(SESSION_KEYS.refresh, tokens.refreshToken);
  ls?.setItem(SESSION_KEYS.expiry, String(expiresAt));
  $session.set({ ...read() });
}

/** Records whether the account's identity is verified. */
export function setIdentityVerified(verified: boolean): void {
  storage()?.setItem(SESSION_KEYS.identity, String(verified));
  $session.set({ ...read() });
}

/** Clears tokens, the identity flag and the subscribeUser cookie. */
export function clearSession(): void {
  const ls = storage();
  for (const key of [SESSION_KEYS.access, SESSION_KEYS.refresh, SESSION_KEYS.expiry, SESSION_KEYS.identity]) ls?.removeItem(key);
  if (typeof document !== 'undefined') document.cookie = `${SESSION_KEYS.userCookie}=; Max-Age=0; path=/`;
  $session.set(empty);
}

/** Logs out. */
export const signOut = clearSession;

/** Keeps the user as JSON in the subscribeUser cookie. */
export function setUserCookie(user: unknown): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${SESSION_KEYS.userCookie}=${encodeURIComponent(JSON.stringify(user))}; Max-Age=${SESSION_TTL_SECONDS}; path=/; SameSite=Lax`;
}

/** Reads the subscribeUser cookie; broken JSON reads as null. */
export function getUserCookie<T = unknown>(): T | null {
  if (typeof document === 'undefined') return null;
  const raw = document.cookie.split('; ').find((c) => c.startsWith(`${SESSION_KEYS.userCookie}=`));
  if (!raw) return null;
  try {
    return JSON.parse(decodeURIComponent(raw.slice(SESSION_KEYS.userCookie.length + 1))) as T;
  } catch {
    return null;
  }
}

/** Saves where to return after login. */
export function saveRedirect(path: string): void {
  storage()?.setItem(SESSION_KEYS.redirect, path);
}

/** Reads and removes the saved return path. */
export function takeRedirect(): string | null {
  const ls = storage();
  const path = ls?.getItem(SESSION_KEYS.redirect) ?? null;
  ls?.removeItem(SESSION_KEYS.redirect);
  // Only same-site paths: never bounce to another origin.
  return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
}

/** Guard for protected pages: without a valid login, save the path and go to /login. Returns whether logged in. */
export function requireLogin(): boolean {
  if (isLoggedIn()) return true;
  saveRedirect(location.pathname + location.search);
  location.assign('/login');
  return false;
}
