import { useState } from 'react';
import { call, client } from '../../client/api';
import { ERASED_ON_WITHDRAWAL, RETAINED_RECORDS, RETENTION_INTRO, type ClosurePreview } from '../../domain/account-closure';
import { signOut } from '../../stores/session';
import Alert from '../common/Alert';
import Dialog from '../checkout/Dialog';
import Field from '../auth/Field';

/** Where the home page says the account was closed (src/page-scripts/home-notice.ts). */
const WITHDRAWN_HOME = '/?withdrawn=1';

type Step = { at: 'closed' } | { at: 'loading' } | { at: 'notice'; preview: ClosurePreview } | { at: 'confirm'; preview: ClosurePreview };

/**
 * 회원 탈퇴 at the bottom of /my, in two steps: first what is erased, what the law keeps and for
 * how long (the privacy policy's list, src/domain/account-closure.ts) and what must end first (GET
 * /accounts/withdrawal); then the confirmation (a checkbox, and the current password when the
 * account has one) and DELETE /accounts. Closed, the browser forgets the session and goes home.
 */
export default function Withdrawal({ disabled = false }: { disabled?: boolean }) {
  const [step, setStep] = useState<Step>({ at: 'closed' });
  const [failure, setFailure] = useState<string | null>(null);
  const [blockers, setBlockers] = useState<string[]>([]);
  const [agreed, setAgreed] = useState(false);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);

  async function open() {
    setFailure(null);
    setBlockers([]);
    setErrors({});
    setAgreed(false);
    setPassword('');
    setStep({ at: 'loading' });
    const res = await call((o) => client.accounts.withdrawal.$get({}, o));
    if (!res.ok) {
      setStep({ at: 'closed' });
      return setFailure(res.error.message || '탈퇴 안내를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.');
    }
    setStep({ at: 'notice', preview: res.data });
  }

  async function withdraw(preview: ClosurePreview) {
    const local: Record<string, string[]> = {};
    if (!agreed) local.agreed = ['위 내용을 확인했다고 체크해주세요.'];
    if (preview.needs_password && !password) local.current_password = ['현재 비밀번호를 입력해주세요.'];
    setErrors(local);
    setFailure(null);
    if (Object.keys(local).length) return;
    setBusy(true);
    const res = await call((o) => client.accounts.$delete({ json: preview.needs_password ? { current_password: password } : {} }, o));
    if (!res.ok) {
      setBusy(false);
      const fields = res.error.errors ?? {};
      setErrors(fields);
      if (res.status === 409) {
        // Something started meanwhile (or was never shown): back to the notice with the server's list.
        setBlockers(res.error.errors?.blockers ?? [res.error.message]);
        return setStep({ at: 'notice', preview: { ...preview, can_withdraw: false } });
      }
      // A field's own line says it (a wrong password); anything else (the lock, a stale login) in the box.
      return setFailure(fields.current_password ? null : res.error.message);
    }
    signOut();
    location.assign(WITHDRAWN_HOME);
  }

  const close = () => setStep({ at: 'closed' });
  const preview = step.at === 'notice' || step.at === 'confirm' ? step.preview : null;
  const listed = preview ? (blockers.length ? blockers : preview.blockers.map((b) => b.message)) : [];

  return (
    <section aria-labelledby="withdrawal-heading" className="rounded border border-line bg-white p-5">
      <h2 id="withdrawal-heading" className="text-lg font-bold">회원 탈퇴</h2>
      <p className="mt-2 text-sm text-muted">탈퇴하면 계정과 개인정보가 지워지고 되돌릴 수 없습니다. 법령에 따라 보관하는 기록은 탈퇴 전에 안내해드립니다.</p>
      {failure && step.at === 'closed' && <Alert tone="box" className="mt-3">{failure}</Alert>}
      <button type="button" onClick={() => void open()} disabled={disabled || step.at === 'loading'} className="mt-4 min-h-11 rounded border border-red-700 px-5 py-2.5 font-semibold text-red-700 disabled:opacity-50">
        {step.at === 'loading' ? '확인 중...' : '회원 탈퇴'}
      </button>

      <Dialog open={step.at === 'notice'} title="회원 탈퇴 안내 (1/2)" onClose={close}>
        {preview && (
          <div className="space-y-4 text-sm" data-testid="withdrawal-notice">
            <div>
              <h3 className="font-semibold">탈퇴하면 바로 지워지는 정보</h3>
              <ul className="mt-1 list-disc space-y-0.5 pl-5">
                {ERASED_ON_WITHDRAWAL.map((line) => <li key={line}>{line}</li>)}
              </ul>
            </div>
            <div>
              <h3 className="font-semibold">법령에 따라 보관하는 기록</h3>
              <p className="mt-1 text-muted">{RETENTION_INTRO}</p>
              <ul className="mt-1 space-y-0.5" data-testid="withdrawal-retention">
                {RETAINED_RECORDS.map((r) => (
                  <li key={r.record} className="flex justify-between gap-3 border-b border-line py-1">
                    <span>{r.record}</span>
                    <span className="shrink-0 text-right font-semibold">{r.period} <span className="font-normal text-muted">({r.law})</span></span>
                  </li>
                ))}
              </ul>
              <p className="mt-1 text-muted">
                자세한 내용은 <a href="/privacy" className="inline-flex min-h-11 items-center underline">개인정보 처리방침</a>을 확인해주세요.
              </p>
            </div>
            {listed.length > 0 && (
              <div role="alert" className="border border-red-300 bg-red-50 p-3 text-red-800" data-testid="withdrawal-blockers">
                <p className="font-semibold">지금은 탈퇴할 수 없습니다. 먼저 다음을 마쳐주세요.</p>
                <ul className="mt-1 list-disc space-y-1 pl-5">
                  {listed.map((m, i) => {
                    const href = preview.blockers.find((b) => b.message === m)?.href;
                    return <li key={i}>{m}{href && <> <a href={href} className="inline-flex min-h-11 items-center font-semibold underline">바로 가기</a></>}</li>;
                  })}
                </ul>
              </div>
            )}
            <div className="flex gap-2">
              <button type="button" onClick={close} className="min-h-11 flex-1 rounded border border-line px-4 py-2.5 font-semibold">닫기</button>
              {listed.length === 0 && (
                <button type="button" onClick={() => setStep({ at: 'confirm', preview })} className="min-h-11 flex-1 rounded bg-ink px-4 py-2.5 font-semibold text-white">다음</button>
              )}
            </div>
          </div>
        )}
      </Dialog>

      <Dialog open={step.at === 'confirm'} title="회원 탈퇴 확인 (2/2)" onClose={busy ? undefined : close}>
        {preview && (
          <form onSubmit={(e) => { e.preventDefault(); void withdraw(preview); }} noValidate className="space-y-4 text-sm">
            <p>탈퇴하면 계정을 되살릴 수 없고, 남은 포인트와 쿠폰도 사라집니다. 같은 이메일로는 다시 가입할 수 있습니다.</p>
            <div>
              <label className="flex min-h-11 cursor-pointer items-center gap-3">
                <input type="checkbox" className="h-6 w-6 shrink-0 accent-ink" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} aria-describedby={errors.agreed ? 'withdraw-agree-error' : undefined} aria-invalid={errors.agreed ? true : undefined} />
                <span className="font-semibold">위 내용을 확인했습니다</span>
              </label>
              {errors.agreed && <p id="withdraw-agree-error" role="alert" className="text-sm text-red-700">{errors.agreed.join(' ')}</p>}
            </div>
            {preview.needs_password ? (
              <Field label="현재 비밀번호" name="current_password" id="withdraw-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} errors={errors.current_password} announce />
            ) : (
              <p className="text-muted">비밀번호가 없는 계정은 최근 15분 안에 로그인한 경우에만 탈퇴할 수 있습니다.</p>
            )}
            {failure && <Alert tone="box">{failure}</Alert>}
            <div className="flex gap-2">
              <button type="button" onClick={close} disabled={busy} className="min-h-11 flex-1 rounded border border-line px-4 py-2.5 font-semibold disabled:opacity-50">취소</button>
              <button type="submit" disabled={busy} className="min-h-11 flex-1 rounded bg-red-700 px-4 py-2.5 font-semibold text-white disabled:opacity-50">{busy ? '탈퇴 중...' : '탈퇴하기'}</button>
            </div>
          </form>
        )}
      </Dialog>
    </section>
  );
}
