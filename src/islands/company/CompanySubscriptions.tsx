import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { carDisplayName } from '../../domain/car';
import { companySubscriptionBillingNote, companySubscriptionCancelLine, type CompanySubscriptionView } from '../../domain/company';
import type { SubscriptionRequest } from '../../domain/subscriptions';
import { won } from '../../domain/money';
import Alert from '../common/Alert';

const STATUS: Record<string, string> = { PENDING: '확정 대기', CONFIRMED: '확정', CANCELLED: '취소됨' };

/**
 * 취소 of a pending order (admins; this list is theirs): the first click opens the question with the
 * refund to the company card, 취소 확정 sends DELETE /companies/{id}/subscriptions/{requestId} (a
 * retry answers the cancelled order, nothing refunded twice), then the row reads 취소됨.
 */
function CancelOrder({ companyId, request, onCancelled }: { companyId: number; request: SubscriptionRequest; onCancelled: (r: SubscriptionRequest) => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  async function run() {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    const res = await call((o) => client.companies[':id'].subscriptions[':requestId'].$delete({ param: { id: String(companyId), requestId: String(request.id) } }, o));
    setBusy(false);
    if (!res.ok) return setFailure(`구독 신청을 취소하지 못했습니다. ${res.error.message}`);
    setOpen(false);
    onCancelled(res.data.request);
  }
  if (!open) {
    return (
      <div>
        <button type="button" className="btn-outline min-h-11 px-4" onClick={() => setOpen(true)}>취소</button>
      </div>
    );
  }
  return (
    <div role="group" aria-label={`신청 #${request.id} 취소`} className="space-y-2 border border-line p-3" data-testid="company-subscription-cancel">
      <p className="font-semibold">이 구독 신청을 취소하시겠습니까?</p>
      <p data-testid="company-subscription-refund">{companySubscriptionCancelLine(request)}</p>
      {failure && <Alert>{failure}</Alert>}
      <div className="flex flex-wrap gap-2">
        <button type="button" className="min-h-11 border border-red-700 px-4 font-semibold text-red-700 disabled:opacity-50" disabled={busy} onClick={() => void run()}>
          {busy ? '취소 중...' : '취소 확정'}
        </button>
        <button type="button" className="btn-outline min-h-11 px-4" disabled={busy} onClick={() => setOpen(false)}>닫기</button>
      </div>
    </div>
  );
}

/** 회사 장기 구독 (admins): every subscription ordered in the company's name, with its driver, billing and state; a pending one can be cancelled. */
export default function CompanySubscriptions({ companyId }: { companyId: number }) {
  const [items, setItems] = useState<CompanySubscriptionView[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const cancelled = (r: SubscriptionRequest) => setItems((list) => list?.map((v) => (v.request.id === r.id ? { ...v, request: r } : v)) ?? null);
  useEffect(() => {
    void (async () => {
      const res = await call((o) => client.companies[':id'].subscriptions.$get({ param: { id: String(companyId) } }, o));
      if (res.ok) setItems(res.data.subscriptions);
      else setMessage(res.error.message);
    })();
  }, [companyId]);
  return (
    <section aria-labelledby="company-subscriptions" className="space-y-3 rounded border border-line bg-white p-5">
      <h2 id="company-subscriptions" className="text-lg font-bold">회사 장기 구독</h2>
      {items && !items.length && <p className="text-sm text-muted">회사 이름으로 한 구독 신청이 없습니다.</p>}
      <ul className="divide-y divide-line">
        {items?.map(({ request: r, driver, subscription: s }) => (
          <li key={r.id} className="space-y-1 py-3 text-sm" data-testid="company-subscription">
            <p className="font-semibold">신청 #{r.id} · {carDisplayName(r.car)} · {r.month}개월 · <span data-testid="company-subscription-status">{STATUS[r.status] ?? r.status}</span></p>
            <p className="text-muted">
              운전자 {driver.name} · 월 {won(r.fee)} ({r.company?.billing === 'INVOICE' ? '월 청구서' : '법인카드'})
              {s ? ` · ${s.start_date} ~ ${s.end_date} · ${s.paid_months}개월 청구` : ''}
            </p>
            {r.company && <p className="text-xs text-muted" data-testid="company-subscription-billing-note">{companySubscriptionBillingNote(r.company.billing)}</p>}
            {r.status === 'PENDING' && <CancelOrder companyId={companyId} request={r} onCancelled={cancelled} />}
          </li>
        ))}
      </ul>
      {message && <Alert>{message}</Alert>}
    </section>
  );
}
