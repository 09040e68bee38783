import { useEffect, useState } from 'react';
import { post } from '../../client/api';
import { SdkNotLoadedError, identityFailed, readIdentityReturn, startIdentityVerification } from '../../client/identity';
import Alert from './Alert';
import { storeLogin, type TokenAnswer } from './session-helpers';

/** /forgot-password: identity verification, then a reset call whose tokens are saved, then /reset-password. */
export default function ForgotPassword() {
  const [failure, setFailure] = useState<{ title: string; detail?: string | null } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const back = readIdentityReturn(location.search);
    if (!back) return;
    history.replaceState(null, '', '/forgot-password');
    if (identityFailed(back)) {
      setFailure({ title: 'Identity verification failed', detail: back.message ?? back.code });
      return;
    }
    setBusy(true);
    void post<TokenAnswer>('/accounts/reset-password', { identity_code: back.identityVerificationId }).then((res) => {
      setBusy(false);
      if (!res.ok || !res.data?.access_token) {
        setFailure({ title: 'Failed to process identity verification', detail: res.ok ? null : res.error.message });
        return;
      }
      storeLogin({ ...res.data, access_token: res.data.access_token });
      location.assign('/reset-password');
    });
  }, []);

  async function verify() {
    setFailure(null);
    try {
      await startIdentityVerification({ redirectUrl: `${location.origin}/forgot-password` });
    } catch (err) {
      setFailure({ title: err instanceof SdkNotLoadedError ? 'SDK not loaded' : 'Identity verification failed' });
    }
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-muted">가입할 때 인증한 본인 명의의 휴대폰으로 본인인증을 하면 새 비밀번호를 설정할 수 있습니다.</p>
      {failure && <Alert title={failure.title} detail={failure.detail} />}
      <button type="button" onClick={verify} disabled={busy} className="w-full rounded bg-ink py-3 font-semibold text-white disabled:opacity-50">
        {busy ? '확인 중...' : '본인인증하기'}
      </button>
      <p className="text-center text-sm">
        <a href="/login" className="underline underline-offset-4">로그인으로 돌아가기</a>
      </p>
    </div>
  );
}
