import type { TokenAnswer as ApiTokenAnswer } from '../../domain/accounts';
import { SESSION_TTL_SECONDS, setIdentityVerified, setUserCookie, signIn, takeRedirect } from '../../stores/session';


/** What login, signup, social login and recovery answer with; read defensively (an answer without tokens is a failure). */
export type TokenAnswer = Partial<ApiTokenAnswer>;

/** Stores the tokens with a 24-hour expiry, the identity flag and the user cookie. */
export function storeLogin(data: TokenAnswer & { access_token: string }): void {
  signIn({ accessToken: data.access_token, refreshToken: data.refresh_token ?? null, expiresAt: Math.floor(Date.now() / 1000) + SESSION_TTL_SECONDS });
  if (data.user) {
    setIdentityVerified(Boolean(data.user.ci_verified));
    setUserCookie({ id: data.user.id, username: data.user.username, name: data.user.name, email: data.user.email });
  }
}

/** After a login: the saved return path, or /my. */
export function goAfterLogin(): void {
  location.assign(takeRedirect() ?? '/my');
}
