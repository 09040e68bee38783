import { KAKAO } from '../../config/services';

/** Kakao's authorize page; the REST API key is public by design (it identifies the app). */
const KAKAO_AUTHORIZE = 'https://kauth.kakao.com/oauth/authorize';
const STATE_KEY = 'kakaoOAuthState';

/** The public Kakao REST API key, or undefined when Kakao login is not set up. */
export const kakaoClientId = (): string | undefined => KAKAO.restApiKey || undefined;

/** Where Kakao returns to: this site's /login/kakao. */
export const kakaoRedirectUri = () => `${location.origin}/login/kakao`;

/** Sends the browser to Kakao's consent screen with a one-time state against login CSRF. */
export function startKakaoLogin(): void {
  const clientId = kakaoClientId();
  if (!clientId) return;
  const state = crypto.randomUUID();
  sessionStorage.setItem(STATE_KEY, state);
  const q = new URLSearchParams({ client_id: clientId, redirect_uri: kakaoRedirectUri(), response_type: 'code', state });
  location.assign(`${KAKAO_AUTHORIZE}?${q}`);
}

/** Whether the returned state is the one this tab sent (read once). */
export function takeKakaoState(returned: string | null): boolean {
  const expected = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  return Boolean(expected) && expected === returned;
}
