import { dotDate, koreaDate } from '../../domain/dates';
import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import type { ReferralStatus } from '../../domain/accounts';
import { formatWon } from '../../domain/money';
import { isLoggedIn } from '../../stores/session';
import Alert from '../common/Alert';

/** The Korean day of an instant (a referral at 06:52 KST on the 2nd is the 2nd, not UTC's 1st). */
const day = (iso: string) => dotDate(koreaDate(iso));

/** /referral: my code with copy, entering another's code once, and both lists. */
export default function ReferralPanel() {
  const [status, setStatus] = useState<ReferralStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string; detail?: string } | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!isLoggedIn()) return setError('로그인이 필요합니다.');
    const res = await call((o) => client.users.referrals.$get({}, o));
    if (res.ok) setStatus(res.data);
    else setError(res.status === 401 ? '로그인이 필요합니다.' : '추천 정보를 불러오지 못했습니다. 잠시 후 다시 시도해주세요.');
  }, []);
  useEffect(() => void load(), [load]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(status?.referral_code ?? '');
      setCopied('추천 코드를 복사했습니다.');
    } catch {
      setCopied('복사하지 못했습니다. 코드를 직접 선택해 복사해주세요.');
    }
  }

  async function apply(e: { preventDefault(): void }) {
    e.preventDefault();
    const trimmed = code.trim();
    if (!trimmed || busy) return;
    if (!isLoggedIn()) return setNotice({ ok: false, text: '로그인이 필요합니다.' });
    setBusy(true);
    const res = await call((o) => client.users.referrals[':code'].$post({ param: { code: encodeURIComponent(trimmed) } }, o));
    setBusy(false);
    if (res.ok) {
      setStatus(res.data);
      setCode('');
      setNotice({ ok: true, text: '추천 코드가 등록되었습니다.' });
    } else {
      setNotice({ ok: false, text: '추천 코드 등록에 실패했습니다.', detail: res.error.message });
    }
  }

  if (error) return <Alert tone="box">{error}</Alert>;
  if (!status) return <p className="text-muted">로딩 중...</p>;
  return (
    <div className="space-y-10">
      <section aria-labelledby="my-code" className="border border-line bg-white p-6 text-center">
        <h2 id="my-code" className="text-sm text-muted">나의 추천 코드</h2>
        <p className="mt-2 text-3xl font-bold tracking-[0.2em]" data-testid="my-referral-code">{status.referral_code}</p>
        <button type="button" onClick={() => void copy()} className="mt-4 min-h-11 border border-ink px-5 py-2 text-sm font-semibold">코드 복사</button>
        {copied && <p role="status" className="mt-2 text-sm">{copied}</p>}
        <p className="mt-4 text-xs text-muted">친구가 내 추천 코드를 등록하면 두 사람 모두 {formatWon(status.reward)} P를 받습니다. (계정당 한 번)</p>
      </section>
      <form onSubmit={(e) => void apply(e)} className="space-y-2">
        <label htmlFor="ref-code" className="font-semibold">추천 코드 입력</label>
        <div className="flex gap-2">
          <input id="ref-code" value={code} onChange={(e) => setCode(e.target.value)} placeholder="친구의 추천 코드" maxLength={40} className="w-full border border-line bg-white px-4 py-3" />
          <button type="submit" disabled={busy || !code.trim()} className="shrink-0 bg-ink px-5 py-3 font-semibold text-paper disabled:opacity-40">등록</button>
        </div>
        {notice && (
          <div role={notice.ok ? 'status' : 'alert'} className={notice.ok ? 'text-green-800' : 'text-red-700'}>
            <p>{notice.text}</p>
            {notice.detail && <p className="text-sm">{notice.detail}</p>}
          </div>
        )}
      </form>
      <People title="내가 추천한 사람" rows={status.referrals_given.map((r) => [r.referree_username, r.created_at])} />
      <People title="나를 추천한 사람" rows={status.referrals_received.map((r) => [r.referrer_username, r.created_at])} />
    </div>
  );
}

function People({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <section aria-label={title}>
      <h2 className="font-semibold">{title} <span className="text-muted">({rows.length})</span></h2>
      {rows.length ? (
        <ul className="mt-3 divide-y divide-line border-y border-line">
          {rows.map(([name, at]) => (
            <li key={name + at} className="flex justify-between py-3 text-sm"><span>{name}</span><span className="text-muted">{day(at)}</span></li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-muted">아직 없습니다.</p>
      )}
    </section>
  );
}
