import { useEffect, useEffectEvent, useState } from 'react';
import { call, client, type ApiResult } from '../../client/api';
import { identityFailed, readIdentityReturn } from '../../client/identity';

/** Where a verification is posted: who was verified (POST /accounts/portone), or a password reset (tokens). */
const verifications = {
  portone: (identity_code: string) => call((o) => client.accounts.portone.$post({ json: { identity_code } }, o)),
  'reset-password': (identity_code: string) => call((o) => client.accounts['reset-password'].$post({ json: { identity_code } }, o)),
};
type Verification = keyof typeof verifications;
type AnswerOfVerification<E extends Verification> = Awaited<ReturnType<(typeof verifications)[E]>> extends ApiResult<infer D> ? D : never;

/**
 * Handles the provider's return on the page it comes back to: cleans the address bar, and on
 * success posts the verification to `endpoint` (by default POST /accounts/portone, who was
 * verified) and hands the answer to `onAnswer`. A provider or server failure becomes `failure`.
 */
export function useIdentityReturn<E extends Verification = 'portone'>(onAnswer: (data: AnswerOfVerification<E>) => void, opts: { endpoint?: E; failureTitle?: string } = {}) {
  const { endpoint = 'portone', failureTitle = '본인인증에 실패했습니다' } = opts;
  const [failure, setFailure] = useState<{ title: string; detail?: string | null } | null>(null);
  const [checking, setChecking] = useState(false);
  // The latest callback, without re-running the one-time return handling when it changes.
  const answered = useEffectEvent(onAnswer);
  useEffect(() => {
    const back = readIdentityReturn(location.search);
    if (!back) return;
    const q = new URLSearchParams(location.search);
    for (const k of ['identityVerificationId', 'identityVerificationTxId', 'transactionType', 'code', 'message', 'pgCode', 'pgMessage']) q.delete(k);
    history.replaceState(null, '', `${location.pathname}${q.size ? `?${q}` : ''}`);
    if (identityFailed(back)) {
      setFailure({ title: '본인인증에 실패했습니다', detail: back.message ?? back.code });
      return;
    }
    setChecking(true);
    void (verifications[endpoint](back.identityVerificationId) as Promise<ApiResult<AnswerOfVerification<E>>>).then((res) => {
      setChecking(false);
      if (!res.ok) return setFailure({ title: failureTitle, detail: res.error.message });
      answered(res.data);
    });
  }, [endpoint, failureTitle]);
  return { failure, setFailure, checking };
}
