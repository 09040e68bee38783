import { ErrorCode } from '../../domain/error-codes';
import type { Config } from '../env';
import { ApiError, unauthorized } from '../errors';

export type SocialProvider = 'kakao' | 'google' | 'naver' | 'apple';

/** What a provider tells us about the person who logged in. */
export interface SocialProfile {
  provider: Exclude<SocialProvider, 'apple'>;
  id: string;
  email: string | null;
  name: string | null;
  profileImage: string | null;
}

const LABEL: Record<SocialProvider, string> = { kakao: '카카오', google: '구글', naver: '네이버', apple: 'Apple' };

/** Where each provider exchanges a code and where it serves the profile, relative to the configured bases. */
const ENDPOINTS = {
  kakao: { token: '/oauth/token', profile: '/v2/user/me' },
  google: { token: '/token', profile: '/v1/userinfo' },
  naver: { token: '/oauth2.0/token', profile: '/v1/nid/me' },
} as const;

const notConfigured = (provider: SocialProvider) =>
  new ApiError(501, ErrorCode.NOT_CONFIGURED, `${LABEL[provider]} 로그인이 설정되지 않았습니다. 관리자에게 문의해주세요.`);
const providerFailed = (provider: SocialProvider) => unauthorized(`${LABEL[provider]} 로그인에 실패했습니다. 다시 시도해주세요.`);

async function fetchJson(url: string, init: RequestInit): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Reads the provider's profile into one shape. */
function toProfile(provider: SocialProfile['provider'], body: any): SocialProfile | null {
  if (provider === 'kakao') {
    if (body?.id === undefined || body?.id === null) return null;
    const account = body.kakao_account ?? {};
    return {
      provider,
      id: String(body.id),
      email: account.is_email_verified === false ? null : (account.email ?? null),
      name: account.name ?? account.profile?.nickname ?? body.properties?.nickname ?? null,
      profileImage: account.profile?.profile_image_url ?? null,
    };
  }
  if (provider === 'google') {
    if (!body?.sub) return null;
    return { provider, id: String(body.sub), email: body.email_verified === false ? null : (body.email ?? null), name: body.name ?? null, profileImage: body.picture ?? null };
  }
  const r = body?.response;
  if (body?.resultcode !== '00' || !r?.id) return null;
  return { provider, id: String(r.id), email: r.email ?? null, name: r.name ?? r.nickname ?? null, profileImage: r.profile_image ?? null };
}

/** Throws 501 "not configured" for Apple and for any provider whose client id is unset. */
export function ensureConfigured(config: Config, provider: SocialProvider): void {
  if (provider === 'apple' || !config.oauth[provider].clientId) throw notConfigured(provider);
}

/**
 * The OAuth 2 authorization-code flow shared by Kakao, Google and Naver: exchange the code
 * at the provider's token endpoint, then read the profile with the access token. Apple
 * (and any provider without keys) answers 501 "not configured".
 */
export async function exchangeCode(config: Config, provider: SocialProvider, input: { code: string; redirectUri: string; state?: string }): Promise<SocialProfile> {
  ensureConfigured(config, provider);
  if (provider === 'apple') throw notConfigured(provider);
  const settings = config.oauth[provider];
  if (!settings.clientId) throw notConfigured(provider);
  const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: settings.clientId, redirect_uri: input.redirectUri, code: input.code });
  if (settings.clientSecret) form.set('client_secret', settings.clientSecret);
  if (input.state) form.set('state', input.state);
  try {
    const token = await fetchJson(`${settings.authBaseUrl}${ENDPOINTS[provider].token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
      body: form,
    });
    const accessToken = token.body?.access_token;
    if (token.status !== 200 || typeof accessToken !== 'string') throw providerFailed(provider);
    const me = await fetchJson(`${settings.apiBaseUrl}${ENDPOINTS[provider].profile}`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
    const profile = me.status === 200 ? toProfile(provider, me.body) : null;
    if (!profile) throw providerFailed(provider);
    return profile;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // Network failure or timeout talking to the provider.
    throw new ApiError(502, ErrorCode.INTERNAL, `${LABEL[provider]} 서버와 통신하지 못했습니다. 잠시 후 다시 시도해주세요.`);
  }
}
