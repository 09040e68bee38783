import { PROVIDER } from '../config/services';
import { API_BASE, type ApiPath } from './api';
import { SandboxOffError, sandboxOn, type ProviderSettings } from './sandbox';

/** The build's identity channel and sandbox switch. */
const BUILD_IDENTITY: ProviderSettings = { storeId: PROVIDER.portoneStoreId, channelKey: PROVIDER.identityChannelKey, sandbox: PROVIDER.sandbox };

/** What the identity provider hands back in the redirect query (PortOne's contract). */
export interface IdentityReturn {
  identityVerificationId: string;
  /** Present on failure (e.g. IDENTITY_VERIFICATION_FAILED), with a readable message. */
  code: string | null;
  message: string | null;
}

/** Reads an identity-verification return from a query string; null when the page was not opened by one. */
export function readIdentityReturn(search: string): IdentityReturn | null {
  const q = new URLSearchParams(search);
  const id = q.get('identityVerificationId');
  if (!id) return null;
  return { identityVerificationId: id, code: q.get('code'), message: q.get('message') };
}

/** Whether a return is a failure: any code other than SUCCESS. */
export const identityFailed = (r: IdentityReturn) => r.code !== null && r.code !== 'SUCCESS';

/** Thrown when the provider's SDK cannot be loaded (blocked script, offline). */
export class SdkNotLoadedError extends Error {
  constructor() {
    super('본인인증 창을 불러오지 못했습니다.');
  }
}

/**
 * Launches identity verification and leaves the page: PortOne when the build has a store id,
 * else the API's sandbox page (SandboxOffError when the build says the sandbox is off); `provider`
 * is the build's unless a test passes its own. The result always arrives in the query of
 * `redirectUrl` (read it with readIdentityReturn); throws SdkNotLoadedError when the SDK fails to load.
 */
export async function startIdentityVerification(req: { redirectUrl: string; name?: string; phone?: string }, provider: ProviderSettings = BUILD_IDENTITY): Promise<void> {
  const identityVerificationId = `identity-verification-${crypto.randomUUID()}`;
  const { storeId } = provider;
  if (!storeId) {
    if (!sandboxOn(provider.sandbox)) throw new SandboxOffError('본인인증');
    const q = new URLSearchParams({ identityVerificationId, redirectUrl: req.redirectUrl });
    if (req.name) q.set('name', req.name);
    if (req.phone) q.set('phone', req.phone);
    location.assign(`${API_BASE}${'/sandbox/identity' satisfies ApiPath}?${q}`);
    return;
  }
  let PortOne: typeof import('@portone/browser-sdk/v2');
  try {
    PortOne = await import('@portone/browser-sdk/v2');
  } catch {
    throw new SdkNotLoadedError();
  }
  let res: Awaited<ReturnType<typeof PortOne.requestIdentityVerification>>;
  try {
    res = await PortOne.requestIdentityVerification({
      storeId,
      identityVerificationId,
      channelKey: provider.channelKey,
      redirectUrl: req.redirectUrl,
      windowType: { pc: 'POPUP', mobile: 'REDIRECTION' },
      ...(req.name || req.phone ? { customer: { fullName: req.name, phoneNumber: req.phone?.replace(/\D/g, '') } } : {}),
    });
  } catch (err) {
    // The loader rejects with "[PortOne] Failed to load …" when the CDN script is unavailable.
    if (err instanceof Error && /load/i.test(err.message)) throw new SdkNotLoadedError();
    throw err;
  }
  // Answered in place (PC popup): continue exactly as after a redirect, so one code path handles both.
  if (res) {
    const back = new URL(req.redirectUrl, location.href);
    back.searchParams.set('identityVerificationId', res.identityVerificationId ?? identityVerificationId);
    if (res.code) back.searchParams.set('code', res.code);
    if (res.message) back.searchParams.set('message', res.message);
    location.assign(back.toString());
  }
}
