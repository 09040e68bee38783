import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import Alert from './Alert';
import { kakaoRedirectUri, takeKakaoState } from './kakao';
import { goAfterLogin, storeLogin } from './session-helpers';

/** /login/kakao: Kakao returns here with ?code; the server exchanges it and logs the user in. */
export default function KakaoCallback() {
  const [failure, setFailure] = useState<{ title: string; detail?: string | null } | null>(null);

  useEffect(() => {
    const q = new URLSearchParams(location.search);
    const code = q.get('code');
    // Drop the one-time code from the address bar and history.
    history.replaceState(null, '', '/login/kakao');
    if (!code || q.get('error') || !takeKakaoState(q.get('state'))) {
      setFailure({ title: '카카오 로그인에 실패했습니다', detail: q.get('error_description') ?? '카카오 로그인을 다시 시도해주세요.' });
      return;
    }
    void (async () => {
      const res = await call((o) => client.accounts[':provider{kakao|google|naver|apple}'].$post({ param: { provider: 'kakao' }, json: { code, redirect_uri: kakaoRedirectUri() } }, o));
      if (!res.ok) return setFailure({ title: '카카오 로그인에 실패했습니다', detail: res.error.message });
      if (!res.data?.access_token) return setFailure({ title: '로그인 정보를 받지 못했습니다. 다시 시도해주세요.' });
      storeLogin({ ...res.data, access_token: res.data.access_token });
      goAfterLogin();
    })();
  }, []);

  if (!failure) return <p role="status">카카오 로그인 중...</p>;
  return (
    <div className="space-y-4">
      <Alert title={failure.title} detail={failure.detail} />
      <a href="/login" className="inline-block rounded bg-ink px-5 py-2.5 font-semibold text-white">
        로그인으로 돌아가기
      </a>
    </div>
  );
}
