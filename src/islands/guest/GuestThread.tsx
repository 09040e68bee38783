import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { formatKoreaDateTime } from '../../domain/dates';
import { SENDER_LABEL } from '../../domain/trip-thread';
import Alert from '../common/Alert';

type Answer = Awaited<ReturnType<Awaited<ReturnType<(typeof client.butlers)['guest-thread'][':token']['$get']>>['json']>>;
type Data = Extract<Answer, { data: unknown }>['data'];

/**
 * /butler/guest?t=…: a company trip's passenger reads the trip and its messages with the driver
 * from the link in their 알림톡 (no login; read-only; nobody's number is shown).
 */
export default function GuestThread() {
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const token = new URLSearchParams(location.search).get('t') ?? '';
    const ctrl = new AbortController();
    void call((o) => client.butlers['guest-thread'][':token'].$get({ param: { token } }, o), { signal: ctrl.signal }).then((res) => {
      if (ctrl.signal.aborted) return;
      if (res.ok) setData(res.data);
      else setError(res.error.message);
    });
    return () => ctrl.abort();
  }, []);
  if (error) return <Alert>{error}</Alert>;
  if (!data) return <p className="text-sm text-muted" role="status">불러오는 중…</p>;
  const { trip, thread } = data;
  return (
    <div className="space-y-6">
      <section aria-labelledby="guest-trip" className="rounded border border-line bg-white p-5 text-sm">
        <h2 id="guest-trip" className="text-lg font-bold">{trip.guest_name ? `${trip.guest_name}님의 의전 일정` : '의전 일정'}</h2>
        <p className="mt-2">{formatKoreaDateTime(new Date(trip.start_at))}{trip.end_at ? ` ~ ${formatKoreaDateTime(new Date(trip.end_at))}` : ''}</p>
        <p className="mt-1">{trip.start_location} → {trip.end_location}</p>
        <p className="mt-1 text-muted">담당 기사 {trip.driver_name ?? '배정 전'}</p>
      </section>
      <section aria-labelledby="guest-thread" className="space-y-3">
        <h2 id="guest-thread" className="text-lg font-bold">기사님과 주고받은 메시지</h2>
        <p className="text-xs text-muted">예약하신 분과 기사님의 메시지를 읽을 수 있습니다. 답장은 예약하신 분께 부탁드립니다.</p>
        {!thread.open && thread.closed_message && <p className="text-sm text-muted">{thread.closed_message}</p>}
        {!thread.messages.length && <p className="text-sm text-muted">아직 메시지가 없습니다.</p>}
        <ol className="space-y-2">
          {thread.messages.map((m) => (
            <li key={m.id} className="rounded border border-line bg-white p-3 text-sm" data-testid="guest-message">
              <p className="text-xs text-muted">{SENDER_LABEL[m.sender]} · {formatKoreaDateTime(new Date(m.created_at))}</p>
              <p className="mt-1 whitespace-pre-wrap">{m.body}</p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
