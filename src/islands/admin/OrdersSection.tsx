import { customerCarText } from '../../domain/butler-own-car';
import ButlerCancelDialog from './ButlerCancelDialog';
import LicenceStatus from '../common/LicenceStatus';
import { useState, type FormEvent } from 'react';
import PageNav from './PageNav';
import { PageLoadState, usePageLoad } from './use-page-load';
import { addDays, todayInKorea } from '../../domain/dates';
import type { DeskPage, DeskRequest } from '../../domain/console';
import { won } from '../../domain/money';
import { optionLines } from '../../domain/subscription-lines';
import { DESK_STATUS_LABEL, ORDER_STATUSES } from '../../domain/orders';
import { BILLING_STATUS_LABEL, PAYMENT_STATUS_LABEL, type ButlerTripRecordView, type PaymentView } from '../../domain/payments';
import { TripRecordSchema, type TripRecordInput } from '../../domain/schemas/payments';
import { call, client, type ApiResult } from '../../client/api';
import { formatDateTime } from './admin-api';
import ContractDownload from '../common/ContractDownload';
import TripBrief from './TripBrief';
import MileageRecord from './MileageRecord';
import SettlementPanel from './SettlementPanel';

type Kind = 'subscription' | 'butler';
const HOUR = 3_600_000;
/** An instant as a datetime-local value in Korean time (YYYY-MM-DDTHH:mm). */
const koreanLocal = (ms: number) => new Date(ms + 9 * HOUR).toISOString().slice(0, 16);

/** What an overtime charge came to, in Korean; a declined one says where to retry it. */
function overtimeText(amount: number, payment: PaymentView | null): string {
  if (!payment) return '초과 이용 요금은 없습니다.';
  if (payment.status === 'FAILED') return `초과 이용 요금 ${won(amount)} 결제 실패: ${payment.failure_reason ?? '카드 결제에 실패했습니다.'} (결제 탭에서 다시 시도할 수 있습니다)`;
  return `초과 이용 요금 ${won(amount)} ${PAYMENT_STATUS_LABEL[payment.status]} (${payment.id})`;
}

/**
 * A recorded trip: the actual times and the overtime charge's state (its latest attempt), or the
 * answer of the record just made (`note`). A trip with an overtime charge cannot be recorded again
 * (the API answers 409), so the form is not shown: a declined charge is retried from the payments tab.
 */
function RecordedTrip({ request, record, note }: { request: DeskRequest; record: ButlerTripRecordView; note: string | null }) {
  const payment = record.overtime_payment;
  return (
    <div role="group" aria-label={`#${request.id} 운행 기록`} className="w-full text-sm">
      <p>
        <span className="font-semibold">운행 기록</span> 실제 출발 {formatDateTime(record.actual_start_at)} · 실제 종료 {formatDateTime(record.actual_end_at)}
      </p>
      <p role="status" className={payment?.status === 'FAILED' ? 'text-red-700' : 'text-muted'}>
        {note ?? overtimeText(payment?.amount ?? 0, payment)}
      </p>
    </div>
  );
}

/**
 * 운행 기록 of a confirmed butler booking, in two steps as the trip happens (Korean time; the server
 * refuses times that have not come yet on the business clock):
 * - 출발 기록: the actual start alone (prefilled with the booked one) → 운행 중, nothing charged;
 * - 종료·정산: start and end (no end booked = 8 hours) → the overtime is previewed by the server
 *   (`preview`), shown to confirm, and only then recorded and charged.
 * Once the end is recorded (now, or before a reload: the desk list carries the record), the times
 * and the overtime charged (none, its status, or the reason it was declined) replace the form.
 */
