import { useEffect, useRef, useState } from 'react';
import { call, client } from '../../client/api';
import Alert from './Alert';
import Field from './Field';
import { kakaoClientId, startKakaoLogin } from './kakao';
import { goAfterLogin, storeLogin } from './session-helpers';
import { shownValue } from './shown-value';

/** /login: email and password, or Kakao; on success the saved return path or /my. */
export default function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<{ title: string; detail?: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const kakaoReady = Boolean(kakaoClientId());
  // Until hydrated the submit button stays disabled: a native submit would put the password in the URL.
  const [mounted, setMounted] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    setEmail(shownValue(form.current, 'email'));
    setPassword(shownValue(form.current, 'password'));
    setMounted(true);
  }, []);

  async function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    const missing: Record<string, string[]> = {};
    if (!email.trim()) missing.email = ['이메일을 입력해주세요.'];
    if (!password) missing.password = ['비밀번호를 입력해주세요.'];
    setFieldErrors(missing);
    setFailure(null);
    if (Object.keys(missing).length) return;
    setBusy(true);
    const res = await call((o) => client.accounts.login.$post({ json: { email: email.trim(), password } }, o));
    setBusy(false);
    if (!res.ok) {
      setFieldErrors(res.error.errors ?? {});
      setFailure({ title: '로그인에 실패했습니다', detail: res.error.message });
      return;
    }
    if (!res.data?.access_token) {
      setFailure({ title: '로그인 정보를 받지 못했습니다. 다시 시도해주세요.' });
      return;
    }
    storeLogin({ ...res.data, access_token: res.data.access_token });
    goAfterLogin();
  }

  return (
    <div className="space-y-6">
      <form ref={form} onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
        <Field label="이메일" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} errors={fieldErrors.email} />
        <Field label="비밀번호" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} errors={fieldErrors.password} />
        {failure && <Alert title={failure.title} detail={failure.detail} />}
        <button type="submit" disabled={busy || !mounted} className="w-full rounded bg-ink py-3 font-semibold text-white disabled:opacity-50">
          {busy ? '로그인 중...' : '로그인'}
        </button>
      </form>
      <div className="space-y-2">
        <button
          type="button"
          onClick={startKakaoLogin}
          disabled={!kakaoReady}
          className="w-full rounded bg-kakao py-3 font-semibold text-kakao-ink disabled:cursor-not-allowed disabled:opacity-50"
        >
          카카오로 로그인
        </button>
        {!kakaoReady && <p className="text-center text-xs text-muted">카카오 로그인은 지금 이용할 수 없습니다. 이메일로 로그인해주세요.</p>}
      </div>
      <p className="flex justify-center gap-4 text-sm">
        <a href="/signup" className="inline-flex min-h-11 items-center underline underline-offset-4">회원가입</a>
        <a href="/forgot-password" className="inline-flex min-h-11 items-center underline underline-offset-4">비밀번호 찾기</a>
      </p>
    </div>
  );
}
