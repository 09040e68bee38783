import { z } from 'zod';
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

async function fetchJson(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json().catch(() => null) };
}

// The providers' answers come from outside: read only the fields we use. A field of an unexpected
// type reads as absent rather than failing the login; a missing id does fail it.
const text = z.string().nullish().catch(null);
const part = <S extends z.ZodRawShape>(shape: S) => z.object(shape).nullish().catch(null);
const TokenAnswer = z.object({ access_token: z.string() });
const KakaoMe = z.object({
  id: z.union([z.number(), z.string()]),
  kakao_account: part({ is_email_verified: z.unknown(), email: text, name: text, profile: part({ nickname: text, profile_image_url: text }) }),
  properties: part({ nickname: text }),
});
const GoogleMe = z.object({ sub: z.string().min(1), email_verified: z.unknown(), email: text, name: text, picture: text });
const NaverMe = z.object({
  resultcode: z.literal('00'),
  response: z.object({ id: z.string().min(1), email: text, name: text, nickname: text, profile_image: text }),
});

/** Reads the provider's profile into one shape. */
function toProfile(provider: SocialProfile['provider'], body: unknown): SocialProfile | null {
  if (provider === 'kakao') {
    const me = KakaoMe.safeParse(body);
    if (!me.success) return null;
    const { id, kakao_account: account, properties } = me.data;
    return {
      provider,
      id: String(id),
      email: account?.is_email_verified === false ? null : (account?.email ?? null),
      name: account?.name ?? account?.profile?.nickname ?? properties?.nickname ?? null,
      profileImage: account?.profile?.profile_image_url ?? null,
    };
  }
  if (provider === 'google') {
    const me = GoogleMe.safeParse(body);
    if (!me.success) return null;
    const g = me.data;
    return { provider, id: g.sub, email: g.email_verified === false ? null : (g.email ?? null), name: g.name ?? null, profileImage: g.picture ?? null };
  }
  const me = NaverMe.safeParse(body);
  if (!me.success) return null;
  const r = me.data.response;
  return { provider, id: r.id, email: r.email ?? null, name: r.name ?? r.nickname ?? null, profileImage: r.profile_image ?? null };
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
    const answer = TokenAnswer.safeParse(token.body);
    if (token.status !== 200 || !answer.success) throw providerFailed(provider);
    const accessToken = answer.data.access_token;
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