function TripRecord({ request }: { request: DeskRequest }) {
  const [record, setRecord] = useState<ButlerTripRecordView | null>(() =>
    request.actual_start_at && request.actual_end_at ? { actual_start_at: request.actual_start_at, actual_end_at: request.actual_end_at, overtime_payment: request.overtime_payment ?? null } : null,
  );
  const [startedAt, setStartedAt] = useState<string | null>(request.actual_start_at ?? null);
  const bookedStart = Date.parse(request.actual_start_at ?? request.start_at ?? '') || Date.now();
  const [start, setStart] = useState(() => koreanLocal(bookedStart));
  const [end, setEnd] = useState(() => koreanLocal(request.end_at ? Date.parse(request.end_at) : bookedStart + 8 * HOUR));
  const [result, setResult] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = (body: TripRecordInput) => call((o) => client.admin['butler-requests'][':id'].trip.$post({ param: { id: String(request.id) }, json: body }, o));
  const submit = async (finish: boolean) => {
    const parsed = TripRecordSchema.safeParse({ actual_start_at: start && `${start}:00+09:00`, ...(finish ? { actual_end_at: end && `${end}:00+09:00` } : {}) });
    if (!parsed.success) return setResult(parsed.error.issues[0]?.message ?? '입력을 확인해주세요.');
    setBusy(true);
    try {
      if (!finish) {
        const res = await send(parsed.data);
        if (!res.ok) return setResult(res.error.message);
        setStartedAt(parsed.data.actual_start_at);
        return setResult(`출발을 기록했습니다 (${formatDateTime(parsed.data.actual_start_at)}, 운행 중). 운행이 끝나면 종료를 기록해주세요.`);
      }
      // The amount first, from the server's rule and clock; nothing is charged until staff confirm it.
      const preview = await send({ ...parsed.data, preview: true });
      if (!preview.ok) return setResult(preview.error.message);
      const amount = preview.data.overtime_amount;
      const question = amount > 0 ? `초과 이용 요금 ${won(amount)}을 고객 카드로 결제합니다. 운행 기록을 저장할까요?` : '초과 이용 요금은 없습니다. 운행 기록을 저장할까요?';
      if (!window.confirm(question)) return setResult('저장하지 않았습니다. 결제된 금액은 없습니다.');
      const res = await send(parsed.data);
      if (!res.ok) return setResult(res.error.message);
      const { overtime_amount: charged, payment } = res.data;
      setResult(payment ? overtimeText(charged, payment) : '운행 기록을 저장했습니다. 초과 이용 요금은 없습니다.');
      setRecord({ actual_start_at: parsed.data.actual_start_at, actual_end_at: parsed.data.actual_end_at ?? null, overtime_payment: payment });
    } finally {
      setBusy(false);
    }
  };

  if (record) return <RecordedTrip request={request} record={record} note={result} />;
  return (
    <form onSubmit={(e: FormEvent<HTMLFormElement>) => { e.preventDefault(); void submit(true); }} className="flex w-full flex-wrap items-end gap-2" aria-label={`#${request.id} 운행 기록`}>
      {startedAt && <p className="w-full text-sm text-muted" data-testid="trip-started">운행 중 · 실제 출발 {formatDateTime(startedAt)}</p>}
      <label className="text-sm">
        <span className="mr-2 font-semibold">실제 출발</span>
        <input type="datetime-local" className="field w-auto py-2" value={start} onChange={(e) => setStart(e.target.value)} />
      </label>
      <button type="button" disabled={busy} onClick={() => void submit(false)} className="min-h-11 border border-line px-3 py-1.5 font-semibold disabled:opacity-50">
        출발 기록
      </button>
      <label className="text-sm">
        <span className="mr-2 font-semibold">실제 종료</span>
        <input type="datetime-local" className="field w-auto py-2" value={end} onChange={(e) => setEnd(e.target.value)} />
      </label>
      <button type="submit" disabled={busy} className="min-h-11 border border-ink px-3 py-1.5 font-semibold disabled:opacity-50">
        {busy ? '확인 중…' : '종료 기록·초과 요금 정산'}
      </button>
      {result && <p role="status" className="w-full text-sm text-muted">{result}</p>}
    </form>
  );
}

