import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { carDisplayName } from '../../domain/car';
import { cardLabel } from '../../domain/card-label';
import { formatWon, won } from '../../domain/money';
import { PAYMENT_STATUS_LABEL } from '../../domain/payments';
import { requestCancelQuestion, requestStateText } from '../../domain/orders';
import { isLoggedIn } from '../../stores/session';
import RequestEditForm from './RequestEditForm';
import type { SubscriptionRequest } from '../../domain/subscriptions';
import { optionLines } from '../../domain/subscription-lines';
import Alert from '../common/Alert';
import ContractDownload from '../common/ContractDownload';
import { hasContract } from '../../domain/contract';

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'missing' } | { kind: 'cancelled' } | { kind: 'ok'; request: SubscriptionRequest };

/** /subscribe/request/{id}: the request found in the user's list, with edit and cancel. */
export default function RequestDetail() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);

  useEffect(() => {
    const id = Number(location.pathname.match(/^\/subscribe\/request\/(\d+)/)?.[1]);
    if (!isLoggedIn()) return setState({ kind: 'error', message: '로그인이 필요합니다.' });
    void call((o) => client.subscriptions.requests.$get({}, o)).then((res) => {
      if (!res.ok) return setState({ kind: 'error', message: res.status === 401 ? '로그인이 필요합니다.' : '요청 정보를 불러오는데 실패했습니다.' });
      const request = res.data.subscription_requests.find((r) => r.id === id);
      setState(request ? { kind: 'ok', request } : { kind: 'missing' });
    });
  }, []);

  async function cancel(r: SubscriptionRequest) {
    if (busy || !confirm(requestCancelQuestion(r))) return;
    setBusy(true);
    const res = await call((o) => client.subscriptions.requests[':id'].$delete({ param: { id: String(r.id) } }, o));
    setBusy(false);
    if (res.ok) setState({ kind: 'cancelled' });
    else setCancelError(`요청 취소에 실패했습니다. ${res.error.message}`);
  }

  const toList = <a href="/my/requests" className="mt-6 inline-block border border-ink px-6 py-3 font-semibold">목록으로</a>;
  if (state.kind === 'loading') return <p className="text-muted">로딩 중...</p>;
  if (state.kind === 'error') return <div><Alert tone="page">{state.message}</Alert>{toList}</div>;
  if (state.kind === 'missing') return <div><p role="alert">요청 정보를 찾을 수 없습니다.</p>{toList}</div>;
  if (state.kind === 'cancelled') return <div><p role="status">요청이 취소되었습니다.</p>{toList}</div>;

  const r = state.request;
  const rows: [string, string][] = [
    ['차량', carDisplayName(r.car)],
    ['신청 번호', `#${r.id}`],
    ['상태', requestStateText(r)],
    ['기간', `${r.month}개월`],
    ['쿠폰', r.coupon ? `${r.coupon.coupon.name} (${r.coupon.coupon.code})` : '없음'],
    ['희망 시작일', r.requested_start ?? '-'],
    ['시작일', r.start_date ?? '확정 후 안내'],
    ['종료일', r.end_date ?? '확정 후 안내'],
    ['포인트', `${formatWon(r.point_used)} P`],
    // Months 2…n are charged at the monthly fee; only the first month carries the coupon and points.
    ['월 구독료', won(r.fee)],
    ['첫 결제 금액', won(r.final_fee)],
    ['첫 결제', r.payment ? `${won(r.payment.amount)} · ${PAYMENT_STATUS_LABEL[r.payment.status]}` : '결제 금액 없음'],
    // The card as customers know it (issuer, last four digits); never the billing key.
    ['결제 카드', cardLabel(r.card)],
    // The options as ordered, with the car's prices then (the contract's lines).
    ...(r.options ? optionLines(r.options.options, r.options.prices, { month: r.month, startDate: r.start_date ?? r.requested_start }).map((l): [string, string] => [l.label, l.value]) : []),
  ];
  return (
    <div className="space-y-10">
      <dl className="grid grid-cols-[7rem_1fr] gap-y-3 border border-line bg-white p-6 text-sm" data-testid="request-fields">
        {rows.map(([k, v]) => [<dt key={k} className="text-muted">{k}</dt>, <dd key={`${k}-v`} className="min-w-0 break-words font-semibold">{v}</dd>])}
      </dl>
      {hasContract(r) && (
        <section aria-label="계약서" className="flex flex-wrap items-center gap-3 text-sm">
          <ContractDownload requestId={r.id} showHash />
          <span className="text-muted">신청 내용과 요금, 약관의 취소·해지 조항, 동의 일시를 담은 계약서입니다. 내려받은 파일의 SHA-256 값이 아래 값과 같으면 원본입니다.</span>
        </section>
      )}
      {r.payment?.receipt_url && (
        <p className="text-sm"><a href={r.payment.receipt_url} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center underline underline-offset-4">첫 결제 영수증 보기</a> · <a href="/my/payments" className="inline-flex min-h-11 min-w-11 items-center justify-center underline underline-offset-4">결제 내역</a></p>
      )}
      {r.status === 'PENDING' ? (
        <>
          <section aria-label="신청 수정"><h2 className="mb-4 font-semibold">신청 수정</h2><RequestEditForm request={r} onSaved={(request) => setState({ kind: 'ok', request })} /></section>
          <div className="flex flex-wrap items-center gap-3">
            <button type="button" onClick={() => void cancel(r)} disabled={busy} className="border border-red-700 px-6 py-3 font-semibold text-red-700 disabled:opacity-50">
              {busy ? '취소 중...' : '신청 취소'}
            </button>
            <a href="/my/requests" className="inline-flex min-h-11 items-center px-2 text-sm underline">목록으로</a>
          </div>
          {cancelError && <Alert tone="page">{cancelError}</Alert>}
        </>
      ) : r.status === 'CANCELLED' ? (
        <p className="text-sm text-muted">{r.payment?.status === 'FAILED' ? '카드 결제가 승인되지 않아 접수되지 않은 신청입니다. 결제된 금액은 없습니다.' : '취소된 신청입니다.'} <a href="/my/requests" className="inline-flex min-h-11 items-center underline">목록으로</a></p>
      ) : (
        <p className="text-sm text-muted">확정된 신청은 고객센터를 통해 변경할 수 있습니다. <a href="/my/requests" className="inline-flex min-h-11 items-center underline">목록으로</a></p>
      )}
    </div>
  );
}
