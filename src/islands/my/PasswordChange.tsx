import { useState } from 'react';
import { call, client } from '../../client/api';
import { MIN_PASSWORD_LENGTH, newPasswordErrors } from '../../domain/accounts';
import Alert from '../common/Alert';
import Field from '../auth/Field';

/** What the account tells about its password (GET /accounts: has_password, social_provider, email). */
export interface PasswordFacts {
  hasPassword: boolean;
  socialProvider: string | null;
  email: string | null;
}

const PROVIDER_NAME: Record<string, string> = { kakao: '카카오', naver: '네이버', google: 'Google', apple: 'Apple' };

/**
 * 비밀번호 변경 on /my: the current password, a new one by the signup rule, and its confirmation
 * (PUT /accounts; a wrong current password counts toward the login lock; the other devices are
 * logged out). A social account without a password may set one while its login is fresh (15 min),
 * when it has an email to log in with; without an email it is told why there is none.
 */
export default function PasswordChange({ facts }: { facts: PasswordFacts }) {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const provider = facts.socialProvider ? (PROVIDER_NAME[facts.socialProvider] ?? facts.socialProvider) : null;
  const setting = !facts.hasPassword;

  if (setting && !facts.email) {
    return (
      <p className="text-sm text-muted" data-testid="password-social-only">
        {provider ?? '소셜'} 로그인으로 가입한 계정이라 비밀번호가 없습니다. 비밀번호로 로그인하려면 이메일이 필요하니, 계속 {provider ?? '소셜'} 로그인을 이용하시거나 고객센터로 문의해주세요.
      </p>
    );
  }

  async function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    setFailure(null);
    setDone(null);
    const local = newPasswordErrors(password, confirm);
    if (!setting && !current) local.current_password = ['현재 비밀번호를 입력해주세요.'];
    if (!setting && current && password && current === password) local.password = ['현재 비밀번호와 다른 비밀번호를 입력해주세요.'];
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const res = await call((o) => client.accounts.$put({ json: setting ? { password } : { password, current_password: current } }, o));
    setBusy(false);
    if (!res.ok) {
      const fields = res.error.errors ?? {};
      setErrors(fields);
      // A field's own line says it (a wrong current password); a social account's stale login gets words without the password it does not have.
      if (setting && res.status === 403) setFailure(`보안을 위해 ${provider ?? '소셜'} 로그인으로 다시 로그인한 뒤 15분 안에 설정해주세요.`);
      else if (!Object.keys(fields).length) setFailure(res.error.message);
      return;
    }
    setCurrent('');
    setPassword('');
    setConfirm('');
    setDone(setting ? '비밀번호를 설정했습니다. 이제 이메일과 비밀번호로도 로그인할 수 있습니다.' : '비밀번호를 변경했습니다. 다른 기기에서는 새 비밀번호로 다시 로그인해주세요.');
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4" aria-labelledby="password-heading">
      {setting && (
        <p className="text-sm text-muted">
          {provider ?? '소셜'} 로그인으로 가입해 비밀번호가 없습니다. 비밀번호를 설정하면 이메일과 비밀번호로도 로그인할 수 있습니다. (이메일: {facts.email})
        </p>
      )}
      {!setting && (
        <Field label="현재 비밀번호" name="current_password" id="pw-current" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} errors={errors.current_password} announce />
      )}
      <Field label="새 비밀번호" name="password" id="pw-new" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} errors={errors.password} announce hint={`${MIN_PASSWORD_LENGTH}자 이상 입력해주세요.`} />
      <Field label="새 비밀번호 확인" name="password_confirm" id="pw-confirm" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} errors={errors.password_confirm} announce />
      {failure && <Alert tone="box">{failure}</Alert>}
      {done && <p role="status" className="rounded border border-line bg-white px-4 py-3 text-sm font-semibold">{done}</p>}
      <button type="submit" disabled={busy} className="min-h-11 rounded bg-ink px-5 py-2.5 font-semibold text-white disabled:opacity-50">
        {busy ? '저장 중...' : setting ? '비밀번호 설정' : '비밀번호 변경'}
      </button>
    </form>
  );
}
