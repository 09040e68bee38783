import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { MIN_PASSWORD_LENGTH, newPasswordErrors } from '../../domain/accounts';
import { isLoggedIn } from '../../stores/session';
import Alert from './Alert';
import Field from './Field';

/** /reset-password: a new password (required, at least 6, entered twice) for the account recovery logged in. */
export default function ResetPassword() {
  const [authed, setAuthed] = useState<boolean | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<{ title: string; detail?: string } | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => setAuthed(isLoggedIn()), []);

  async function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    setFailure(null);
    if (!isLoggedIn()) return setAuthed(false);
    const local: Record<string, string[]> = newPasswordErrors(password, confirm);
    if (!password) local.password = ['새 비밀번호를 입력해주세요.'];
    if (!confirm) local.password_confirm = ['비밀번호 확인을 입력해주세요.'];
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const res = await call((o) => client.accounts.$put({ json: { password } }, o));
    setBusy(false);
    if (!res.ok) {
      setErrors(res.error.errors ?? {});
      setFailure({ title: '비밀번호 변경에 실패했습니다', detail: res.error.message });
      return;
    }
    setDone(true);
  }

  if (authed === null) return <p role="status">로딩 중...</p>;
  if (!authed)
    return (
      <div className="space-y-4">
        <Alert title="본인인증이 필요합니다." detail="본인인증을 먼저 진행해주세요." />
        <a href="/forgot-password" className="inline-block rounded bg-ink px-5 py-2.5 font-semibold text-white">본인인증하러 가기</a>
      </div>
    );
  if (done)
    return (
      <div className="space-y-4">
        <Alert tone="info" title="비밀번호가 변경되었습니다." detail="새 비밀번호로 로그인할 수 있습니다." />
        <a href="/my" className="inline-block rounded bg-ink px-5 py-2.5 font-semibold text-white">마이페이지로 이동</a>
      </div>
    );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <Field label="새 비밀번호" name="password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} errors={errors.password} hint={`${MIN_PASSWORD_LENGTH}자 이상 입력해주세요.`} />
      <Field label="새 비밀번호 확인" name="password_confirm" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} errors={errors.password_confirm} />
      {failure && <Alert title={failure.title} detail={failure.detail} />}
      <button type="submit" disabled={busy} className="w-full rounded bg-ink py-3 font-semibold text-white disabled:opacity-50">
        {busy ? '변경 중...' : '비밀번호 변경'}
      </button>
    </form>
  );
}
