import { API_BASE_URL } from '../config/services';
import type { TokenAnswer } from '../domain/accounts';
import { $session, SESSION_KEYS, SESSION_TTL_SECONDS, signIn } from '../stores/session';

/** Refresh once less than half the session (12 hours) is left. */
export const REFRESH_WHEN_LEFT_SECONDS = SESSION_TTL_SECONDS / 2;
/** The user counts as active for 30 minutes after the last input. */
const ACTIVE_MS = 30 * 60_000;

let started = false;
let lastActivity = Date.now();
let running: Promise<boolean> | null = null;

/** Exchanges the refresh token for new tokens (rotation); false when the server refuses. */
export function refreshNow(): Promise<boolean> {
  running ??= withLock(async () => {
    // Another tab may have refreshed while we waited for the lock: read storage again.
    const s = readStored();
    if (!s.refreshToken) return false;
    if (s.expiresAt !== null && s.expiresAt - nowSeconds() > REFRESH_WHEN_LEFT_SECONDS) return true;
    try {
      const res = await fetch(`${API_BASE_URL}/accounts/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refresh_token: s.refreshToken }),
        signal: AbortSignal.timeout(30_000),
      });
      const json = (await res.json().catch(() => null)) as { data?: Partial<TokenAnswer> } | null;
      const data = json?.data;
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
 * when the stored expiry is less than 12 hours away. Idle tabs let the session expire.
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
  if (left <= 0 || left > REFRESH_WHEN_LEFT_SECONDS || Date.now() - lastActivity > ACTIVE_MS) return;
  await refreshNow();
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
