import { useState } from 'react';
import { put } from '../../client/api';
import type { SubscriptionRequest } from '../../domain/subscriptions';

interface Props {
  request: SubscriptionRequest;
  onSaved: (r: SubscriptionRequest) => void;
}

const field = 'w-full border border-line bg-white px-3 py-2';

/** Edits period (≥1), coupon id (≥0), points (≥0) and billing key; the server re-validates and re-prices. */
export default function RequestEditForm({ request, onSaved }: Props) {
  const [month, setMonth] = useState(String(request.month));
  const [couponId, setCouponId] = useState(String(request.coupon?.id ?? 0));
  const [points, setPoints] = useState(String(request.point_used));
  const [billingKey, setBillingKey] = useState(request.billing_key);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; lines: string[] } | null>(null);

  async function save(e: { preventDefault(): void }) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    const res = await put<{ subscription_request: SubscriptionRequest }>(`/subscriptions/requests/${request.id}`, {
      month: Number(month), coupon_id: Number(couponId), point_amount: Number(points), billing_key: billingKey.trim(),
    });
    setBusy(false);
    if (res.ok) {
      onSaved(res.data.subscription_request);
      setNotice({ ok: true, lines: ['요청이 성공적으로 수정되었습니다.'] });
    } else {
      setNotice({ ok: false, lines: ['요청 수정에 실패했습니다.', res.error.message, ...Object.values(res.error.errors ?? {}).flat()] });
    }
  }

  return (
    <form onSubmit={save} className="grid gap-4 sm:grid-cols-2" aria-label="신청 수정">
      <label className="text-sm">기간 (개월)
        <input type="number" min={1} required value={month} onChange={(e) => setMonth(e.target.value)} className={field} />
      </label>
      <label className="text-sm">쿠폰 ID
        <input type="number" min={0} required value={couponId} onChange={(e) => setCouponId(e.target.value)} className={field} />
      </label>
      <label className="text-sm">포인트
        <input type="number" min={0} required value={points} onChange={(e) => setPoints(e.target.value)} className={field} />
      </label>
      <label className="text-sm">빌링키
        <input required value={billingKey} onChange={(e) => setBillingKey(e.target.value)} className={field} />
      </label>
      <div className="sm:col-span-2">
        <button type="submit" disabled={busy} className="bg-ink px-6 py-3 font-semibold text-paper disabled:opacity-50">{busy ? '저장 중...' : '저장'}</button>
        {notice && (
          <div role={notice.ok ? 'status' : 'alert'} className={`mt-3 text-sm ${notice.ok ? 'text-green-800' : 'text-red-700'}`}>
            {[...new Set(notice.lines)].map((l) => <p key={l}>{l}</p>)}
          </div>
        )}
      </div>
    </form>
  );
}
