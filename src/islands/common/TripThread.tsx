import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { ApiResult } from '../../client/api';
import { formatKoreaDateTime } from '../../domain/dates';
import { POSITION_INTERVAL_MS } from '../../domain/driver-day';
import { SENDER_LABEL, TRIP_MESSAGE_MAX, type TripMessageAnswer, type TripThreadAnswer, type TripThreadView } from '../../domain/trip-thread';

interface Props {
  /** Heading id and test id prefix (one thread per trip on a page). */
  id: string;
  title: string;
  /** Who the reader writes to, for the textarea's label ("기사님에게", "고객에게"). */
  to: string;
  load: () => Promise<ApiResult<TripThreadAnswer>>;
  send: (body: string, clientId: string) => Promise<ApiResult<TripMessageAnswer>>;
  /** Changes when the trip does (a reload of the booking): the thread is asked again. */
  version?: string;
}

const newClientId = () => crypto.randomUUID();

/**
 * 기사님과 메시지 / 고객과 메시지 (issue 50): the trip's thread kept with the booking, without
 * either party's number. Asked again every POSITION_INTERVAL_MS while the thread is open (the
 * trip page's poll); shown while open, and afterwards only when it holds messages. A send that
 * failed keeps its client id, so sending the same text again is one message.
 */
export default function TripThread({ id, title, to, load, send, version }: Props) {
  const [thread, setThread] = useState<TripThreadView | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const attempt = useRef<{ body: string; clientId: string } | null>(null);

  const refresh = useCallback(async () => {
    const res = await load();
    if (res.ok) setThread(res.data.thread);
    return res;
  }, [load]);

  useEffect(() => {
    void refresh();
  }, [refresh, version]);
  const open = thread?.open ?? false;
  useEffect(() => {
    if (!open) return;
    const timer = setInterval(() => void refresh(), POSITION_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [open, refresh]);

  if (!thread || (!thread.open && thread.messages.length === 0)) return null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const body = text.trim();
    if (!body) return setError('메시지를 입력해주세요.');
    if (attempt.current?.body !== body) attempt.current = { body, clientId: newClientId() };
    setSending(true);
    setError(null);
    const res = await send(body, attempt.current.clientId);
    setSending(false);
    if (!res.ok) {
      setError(res.error.errors?.body?.[0] ?? res.error.message);
      if (res.status === 409) void refresh();
      return;
    }
    attempt.current = null;
    setText('');
    await refresh();
  }

  return (
    <section aria-labelledby={id} className="border border-line bg-white p-4" data-testid={`${id}-thread`}>
      <h2 id={id} className="mb-2 font-semibold">{title}</h2>
      <p className="mb-3 text-xs text-muted">전화번호 없이 이 예약 안에서 메시지를 주고받습니다. 운행 종료 2시간 후까지 보낼 수 있습니다.</p>
      {thread.messages.length ? (
        <ol className="mb-3 max-h-80 space-y-2 overflow-y-auto" aria-live="polite" data-testid={`${id}-messages`}>
          {thread.messages.map((m) => (
            <li key={m.id} className={`max-w-[85%] border px-3 py-2 text-sm ${m.mine ? 'ml-auto border-ink bg-ink text-paper' : 'border-line bg-paper'}`} data-testid="trip-message" data-sender={m.sender}>
              <p className="whitespace-pre-line break-words">{m.body}</p>
              <p className={`mt-1 text-xs ${m.mine ? 'text-paper/80' : 'text-muted'}`}>{m.mine ? '나' : SENDER_LABEL[m.sender]} · {formatKoreaDateTime(m.created_at)}</p>
            </li>
          ))}
        </ol>
      ) : (
        <p className="mb-3 text-sm text-muted">아직 메시지가 없습니다.</p>
      )}
      {thread.open ? (
        <form onSubmit={(e) => void submit(e)} className="space-y-2" noValidate>
          <label htmlFor={`${id}-body`} className="block text-sm font-medium">{to} 보낼 메시지</label>
          <textarea
            id={`${id}-body`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={TRIP_MESSAGE_MAX}
            rows={3}
            className="block min-h-11 w-full border border-line p-2 text-base"
            aria-describedby={error ? `${id}-error` : undefined}
          />
          {error && <p id={`${id}-error`} role="alert" className="text-sm text-red-700">{error}</p>}
          <button type="submit" disabled={sending} className="min-h-11 min-w-11 bg-ink px-6 py-2 font-semibold text-paper disabled:opacity-60">
            {sending ? '보내는 중...' : '보내기'}
          </button>
        </form>
      ) : (
        <p className="text-sm text-muted" role="status">{thread.closed_message}</p>
      )}
    </section>
  );
}
