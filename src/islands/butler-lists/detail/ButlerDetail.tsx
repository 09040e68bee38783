import { useEffect, useRef, useState } from 'react';
import { CHAT_CHANNEL_URL } from '../../my-orders/links';
import CancelButton from './CancelButton';
import EditForm from './EditForm';
import LiveTrip from './LiveTrip';
import OvertimePayment from './OvertimePayment';
import TripRatingSection from './TripRatingSection';
import TripMessages from './TripMessages';
import { CarSection, DispatchInfoSection, ExtraSection, PaymentSection, RequestInfoSection, StageSection, TripSection, WaypointSection } from './Sections';
import { useButlerItem, type DetailKind } from './useButlerItem';

type Notice = { ok: boolean; lines: string[] };

const back = <a href="/my" className="inline-flex min-h-11 items-center border border-ink px-6 py-3 font-semibold">마이페이지로 돌아가기</a>;

/** Said under a refusal after the page fetched the request again. */
const REFETCHED = '예약 상태가 바뀌어 최신 정보를 다시 불러왔습니다.';

function Message({ role, text }: { role: 'alert' | 'status'; text: string }) {
  return (
    <div className="space-y-6">
      <p role={role} className={role === 'alert' ? 'text-red-700' : ''}>{text}</p>
      {back}
    </div>
  );
}

/**
 * /butler/request/{id} and /butler/subscribe/{id} (the latter shows its subscription's request):
 * view and edit modes, 요청 취소, back to /my. Confirmed requests are shown without edit (the
 * page says whom to ask) but keep 요청 취소 by the refund rule until the driver sets out.
 * A refusal (409, or 404 once cancelled) fetches the request again, so the page shows its current
 * state and only the actions that still work.
 */
export default function ButlerDetail({ kind }: { kind: DetailKind }) {
  const { state, reload } = useButlerItem(kind);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const askedEdit = useRef(false);

  // 수정하기 in the list links here with ?edit=1: open the form once the request is known.
  useEffect(() => {
    if (askedEdit.current || state.status !== 'ok') return;
    askedEdit.current = true;
    if (new URLSearchParams(location.search).get('edit') === '1' && state.request.status === 'PENDING') setEditing(true);
  }, [state]);

  if (state.status === 'loading') return <p role="status" className="text-muted">로딩 중...</p>;
  if (state.status === 'no-id') return <Message role="alert" text="요청 ID가 없습니다." />;
  if (state.status === 'not-found') return <Message role="alert" text="요청을 찾을 수 없습니다." />;
  if (state.status === 'error') return <Message role="alert" text={state.message} />;
  if (cancelled) return <Message role="status" text="요청이 취소되었습니다." />;

  const r = state.request;
  const pending = r.status === 'PENDING';
  const cancellable = (pending || r.status === 'CONFIRMED') && !r.trip_record.departed_at;
  async function saved() {
    await reload();
    setEditing(false);
    setNotice({ ok: true, lines: ['요청이 성공적으로 수정되었습니다.'] });
  }
  /** After a 409 or 404: the current state; an edit that can still be saved (e.g. other days) stays open with its message. */
  async function refused(lines: string[], fromEdit: boolean) {
    const next = await reload();
    if (fromEdit && next.status === 'ok' && next.request.status === 'PENDING') return;
    setEditing(false);
    setNotice({ ok: false, lines: [...lines, REFETCHED] });
  }

  return (
    <div className="space-y-6">
      {notice && (
        <div role={notice.ok ? 'status' : 'alert'} className={`border p-4 text-sm ${notice.ok ? 'border-green-700 text-green-800' : 'border-red-700 text-red-700'}`}>
          {[...new Set(notice.lines)].map((line) => <p key={line}>{line}</p>)}
        </div>
      )}
      <OvertimePayment r={r} onSettled={reload} />
      <StageSection r={r} />
      <LiveTrip r={r} reload={reload} />
      <TripMessages r={r} />
      <TripRatingSection r={r} />
      {r.dispatch && <DispatchInfoSection dispatch={r.dispatch} />}
      <CarSection car={r.car} />
      {editing && pending ? (
        <EditForm request={r} onSaved={saved} onCancel={() => setEditing(false)} onRefused={(lines) => refused(lines, true)} />
      ) : (
        <>
          <TripSection r={r} />
          <WaypointSection r={r} />
        </>
      )}
      <ExtraSection r={r} />
      <RequestInfoSection r={r} />
      <PaymentSection r={r} />
      <div className="flex flex-wrap items-center gap-3">
        {pending && !editing && (
          <button type="button" onClick={() => { setNotice(null); setEditing(true); }} className="min-h-11 bg-ink px-6 py-3 font-semibold text-paper">수정하기</button>
        )}
        {cancellable && !editing && (
          <CancelButton
            requestId={r.id}
            onCancelled={() => setCancelled(true)}
            onFailed={(lines, status) => (status === 409 || status === 404 ? void refused(lines, false) : setNotice({ ok: false, lines }))}
          />
        )}
        {back}
      </div>
      {!pending && (
        <p className="text-sm text-muted">
          확정된 예약은 수정할 수 없습니다.{cancellable ? ' 취소는 위의 요청 취소에서 환불 규정에 따라 할 수 있습니다.' : ''} 변경이 필요하면{' '}
          <a href={CHAT_CHANNEL_URL} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center underline">고객센터 채팅</a>으로 문의해주세요.
        </p>
      )}
    </div>
  );
}
