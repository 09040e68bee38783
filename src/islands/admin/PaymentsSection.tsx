import { useCallback, useEffect, useState } from 'react';
import { won } from '../../domain/money';
import type { OverdueSubscription, StaffPayment } from '../../domain/console';
import { BILLING_STATUS_LABEL, PAYMENT_STATUSES, PAYMENT_STATUS_LABEL, type PaymentView } from '../../domain/payments';
import { call, client } from '../../client/api';
import { formatDateTime } from './admin-api';
import { readRefundAmount, refundQuestion } from './refund-amount';
import PageNav from './PageNav';
import { PageLoadState, usePageLoad } from './use-page-load';


const refundable = (p: PaymentView) => p.status === 'PAID' || p.status === 'PARTIAL_CANCELLED';

/** The console's money: payments by status and day with refunds (a reason is required), and the overdue list with 지금 재시도. */
/** 지금 재시도: an overdue subscription's charge, or a failed butler payment, now. */
const retrySubscription = (id: number) => call((o) => client.admin.subscriptions[':id'].retry.$post({ param: { id: String(id) } }, o));
const retryPayment = (id: string) => call((o) => client.admin.payments[':id'].retry.$post({ param: { id: String(id) } }, o));

export default function PaymentsSection() {
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [overdue, setOverdue] = useState<OverdueSubscription[]>([]);
  const [message, setMessage] = useState<string | null>(null);

  const { load, last, reload } = usePageLoad(() => {
    const paymentStatus = PAYMENT_STATUSES.find((s) => s === status);
    const query = { ...(paymentStatus ? { status: paymentStatus } : {}), ...(from ? { from } : {}), ...(to ? { to } : {}), page: String(page) };
    return call((o) => client.admin.payments.$get({ query }, o));
  }, [status, from, to, page]);
  // The overdue list is its own request, read again with every payments page (a filter, a page,
  // an action) so both show the same moment; the payments page never waits on it.
  const loadOverdue = useCallback(async () => {
    const late = await call((o) => client.admin.subscriptions.overdue.$get({}, o));
    if (late.ok) setOverdue(late.data.subscriptions);
    else setMessage(late.error.message);
  }, []);
  useEffect(() => void loadOverdue(), [loadOverdue, status, from, to, page]);
  const reloadAll = () => Promise.all([reload(), loadOverdue()]);
  const rows = load.state === 'ready' ? load.data.payments : null;

  /** A filter change starts again from the first page. */
  const filter = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setPage(1);
  };

  /**
   * 환불: the amount is read exactly (readRefundAmount: digits, 500,000, 50만원; anything else is
   * refused), the exact amount is shown to confirm, and the message names what the server refunded.
   */
  const refund = async (p: StaffPayment) => {
    const left = p.amount - p.refunded_amount;
    const amountText = window.prompt(`#${p.id} 환불 금액 (원, 최대 ${won(left)}). 비워 두면 전액 환불합니다.`, String(left));
    if (amountText === null) return;
    const read = readRefundAmount(amountText, left);
    if (!read.ok) return setMessage(read.message);
    const reason = window.prompt('환불 사유를 입력해주세요. (변경 이력에 남습니다)');
    if (!reason?.trim()) return setMessage('환불 사유를 입력해야 환불할 수 있습니다.');
    if (!window.confirm(refundQuestion(p.id, read.amount, left))) return setMessage('환불하지 않았습니다.');
    const res = await call((o) => client.admin.payments[':id'].refund.$post({ param: { id: String(p.id) }, json: { amount: read.amount, reason } }, o));
    setMessage(res.ok ? `${p.id} ${won(res.data.refund.amount)}을 환불했습니다. (환불 누계 ${won(res.data.payment.refunded_amount)})` : res.error.message);
    await reloadAll();
  };
  const retry = async (send: () => ReturnType<typeof retrySubscription | typeof retryPayment>, label: string) => {
    const res = await send();
    setMessage(res.ok ? `${label}: ${PAYMENT_STATUS_LABEL[res.data.payment.status]}` : `${label}: ${res.error.message}`);
    await reloadAll();
  };

  return (
    <section aria-label="결제" className="space-y-6">
      <div className="space-y-3">
        <h2 className="font-semibold">연체·결제 실패 구독</h2>
        {!overdue.length && <p className="text-sm text-muted">연체된 구독이 없습니다.</p>}
        <ul className="divide-y divide-line border-y border-line" data-testid="overdue-list">
          {overdue.map((o) => (
            <li key={o.id} className="flex flex-wrap items-center gap-3 py-3 text-sm">
              <span className="w-14 shrink-0 text-muted">구독 #{o.id}</span>
              <div className="min-w-0 flex-1">
                <p className="font-semibold">{BILLING_STATUS_LABEL[o.billing_status]} · {o.month}개월 차 {won(o.amount)} (결제일 {o.due_date})</p>
                <p className="text-muted">{o.user.name ?? '-'} ({o.user.email ?? o.user.mobile ?? '-'}) · 실패 {o.failures}회 · {o.last_failure ?? ''}{o.retry_date ? ` · 다음 시도 ${o.retry_date}` : ''}</p>
              </div>
              <button type="button" className="btn-primary min-h-11 px-3 py-1.5" onClick={() => void retry(() => retrySubscription(o.id), `구독 #${o.id}`)}>지금 재시도</button>
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <select aria-label="결제 상태" className="field w-auto py-2" value={status} onChange={filter(setStatus)}>
          <option value="">전체 상태</option>
          {PAYMENT_STATUSES.map((s) => <option key={s} value={s}>{PAYMENT_STATUS_LABEL[s]}</option>)}
        </select>
        <label className="text-sm"><span className="mr-2 font-semibold">시작일</span><input type="date" className="field w-auto py-2" value={from} onChange={filter(setFrom)} /></label>
        <label className="text-sm"><span className="mr-2 font-semibold">종료일</span><input type="date" className="field w-auto py-2" value={to} onChange={filter(setTo)} /></label>
      </div>
      {message && <p role="status" className="text-sm text-muted">{message}</p>}
      <PageLoadState load={load} onRetry={() => void reload()} />
      {rows && !rows.length && <p className="text-sm text-muted">결제 내역이 없습니다.</p>}
      <ul className="divide-y divide-line border-y border-line" data-testid="payments-list">
        {rows?.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center gap-3 py-3 text-sm">
            <div className="min-w-0 flex-1">
              <p className="font-semibold">{p.id} · {p.label} · {won(p.amount)} <span className="text-muted">· {PAYMENT_STATUS_LABEL[p.status]}{p.refunded_amount ? ` (환불 ${won(p.refunded_amount)})` : ''}</span></p>
              <p className="text-muted">{p.user.name ?? '-'} ({p.user.email ?? '-'}) · {formatDateTime(p.requested_at)}{p.failure_reason ? ` · ${p.failure_reason}` : ''}</p>
            </div>
            {refundable(p) && <button type="button" className="min-h-11 border border-red-700 px-3 py-1.5 font-semibold text-red-700" onClick={() => void refund(p)}>환불</button>}
            {p.status === 'FAILED' && p.ref_type === 'butler_request' && <button type="button" className="btn-primary min-h-11 px-3 py-1.5" onClick={() => void retry(() => retryPayment(p.id), p.id)}>지금 재시도</button>}
          </li>
        ))}
      </ul>
      <PageNav page={page} pages={last?.pagination_info.total_pages ?? 1} busy={load.state === 'loading'} label="결제 내역 페이지" onPage={setPage} />
    </section>
  );
}
