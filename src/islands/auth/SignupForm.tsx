import { useEffect, useRef, useState } from 'react';
import { call, client } from '../../client/api';
import { SdkNotLoadedError, startIdentityVerification } from '../../client/identity';
import { SandboxOffError } from '../../client/sandbox';
import { MIN_PASSWORD_LENGTH, formatPhone, newPasswordErrors, normalizePhone } from '../../domain/accounts';
import Alert from './Alert';
import Field from './Field';
import { goAfterLogin, storeLogin } from './session-helpers';
import { shownValue } from './shown-value';
import { clearDraft, emptyDraft, loadDraft, saveDraft, type SignupDraft } from './signup-storage';
import { useIdentityReturn } from './useIdentityReturn';

type Notice = { title: string; detail?: string | null; tone?: 'error' | 'info' } | null;
const box = 'h-4 w-4 accent-ink';

/** /signup: the form, the email duplicate check, identity verification, consents and the referrer. */
export default function SignupForm() {
  const [d, setD] = useState<SignupDraft>(emptyDraft);
  const [ready, setReady] = useState(false);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [emailNotice, setEmailNotice] = useState<Notice>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const update = (patch: Partial<SignupDraft>) => setD((prev) => ({ ...prev, ...patch }));

  const form = useRef<HTMLFormElement>(null);

  // Restore the draft (it survives the provider's redirect), keep what was typed before hydration
  // (shown-value.ts) and prefill the referrer from ?code.
  useEffect(() => {
    const saved = loadDraft();
    const shown = (name: 'name' | 'mobile' | 'email' | 'referrerPhone') => saved[name] || shownValue(form.current, name);
    const restored = { ...saved, name: shown('name'), mobile: shown('mobile'), email: shown('email'), referrerPhone: shown('referrerPhone') };
    const code = readReferrer();
    setD(code && !restored.referrerPhone ? { ...restored, referrerPhone: code } : restored);
    setPassword(shownValue(form.current, 'password'));
    setConfirm(shownValue(form.current, 'password_confirm'));
    setReady(true);
  }, []);
  useEffect(() => {
    if (ready) saveDraft(d);
  }, [d, ready]);

  const identity = useIdentityReturn((p) => update({ identityCode: p.identity_code, verifiedName: p.name, verifiedPhone: p.phone }));
  const verified = Boolean(d.identityCode);
  const emailChecked = d.checkedEmail !== null && d.checkedEmail === d.email.trim().toLowerCase();

  async function checkEmail() {
    const email = d.email.trim();
    if (!email) return setEmailNotice({ title: '이메일을 입력해주세요.' });
    const res = await call((o) => client.accounts['check-email'].$post({ json: { email } }, o));
    if (!res.ok) return setEmailNotice({ title: `이메일 중복 확인에 실패했습니다: ${res.error.errors?.email?.[0] ?? res.error.message}` });
    update({ checkedEmail: res.data.available ? email.toLowerCase() : null });
    setEmailNotice({ title: res.data.message, tone: res.data.available ? 'info' : 'error' });
  }

  async function verify() {
    if (!d.name.trim() || !d.mobile.trim()) {
      identity.setFailure({ title: '본인인증에 실패했습니다', detail: '이름과 휴대폰 번호를 먼저 입력해주세요.' });
      return;
    }
    saveDraft(d);
    try {
      await startIdentityVerification({ redirectUrl: `${location.origin}/signup`, name: d.name.trim(), phone: normalizePhone(d.mobile) });
    } catch (err) {
      identity.setFailure({ title: err instanceof SdkNotLoadedError ? '본인인증 창을 불러오지 못했습니다' : '본인인증에 실패했습니다', detail: err instanceof SandboxOffError ? err.message : undefined });
    }
  }

  async function submit(e: { preventDefault(): void }) {
    e.preventDefault();
    setNotice(null);
    const local: Record<string, string[]> = {};
    if (!d.name.trim()) local.name = ['이름을 입력해주세요.'];
    if (!d.mobile.trim()) local.mobile = ['휴대폰 번호를 입력해주세요.'];
    if (!d.email.trim()) local.email = ['이메일을 입력해주세요.'];
    else if (!emailChecked) local.email = ['이메일 중복 확인을 해주세요.'];
    if (!verified) local.identity_code = ['본인인증을 진행해주세요.'];
    Object.assign(local, newPasswordErrors(password, confirm));
    if (!d.terms || !d.privacy) local.consents = ['이용약관과 개인정보 처리방침에 동의해주세요.'];
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const res = await call((o) => client.accounts.$post({ json: {
      name: d.name.trim(), mobile: d.mobile, email: d.email.trim(), password, identity_code: d.identityCode ?? '',
      referrerPhone: d.referrerPhone.trim() || undefined, marketing_consent: d.marketing,
    } }, o));
    setBusy(false);
    if (!res.ok) {
      setErrors(res.error.errors ?? {});
      setNotice({ title: res.error.message });
      return;
    }
    if (!res.data?.access_token) return setNotice({ title: '로그인 정보를 받지 못했습니다. 다시 시도해주세요.' });
    clearDraft();
    storeLogin({ ...res.data, access_token: res.data.access_token });
    goAfterLogin();
  }

  const verifyButton = (
    <button type="button" onClick={() => void verify()} disabled={verified} className="shrink-0 rounded border border-ink px-3 text-sm font-semibold disabled:opacity-50">
      {verified ? '인증 완료' : '본인인증'}
    </button>
  );
  const personChanged = (patch: Partial<SignupDraft>) => update({ ...patch, identityCode: null, verifiedName: null, verifiedPhone: null });

  return (
    <form ref={form} onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
      <Field label="이름" name="name" autoComplete="name" required value={d.name} readOnly={verified} onChange={(e) => personChanged({ name: e.target.value })} errors={errors.name} />
      <Field label="휴대폰 번호" name="mobile" type="tel" inputMode="tel" autoComplete="tel" required placeholder="010-1234-5678" value={d.mobile} readOnly={verified}
        onChange={(e) => personChanged({ mobile: e.target.value })} errors={errors.mobile ?? errors.identity_code} action={verifyButton}
        hint={verified ? `본인인증 완료: ${d.verifiedName} · ${formatPhone(d.verifiedPhone ?? '')}` : '이름과 휴대폰 번호를 입력한 뒤 본인인증을 진행해주세요.'} />
      {identity.checking && <p role="status" className="text-sm">본인인증 확인 중...</p>}
      {identity.failure && <Alert title={identity.failure.title} detail={identity.failure.detail} />}
      <Field label="이메일" name="email" type="email" autoComplete="email" required value={d.email} onChange={(e) => { update({ email: e.target.value }); setEmailNotice(null); }}
        errors={errors.email} action={<button type="button" onClick={() => void checkEmail()} className="shrink-0 rounded border border-ink px-3 text-sm font-semibold">{emailChecked ? '확인 완료' : '중복 확인'}</button>} />
      {emailNotice && <Alert title={emailNotice.title} tone={emailNotice.tone} />}
      <Field label="비밀번호" name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} value={password} onChange={(e) => setPassword(e.target.value)}
        errors={errors.password} hint={`${MIN_PASSWORD_LENGTH}자 이상 입력해주세요.`} />
      <Field label="비밀번호 확인" name="password_confirm" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} errors={errors.password_confirm} />
      <Field label="추천인 휴대폰 번호 (선택)" name="referrerPhone" type="tel" inputMode="tel" placeholder="010-0000-0000" value={d.referrerPhone} onChange={(e) => update({ referrerPhone: e.target.value })} errors={errors.referrerPhone} />
      <fieldset className="space-y-2 rounded border border-line bg-white p-4 text-sm">
        <legend className="px-1 font-semibold">약관 동의</legend>
        <label className="flex min-h-11 items-center gap-2"><input type="checkbox" className={box} checked={d.terms && d.privacy && d.marketing} onChange={(e) => update({ terms: e.target.checked, privacy: e.target.checked, marketing: e.target.checked })} /> 전체 동의</label>
        <label className="flex min-h-11 items-center gap-2"><input type="checkbox" name="terms" className={box} checked={d.terms} onChange={(e) => update({ terms: e.target.checked })} /> [필수] 서비스 이용약관 동의 <a href="/terms" target="_blank" className="ml-auto inline-flex min-h-11 min-w-11 items-center justify-center underline">보기</a></label>
        <label className="flex min-h-11 items-center gap-2"><input type="checkbox" name="privacy" className={box} checked={d.privacy} onChange={(e) => update({ privacy: e.target.checked })} /> [필수] 개인정보 처리방침 동의 <a href="/privacy" target="_blank" className="ml-auto inline-flex min-h-11 min-w-11 items-center justify-center underline">보기</a></label>
        <label className="flex min-h-11 items-center gap-2"><input type="checkbox" name="marketing" className={box} checked={d.marketing} onChange={(e) => update({ marketing: e.target.checked })} /> [선택] 마케팅 정보 수신 동의</label>
        {errors.consents && <p className="text-red-700">{errors.consents[0]}</p>}
      </fieldset>
      {notice && <Alert title={notice.title} detail={notice.detail} tone={notice.tone} />}
      <button type="submit" disabled={busy || !emailChecked || !verified} className="w-full rounded bg-ink py-3 font-semibold text-white disabled:opacity-50">
        {busy ? '가입 중...' : '회원가입'}
      </button>
      {(!emailChecked || !verified) && <p className="text-center text-xs text-muted">이메일 중복 확인과 본인인증을 마치면 가입할 수 있습니다.</p>}
    </form>
  );
}

/** The referrer's phone from ?code (a shared signup link). */
function readReferrer(): string {
  const q = new URLSearchParams(location.search);
  return q.has('identityVerificationId') ? '' : (q.get('code') ?? '').trim();
}
