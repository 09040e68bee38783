import { API_BASE_URL } from '../config/services';
import type { ApiData, ApiPath } from './api-types';
import { $session, clearSession, SESSION_KEYS, SESSION_TTL_SECONDS, signIn } from '../stores/session';

/** Refresh once less than half the session (12 hours) is left. */
export const REFRESH_WHEN_LEFT_SECONDS = SESSION_TTL_SECONDS / 2;
/** The user counts as active for 30 minutes after the last input. */
const ACTIVE_MS = 30 * 60_000;

let started = false;
let lastActivity = Date.now();
let running: Promise<boolean> | null = null;
/** The last refresh was refused by the server (not a network failure). */
let refused = false;

/** Exchanges the refresh token for new tokens (rotation); false when the server refuses. */
export function refreshNow(): Promise<boolean> {
  running ??= withLock(async () => {
    // Another tab may have refreshed while we waited for the lock: read storage again.
    const s = readStored();
    refused = false;
    if (!s.refreshToken) return false;
    if (s.expiresAt !== null && s.expiresAt - nowSeconds() > REFRESH_WHEN_LEFT_SECONDS) return true;
    try {
      const res = await fetch(`${API_BASE_URL}${'/accounts/refresh' satisfies ApiPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refresh_token: s.refreshToken }),
        signal: AbortSignal.timeout(30_000),
      });
      const json = (await res.json().catch(() => null)) as { data?: Partial<ApiData<'/accounts/refresh', '$post'>> } | null;
      const data = json?.data;
      // The server refused the refresh token (expired after 30 days, revoked, reused): the session is over.
      refused = res.status === 400 || res.status === 401 || res.status === 403;
      if (!res.ok || !data?.access_token) return false;
      signIn({ accessToken: data.access_token, refreshToken: data.refresh_token, expiresAt: nowSeconds() + (Number(data.expires_in) || SESSION_TTL_SECONDS) });
      return true;
    } catch {
      return false;
    }
  }).finally(() => {
    running = null;
  });
  return running;
}

/**
 * Keeps an active user's session alive: checks every minute and on input, and refreshes
 * when the stored expiry is less than 12 hours away or already past (the 24-hour access token
 * lapsed while the tab was closed or idle: the 30-day refresh token renews it on the next visit
 * or input). An idle tab does not refresh, so it may lapse; it renews when the user comes back.
 */
export function keepSessionFresh(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const touch = () => {
    lastActivity = Date.now();
    void tick();
  };
  for (const type of ['pointerdown', 'keydown', 'focus']) addEventListener(type, touch, { passive: true });
  setInterval(() => void tick(), 60_000);
  void tick();
}

async function tick(): Promise<void> {
  const s = $session.get();
  if (!s.accessToken || !s.refreshToken || s.expiresAt === null) return;
  const left = s.expiresAt - nowSeconds();
  if (left > REFRESH_WHEN_LEFT_SECONDS || Date.now() - lastActivity > ACTIVE_MS) return;
  if (!(await refreshNow()) && left <= 0 && refused) clearSession();
}

/** For tests: one check now, as the minute timer and input run it. */
export const checkSessionNow = tick;

/**
 * Before an API call: a lapsed access token is renewed first. False when it could not be: without a
 * refresh token or when the server refused it the session is cleared (the caller goes on logged
 * out); a network failure keeps it for the next try.
 */
export async function renewIfLapsed(): Promise<boolean> {
  const s = $session.get();
  if (!s.accessToken || s.expiresAt === null || s.expiresAt > nowSeconds()) return true;
  if (s.refreshToken && (await refreshNow())) return true;
  if (!s.refreshToken || refused) clearSession();
  return false;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function readStored() {
  const exp = localStorage.getItem(SESSION_KEYS.expiry);
  return { refreshToken: localStorage.getItem(SESSION_KEYS.refresh), expiresAt: exp === null ? null : Number(exp) };
}

/** One refresh at a time across tabs (a second use of a rotated token would revoke the session). */
function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('subscribe-token-refresh', fn) : fn();
}