/** The order desk: subscription and butler requests by status, with 확정 and 취소. */
export default function OrdersSection() {
  const [kind, setKind] = useState<Kind>('subscription');
  const [status, setStatus] = useState<(typeof ORDER_STATUSES)[number]>('PENDING');
  const [message, setMessage] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<number | null>(null);
  const [start, setStart] = useState(() => addDays(todayInKorea(new Date()), 1));
  // Newest first, 20 a page: an older subscription (to settle, say) is pages back.
  const [page, setPage] = useState(1);
  // Either kind's page, read as the desk's common row (DeskRequest: the fields of both, optional).
  const { load, last, reload } = usePageLoad((): Promise<ApiResult<DeskPage<DeskRequest>>> => {
    const query = { status, page: String(page) };
    return kind === 'subscription' ? call((o) => client.admin['subscription-requests'].$get({ query }, o)) : call((o) => client.admin['butler-requests'].$get({ query }, o));
  }, [kind, status, page]);
  const rows: DeskRequest[] | null = load.state === 'ready' ? load.data.requests : null;

  // Issue 49: over another paid request of the same days the server asks for an explicit choice; the loser is refunded, cancelled and told.
  const confirmSubscription = async (r: DeskRequest, startDate: string) => {
    const param = { id: String(r.id) };
    const post = (cancel_conflicting: boolean) => call((o) => client.admin['subscription-requests'][':id'].confirm.$post({ param, json: { start_date: startDate, ...(cancel_conflicting ? { cancel_conflicting } : {}) } }, o));
    const pending = (r.conflicts ?? []).filter((c) => c.status === 'PENDING');
    if (pending.length && !window.confirm(`${r.conflict_warning ?? ''}\n\n확정하면 겹치는 신청(${pending.map((c) => `#${c.request_id}`).join(', ')})의 결제 금액은 전액 환불되고 신청은 취소되며, 고객에게 안내 메시지가 발송됩니다. #${r.id} 신청을 확정할까요?`)) {
      return { ok: false as const, error: { message: '확정하지 않았습니다.' } };
    }
    return post(pending.length > 0);
  };

  const act = async (r: DeskRequest, action: 'confirm' | 'cancel') => {
    // A butler booking's cancel states the refund rule and offers the operator's full refund (its own dialog).
    if (kind === 'butler' && action === 'cancel') return setCancelling(r.id);
    if (action === 'cancel' && !window.confirm(`#${r.id} 요청을 취소할까요? 결제한 금액은 전액 환불되고, 사용한 쿠폰과 포인트도 돌려드립니다.`)) return;
    // A subscription starts on the day its customer asked for (the car is held for it); older requests take the date above.
    const param = { id: String(r.id) };
    const subscription = client.admin['subscription-requests'][':id'];
    const butler = client.admin['butler-requests'][':id'];
    const res =
      kind === 'subscription'
        ? action === 'confirm'
          ? await confirmSubscription(r, r.requested_start || start)
          : await call((o) => subscription.cancel.$post({ param }, o))
        : await call((o) => butler.confirm.$post({ param }, o));
    setMessage(res.ok ? `#${r.id} ${action === 'confirm' ? '확정' : '취소'}했습니다.` : res.error.message);
    await reload();
  };

  return (
    <section aria-label="주문" className="space-y-4">
      {cancelling !== null && (
        <ButlerCancelDialog
          requestId={cancelling}
          onClose={() => setCancelling(null)}
          onDone={(text) => {
            setCancelling(null);
            setMessage(text);
            void reload();
          }}
        />
      )}
      <div className="flex flex-wrap items-end gap-2">
        <div role="tablist" aria-label="주문 종류" className="flex">
          {(['subscription', 'butler'] as const).map((k) => (
            <button key={k} role="tab" aria-selected={kind === k} type="button" onClick={() => { setKind(k); setPage(1); }} className={`border border-ink px-4 py-2 text-sm font-semibold ${kind === k ? 'bg-ink text-paper' : ''}`}>
              {k === 'subscription' ? '구독 신청' : '의전 요청'}
            </button>
          ))}
        </div>
        <select aria-label="상태" className="field w-auto py-2" value={status} onChange={(e) => { setStatus(ORDER_STATUSES.find((s) => s === e.target.value) ?? 'PENDING'); setPage(1); }}>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>{DESK_STATUS_LABEL[s]}</option>
          ))}
          <option value="">전체</option>
        </select>
        {kind === 'subscription' && (
          <label className="text-sm">
            <span className="mr-2 font-semibold">확정 시 시작일 (희망일 없는 신청)</span>
            <input type="date" className="field w-auto py-2" value={start} onChange={(e) => setStart(e.target.value)} />
          </label>
        )}
      </div>
      {message && <p role="status" className="text-sm text-muted">{message}</p>}
      <PageLoadState load={load} onRetry={() => void reload()} />
      {rows && !rows.length && <p className="text-sm text-muted">요청이 없습니다.</p>}
      <ul className="divide-y divide-line border-y border-line">
        {rows?.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center gap-3 py-3 text-sm">
            <span className="w-12 shrink-0 text-muted">#{r.id}</span>
            <div className="min-w-0 flex-1">
              <p className="font-semibold">
                {r.customer_car ? <span data-testid="desk-customer-car">{customerCarText(r.customer_car)}</span> : <>{r.car.brand} {r.car.model} {r.car.sub_model ?? ''}</>} <span className="text-muted">· {DESK_STATUS_LABEL[r.status]}</span>
              </p>
              <p className="text-muted">
                {r.user.name ?? '-'} ({r.user.email ?? r.user.mobile ?? '-'}) ·{' '}
                {kind === 'subscription' ? `${r.month}개월 · 월 구독료 ${won(r.fee ?? 0)} · 첫 결제 금액 ${won(r.final_fee ?? 0)}${r.requested_start ? ` · 희망 시작일 ${r.requested_start}` : ''}${r.subscription ? ` · 구독 ${BILLING_STATUS_LABEL[r.subscription.billing_status]} · 종료일 ${r.subscription.end_date}${r.subscription.exit_date && r.subscription.billing_status === 'CANCELLED' ? ' (중도 해지)' : ''}` : ''}` : `${formatDateTime(r.start_at)} · ${r.start_location} · ${won(r.final_price ?? 0)}`} · 신청 {formatDateTime(r.created_at)}
              </p>
              {r.conflict_warning && (
                <p role="alert" className="mt-1 text-xs font-semibold text-danger" data-testid="desk-conflict">{r.conflict_warning}</p>
              )}
              {r.options && r.month !== undefined && (
                <p className="text-xs text-muted" data-testid="desk-options">
                  {optionLines(r.options.options, r.options.prices, { month: r.month, startDate: r.start_date ?? r.requested_start ?? null }).map((l) => `${l.label} ${l.value}`).join(' · ')}
                </p>
              )}
              {kind === 'subscription' && r.drivers && <LicenceStatus licences={r.drivers} />}
              {kind === 'subscription' && r.location_consent === false && <p className="text-xs text-muted" data-testid="desk-location-consent">차량 위치정보 이용 미동의: 위치 조회 없이 탁송·지원합니다.</p>}
              {kind === 'butler' && r.start_at && r.waypoints && (
                <TripBrief
                  trip={{ passenger_count: r.passenger_count ?? 1, purpose: r.purpose ?? null, memo: r.memo ?? null, driver_preference: r.driver_preference ?? null, flight_number: r.flight_number ?? null, waypoints: r.waypoints }}
                  startAt={r.start_at}
                  label={`#${r.id} 고객 요청`}
                />
              )}
            </div>
            {kind === 'butler' && r.legal?.eligibility && (
              <p className="w-full text-xs" data-testid="desk-eligibility">
                대여 자격: {r.legal.eligibility.label} · {r.legal.eligibility.proof.join(' · ')}
                {r.legal.refused && ` · 거절됨: ${r.legal.refused.reason}`}
              </p>
            )}
            {kind === 'butler' && r.legal?.partner && <p className="w-full text-xs text-muted">운송: {r.legal.partner.name} ({r.legal.partner.licence})</p>}
            {r.status === 'PENDING' && (
              <button type="button" className="btn-primary px-3 py-1.5" onClick={() => void act(r, 'confirm')}>
                확정
              </button>
            )}
            {r.status !== 'CANCELLED' && (kind === 'butler' || r.status === 'PENDING') && (
              <button type="button" aria-label={`#${r.id} 취소`} className="border border-red-700 px-3 py-1.5 font-semibold text-red-700" onClick={() => void act(r, 'cancel')}>
                취소
              </button>
            )}
            {kind === 'subscription' && <ContractDownload requestId={r.id} staff className="min-h-11 border border-ink px-3 py-1.5 font-semibold disabled:opacity-50" />}
            {kind === 'butler' && r.status === 'CONFIRMED' && <TripRecord request={r} />}
            {kind === 'subscription' && r.subscription && <MileageRecord subscriptionId={r.subscription.id} />}
            {kind === 'subscription' && r.subscription && <SettlementPanel subscriptionId={r.subscription.id} />}
          </li>
        ))}
      </ul>
      <PageNav page={page} pages={last?.pagination_info.total_pages ?? 1} busy={load.state === 'loading'} onPage={setPage} />
    </section>
  );
}
