import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { formatKoreaDateTime } from '../../domain/dates';
import { won } from '../../domain/money';
import { PAYMENT_STATUS_LABEL, type PaymentView, type RefundView } from '../../domain/payments';
import ListState from './ListState';

/** Where a payment's order is shown. */
function orderLink(p: PaymentView): string | null {
  if (p.ref_type === 'subscription_request') return `/subscribe/request/${p.ref_id}`;
  if (p.ref_type === 'butler_request') return `/butler/request/${p.ref_id}`;
  if (p.ref_type === 'subscription') return '/my/subscriptions';
  return null;
}

/** /my/payments: every charge (newest first) with its status and receipt, each with the refunds made of it. */
export default function PaymentList() {
  const [data, setData] = useState<{ payments: PaymentView[]; refunds: RefundView[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void call((o) => client.payments.$get({}, o)).then((res) => {
      if (res.ok) setData(res.data);
      else setError(res.status === 401 ? '로그인이 필요합니다.' : '결제 내역을 불러오지 못했습니다.');
    });
  }, []);
  return (
    <ListState items={data?.payments ?? null} error={error} empty="아직 결제 내역이 없습니다.">
      {(payments) => (
        <ul className="divide-y divide-line border-y border-line">
          {payments.map((p) => {
            const refunds = data!.refunds.filter((r) => r.payment_id === p.id && r.status === 'SUCCEEDED');
            const link = orderLink(p);
            return (
              <li key={p.id} className="py-4" data-testid="payment-item">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="text-xs text-muted">{formatKoreaDateTime(p.paid_at ?? p.requested_at)} · <span data-testid="payment-label">{p.label}</span></p>
                  <span className={`text-xs font-semibold ${p.status === 'FAILED' ? 'text-red-700' : ''}`} data-testid="payment-status">{PAYMENT_STATUS_LABEL[p.status]}</span>
                </div>
                <p className="mt-1 font-semibold">{p.order_name}</p>
                <p className="mt-1 text-lg font-semibold">{won(p.amount)}</p>
                {p.lines && (
                  <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" data-testid="payment-lines">
                    {p.lines.map((l) => (
                      <div key={l.label} className={`contents ${l.label === '합계' ? 'font-semibold' : ''}`}>
                        <dt className={l.label === '합계' ? 'border-t border-line pt-1' : 'text-muted'}>{l.label}</dt>
                        <dd className={`text-right tabular-nums ${l.label === '합계' ? 'border-t border-line pt-1' : ''}`}>{won(l.amount)}</dd>
                      </div>
                    ))}
                  </dl>
                )}
                {p.failure_reason && <p className="mt-1 text-sm text-red-700">{p.failure_reason}</p>}
                {refunds.map((r) => (
                  <p key={r.id} className="mt-1 text-sm">환불 {won(r.amount)} · {formatKoreaDateTime(r.completed_at ?? r.created_at)} · {r.reason}</p>
                ))}
                <p className="mt-2 flex flex-wrap gap-x-4 text-sm">
                  {p.receipt_url && <a href={p.receipt_url} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center underline underline-offset-4">영수증 보기</a>}
                  {link && <a href={link} className="inline-flex min-h-11 items-center underline underline-offset-4">신청 내역 보기</a>}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </ListState>
  );
}
