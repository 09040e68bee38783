import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { startIdentityVerification } from '../../client/identity';
import { isLoggedIn, loginAgain, setIdentityVerified } from '../../stores/session';
import { useIdentityReturn } from '../auth/useIdentityReturn';

export interface OrderAccount {
  /** null while loading or for a visitor; false: the account must pass identity verification before ordering. */
  verified: boolean | null;
  /** Posting the provider's return (POST /accounts/portone attaches the person to this account). */
  checking: boolean;
  failure: { title: string; detail?: string | null } | null;
  /** Leaves for identity verification; the provider returns to `returnTo` (this page, its draft in the query). */
  verify: (returnTo: string) => Promise<void>;
}

/**
 * Who is ordering, for both checkouts, before any card window opens: GET /accounts tells
 * whether the account passed identity verification (the API refuses orders otherwise); a
 * token the API refuses (expired, revoked) is dropped — `onRefused` decides what then
 * (the order page goes to /login at once). The verification's return lands back here.
 */
export function useOrderAccount(onRefused: () => void = loginAgain): OrderAccount {
  const [verified, setVerified] = useState<boolean | null>(null);
  const load = useCallback(async () => {
    if (!isLoggedIn()) return;
    const res = await call((o) => client.accounts.$get({}, o));
    if (!res.ok) {
      if (res.status === 401) onRefused();
      return;
    }
    const account = res.data;
    setIdentityVerified(Boolean(account.ci_verified));
    setVerified(Boolean(account.ci_verified));
  }, [onRefused]);
  useEffect(() => {
    void load();
  }, [load]);
  const identity = useIdentityReturn(() => void load(), { failureTitle: '본인인증에 실패했습니다.' });
  const verify = useCallback(
    async (returnTo: string) => {
      identity.setFailure(null);
      try {
        await startIdentityVerification({ redirectUrl: new URL(returnTo, location.origin).toString() });
      } catch (err) {
        identity.setFailure({ title: '본인인증을 시작하지 못했습니다.', detail: err instanceof Error ? err.message : null });
      }
    },
    [identity],
  );
  return { verified, checking: identity.checking, failure: identity.failure, verify };
}
