import { loadSession, type Session } from '../stores/session';

/**
 * The session as loadSession reads it (an expired one cleared). With a refresh token stored, an
 * active user's session is also kept alive by src/client/refresh.ts, loaded only then: visitors
 * who are not logged in never download it. What talks to the API reads the session through this.
 */
export function freshSession(): Session {
  const s = loadSession();
  if (s.refreshToken) void import('./refresh').then((m) => m.keepSessionFresh()).catch(() => {});
  return s;
}
