import { useCallback, useEffect, useRef, useState } from 'react';
import { call, client, type ApiResult } from '../../client/api';
import { couponHeld, couponState } from '../../domain/coupons';
import { formatWon } from '../../domain/money';
import { todayInKorea } from '../../domain/dates';
import type { ApiFailure } from '../../domain/error-codes';
import type { CouponClaimAnswer, CouponHolding } from '../../domain/pricing';
import { $couponMode, type CouponMode as Mode } from '../../stores/coupon-mode';
import CouponCard from './CouponCard';
import { claimedTab, TAB_HINT, TAB_LABEL } from './coupon-tab';
import Alert from '../common/Alert';


const errorLines = (e: ApiFailure) => [e.message, ...Object.values(e.errors ?? {}).flat()].filter((v, i, a) => a.indexOf(v) === i);

/** /coupon: 구독 and 의전 tabs (SUBSCRIBE and BUTLER coupons), code entry, available and used-or-expired lists. */
export default function CouponWallet() {
  const [mode, setMode] = useState<Mode>('SUBSCRIBE');
  const [coupons, setCoupons] = useState<CouponHolding[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const inFlight = useRef(false);
  const [notice, setNotice] = useState<{ ok: boolean; lines: string[] } | null>(null);

  const load = useCallback(async (m: Mode) => {
    const res = await call((o) => client.subscriptions.coupons.$get({ query: { service: m } }, o));
    setLoadError(res.ok ? null : res.status === 401 ? '로그인이 필요합니다.' : res.error.message);
    setCoupons(res.ok ? res.data.coupons : []);
  }, []);

  useEffect(() => {
    // Read after hydration: the server rendered the SUBSCRIBE tab.
    const m = $couponMode.get();
    setMode(m);
    void load(m);
  }, [load]);

  function choose(m: Mode) {
    setMode(m);
    $couponMode.set(m);
    void load(m);
  }

  async function add(e: { preventDefault(): void }) {
    e.preventDefault();
    const trimmed = code.trim();
    if (!trimmed || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    const path = encodeURIComponent(trimmed);
    let res: ApiResult<unknown> = await call((o) => client.subscriptions.coupons[':code'].$post({ param: { code: path } }, o));
    // Not a discount coupon: it may be a point coupon, credited to the points ledger.
    let points: number | null = null;
    if (!res.ok && res.status === 404) {
      const p = await call((o) => client.users['point-coupons'][':code'].$post({ param: { code: path } }, o));
      if (p.ok) [res, points] = [p, p.data.amount];
      else if (p.status !== 404) res = p;
    }
    if (res.ok) {
      // A coupon of the other service (a 의전 code on 구독) is listed on its own tab: go there and say so.
      const claimed = points ? null : (res.data as Partial<CouponClaimAnswer>).coupon;
      const moved = claimed ? claimedTab(claimed.coupon.service, mode) : null;
      setNotice({ ok: true, lines: ['쿠폰이 등록되었습니다.', ...(points ? [`${formatWon(points)} P가 적립되었습니다.`] : []), ...(moved ? [moved.note] : [])] });
      setCode('');
      if (moved) {
        setMode(moved.tab);
        $couponMode.set(moved.tab);
      }
      await load(moved?.tab ?? mode);
    } else {
      setNotice({ ok: false, lines: ['쿠폰 등록에 실패했습니다.', ...errorLines(res.error)] });
    }
    inFlight.current = false;
    setBusy(false);
  }

  // Not yet started (사용 예정) is neither used nor expired: it stays with the usable ones.
  const today = todayInKorea(new Date());
  const available = (coupons ?? []).filter((h) => couponHeld(couponState(h, today)));
  const spent = (coupons ?? []).filter((h) => !couponHeld(couponState(h, today)));
  return (
    <div className="space-y-8">
      <div role="tablist" aria-label="쿠폰 종류" className="grid grid-cols-2 border border-ink">
        {(['SUBSCRIBE', 'BUTLER'] as const).map((m) => (
          <button key={m} role="tab" type="button" aria-selected={mode === m} onClick={() => choose(m)} className={`min-h-11 py-3 text-sm font-semibold ${mode === m ? 'bg-ink text-paper' : ''}`}>
            {TAB_LABEL[m]}
          </button>
        ))}
      </div>
      <p className="-mt-5 text-xs text-muted" data-testid="coupon-tab-hint">{TAB_HINT}</p>
      <form onSubmit={(e) => void add(e)} className="flex gap-2">
        <input value={code} onChange={(e) => setCode(e.target.value)} aria-label="쿠폰 코드" placeholder="쿠폰 코드를 입력하세요" maxLength={40} className="w-full border border-line bg-white px-4 py-3" />
        <button type="submit" disabled={busy || !code.trim()} className="shrink-0 bg-ink px-5 py-3 font-semibold text-paper disabled:opacity-40">
          {busy ? '등록 중...' : '등록'}
        </button>
      </form>
      {notice && (
        <div role={notice.ok ? 'status' : 'alert'} className={`border p-3 text-sm ${notice.ok ? 'border-green-300 bg-green-50' : 'border-red-300 bg-red-50 text-red-800'}`}>
          {notice.lines.map((l) => <p key={l}>{l}</p>)}
        </div>
      )}
      {loadError && <Alert tone="page">{loadError}</Alert>}
      {coupons === null ? (
        <p className="text-muted">로딩 중...</p>
      ) : (
        <>
          <CouponList title="사용 가능한 쿠폰" items={available} empty="사용 가능한 쿠폰이 없습니다." />
          <CouponList title="사용 완료 · 기간 만료 쿠폰" items={spent} empty="사용했거나 만료된 쿠폰이 없습니다." />
        </>
      )}
    </div>
  );
}

function CouponList({ title, items, empty }: { title: string; items: CouponHolding[]; empty: string }) {
  return (
    <section aria-label={title}>
      <h2 className="font-semibold">{title} <span className="text-muted">({items.length})</span></h2>
      {items.length ? <ul className="mt-3 space-y-3">{items.map((h) => <CouponCard key={h.id} holding={h} />)}</ul> : <p className="mt-3 text-sm text-muted">{empty}</p>}
    </section>
  );
}
