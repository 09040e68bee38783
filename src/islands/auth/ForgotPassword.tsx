import { SdkNotLoadedError, startIdentityVerification } from '../../client/identity';
import { SandboxOffError } from '../../client/sandbox';
import Alert from './Alert';
import { storeLogin } from './session-helpers';
import { useIdentityReturn } from './useIdentityReturn';

/** /forgot-password: identity verification, then a reset call whose tokens are saved, then /reset-password. */
export default function ForgotPassword() {
  // Back from the provider: the reset call answers with tokens, saved before /reset-password.
  const { failure, setFailure, checking } = useIdentityReturn(
    (data) => {
      if (!data?.access_token) return setFailure({ title: '본인인증 처리에 실패했습니다', detail: null });
      storeLogin({ ...data, access_token: data.access_token });
      location.assign('/reset-password');
    },
    { endpoint: 'reset-password', failureTitle: '본인인증 처리에 실패했습니다' },
  );

  async function verify() {
    setFailure(null);
    try {
      await startIdentityVerification({ redirectUrl: `${location.origin}/forgot-password` });
    } catch (err) {
      setFailure({ title: err instanceof SdkNotLoadedError ? '본인인증 창을 불러오지 못했습니다' : '본인인증에 실패했습니다', detail: err instanceof SandboxOffError ? err.message : undefined });
    }
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-muted">가입할 때 인증한 본인 명의의 휴대폰으로 본인인증을 하면 새 비밀번호를 설정할 수 있습니다.</p>
      {failure && <Alert title={failure.title} detail={failure.detail} />}
      <button type="button" onClick={() => void verify()} disabled={checking} className="w-full rounded bg-ink py-3 font-semibold text-white disabled:opacity-50">
        {checking ? '확인 중...' : '본인인증하기'}
      </button>
      <p className="text-center text-sm">
        <a href="/login" className="inline-flex min-h-11 items-center underline underline-offset-4">로그인으로 돌아가기</a>
      </p>
    </div>
  );
}
