import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { call, client } from '../../client/api';
import { formatKoreaDateTime } from '../../domain/dates';
import { POSITION_INTERVAL_MS } from '../../domain/driver-day';
import { SENDER_LABEL, TRIP_MESSAGE_MAX, type TripMessageSender } from '../../domain/trip-thread';
import Alert from '../common/Alert';

type Answer = Awaited<ReturnType<Awaited<ReturnType<(typeof client.butlers)['guest-thread'][':token']['$get']>>['json']>>;
type Data = Extract<Answer, { data: unknown }>['data'];

/** The guest's names for the thread's sides: the booker is the one who booked for them. */
const label = (sender: TripMessageSender) => (sender === 'customer' ? '예약하신 분' : SENDER_LABEL[sender]);

const tokenOfPage = () => new URLSearchParams(location.search).get('t') ?? '';

/**
 * /butler/guest?t=…: a company trip's passenger reads the trip and its messages with the driver
 * from the link in their 알림톡 (no login; nobody's number is shown) and, while the thread is open,
 * replies: the message goes to the booking's thread, where the driver and the booker read it. A
 * send that failed keeps its client id, so sending the same text again is one message.
 */
export default function GuestThread() {
  const [data, setData] = useState<Data | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const attempt = useRef<{ body: string; clientId: string } | null>(null);

  // Once the page has the thread, a failed poll keeps it (the next poll tries again).
  const loaded = useRef(false);
  const refresh = useCallback(async (signal?: AbortSignal) => {
    const res = await call((o) => client.butlers['guest-thread'][':token'].$get({ param: { token: tokenOfPage() } }, o), { signal });
    if (signal?.aborted) return;
    if (res.ok) {
      loaded.current = true;
      setData(res.data);
    } else if (!loaded.current || res.status === 404) setError(res.error.message);
  }, []);
  useEffect(() => {
    const ctrl = new AbortController();
    void refresh(ctrl.signal);
    return () => ctrl.abort();
  }, [refresh]);
  const open = data?.thread.open ?? false;
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => void refresh(), POSITION_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [open, refresh]);

  if (error) return <Alert>{error}</Alert>;
  if (!data) return <p className="text-sm text-muted" role="status">불러오는 중…</p>;
  const { trip, thread } = data;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const body = text.trim();
    if (!body) return setSendError('메시지를 입력해주세요.');
    if (attempt.current?.body !== body) attempt.current = { body, clientId: crypto.randomUUID() };
    setSending(true);
    setSendError(null);
    const { clientId } = attempt.current;
    const res = await call((o) => client.butlers['guest-thread'][':token'].messages.$post({ param: { token: tokenOfPage() }, json: { body, client_id: clientId } }, o));
    setSending(false);
    if (!res.ok) {
      setSendError(res.error.errors?.body?.[0] ?? res.error.message);
      if (res.status === 409) void refresh();
      return;
    }
    attempt.current = null;
    setText('');
    await refresh();
  }

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
        <p className="text-xs text-muted">예약하신 분과 기사님이 주고받는 메시지입니다. 여기에서 바로 답장하시면 기사님과 예약하신 분이 함께 봅니다. 전화번호는 서로에게 보이지 않습니다.</p>
        {!thread.messages.length && <p className="text-sm text-muted">아직 메시지가 없습니다.</p>}
        <ol className="space-y-2" aria-live="polite">
          {thread.messages.map((m) => (
            <li key={m.id} className={`rounded border p-3 text-sm ${m.mine ? 'ml-8 border-ink bg-ink text-paper' : 'mr-8 border-line bg-white'}`} data-testid="guest-message" data-sender={m.sender}>
              <p className={`text-xs ${m.mine ? 'text-paper/80' : 'text-muted'}`}>{m.mine ? '나' : label(m.sender)} · {formatKoreaDateTime(new Date(m.created_at))}</p>
              <p className="mt-1 whitespace-pre-wrap break-words">{m.body}</p>
            </li>
          ))}
        </ol>
        {thread.open ? (
          <form onSubmit={(e) => void submit(e)} className="space-y-2" noValidate>
            <label htmlFor="guest-reply" className="block text-sm font-medium">기사님과 예약하신 분께 보낼 메시지</label>
            <textarea
              id="guest-reply"
              value={text}
              onChange={(e) => setText(e.target.value)}
              maxLength={TRIP_MESSAGE_MAX}
              rows={3}
              className="block min-h-11 w-full border border-line p-2 text-base"
              aria-describedby={sendError ? 'guest-reply-error' : undefined}
            />
            {sendError && <p id="guest-reply-error" role="alert" className="text-sm text-red-700">{sendError}</p>}
            <button type="submit" disabled={sending} className="min-h-11 w-full bg-ink px-6 py-2 font-semibold text-paper disabled:opacity-60 md:w-auto">
              {sending ? '보내는 중...' : '보내기'}
            </button>
          </form>
        ) : (
          thread.closed_message && <p className="text-sm text-muted" role="status">{thread.closed_message}</p>
        )}
      </section>
    </div>
  );
}
