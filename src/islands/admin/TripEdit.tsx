import { useState, type FormEvent } from 'react';
import { koreaTime } from '../../domain/dates';
import type { DispatchTrip } from '../../domain/dispatch';
import { MAX_WAYPOINTS } from '../../domain/butler';
import { priceChangeLine, waitingChangeLine, type TripChangePreview } from '../../domain/trip-change';
import { call, client } from '../../client/api';
import { atKoreanDay } from './dispatch-board';

interface Stop {
  address: string;
  /** HH:mm on `day`'s Korean day, '' for none. */
  time: string;
  day: string;
}

/**
 * 운행 변경 on a booked trip: the flight number, the waypoints (with their times) and the end, with a
 * reason. 변경 내용 확인 asks the server what it changes and costs (a longer or shorter day is
 * re-priced: the difference is charged or refunded on the card); 변경 저장 sends the price shown, so
 * what moves is what staff saw. The driver and the customer are told by the server, once.
 */
export default function TripEdit({ trip: t, onSaved }: { trip: DispatchTrip; onSaved: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [flight, setFlight] = useState(t.flight_number ?? '');
  const [end, setEnd] = useState(t.end_at ? koreaTime(t.end_at) : '');
  const [stops, setStops] = useState<Stop[]>(() => t.waypoints.map((w) => ({ address: w.address, time: w.scheduled_time ? koreaTime(w.scheduled_time) : '', day: w.scheduled_time ?? t.start_at })));
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<TripChangePreview | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const edit = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPreview(null);
  };
  const setStop = (i: number, patch: Partial<Stop>) => edit(setStops)(stops.map((s, n) => (n === i ? { ...s, ...patch } : s)));

  const body = () => ({
    flight_number: flight.trim() || null,
    end_at: end ? atKoreanDay(t.end_at ?? t.start_at, end) : null,
    way_points: stops.filter((s) => s.address.trim()).map((s) => ({ address: s.address.trim(), scheduled_time: s.time ? atKoreanDay(s.day, s.time) : null })),
    reason,
  });
  const param = { id: String(t.id) };

  async function check(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    const r = await call((o) => client.admin['butler-requests'][':id'].trip.preview.$post({ param, json: body() }, o));
    setBusy(false);
    if (!r.ok) return setError(Object.values(r.error.errors ?? {})[0]?.[0] ?? r.error.message);
    if (!r.data.changes.length) return setError('바뀐 내용이 없습니다.');
    setPreview(r.data);
  }

  async function save() {
    if (!preview) return;
    setBusy(true);
    setError('');
    const r = await call((o) => client.admin['butler-requests'][':id'].trip.$patch({ param, json: { ...body(), ...(preview.price ? { confirm_price: preview.price.after } : {}) } }, o));
    setBusy(false);
    if (!r.ok) {
      setPreview(null);
      return setError(r.error.message);
    }
    setOpen(false);
    onSaved(r.data.changed ? `#${t.id} 운행을 변경하고 기사와 고객에게 알렸습니다.` : `#${t.id} 바뀐 내용이 없습니다.`);
  }

  if (!open) {
    return (
      <button type="button" aria-label={`#${t.id} 운행 변경`} className="min-h-11 border border-line px-3 py-1.5 font-semibold" onClick={() => setOpen(true)}>
        운행 변경
      </button>
    );
  }
  const input = 'mt-1 block min-h-11 w-full border border-line px-2';
  return (
    <form onSubmit={(e) => void check(e)} aria-label={`#${t.id} 운행 변경`} className="grid w-full gap-2 sm:grid-cols-2">
      <label className="text-sm">
        항공편
        <input className={input} value={flight} maxLength={20} placeholder="예: KE123" onChange={(e) => edit(setFlight)(e.target.value)} />
      </label>
      <label className="text-sm">
        종료 시각
        <input type="time" className={input} value={end} onChange={(e) => edit(setEnd)(e.target.value)} />
      </label>
      <fieldset className="grid gap-2 sm:col-span-2">
        <legend className="text-sm">경유지</legend>
        {stops.map((s, i) => (
          <div key={i} className="flex flex-wrap items-end gap-2">
            <label className="min-w-0 flex-1 text-sm">
              경유지 {i + 1} 주소
              <input className={input} value={s.address} maxLength={200} onChange={(e) => setStop(i, { address: e.target.value })} />
            </label>
            <label className="text-sm">
              경유지 {i + 1} 도착
              <input type="time" className={input} value={s.time} onChange={(e) => setStop(i, { time: e.target.value })} />
            </label>
            <button type="button" className="min-h-11 px-2 text-muted underline" onClick={() => edit(setStops)(stops.filter((_, n) => n !== i))}>경유지 {i + 1} 삭제</button>
          </div>
        ))}
        {stops.length < MAX_WAYPOINTS && (
          <button type="button" className="min-h-11 justify-self-start border border-line px-3" onClick={() => edit(setStops)([...stops, { address: '', time: '', day: t.start_at }])}>경유지 추가</button>
        )}
      </fieldset>
      <label className="text-sm sm:col-span-2">
        변경 사유
        <input className={input} required maxLength={200} value={reason} onChange={(e) => edit(setReason)(e.target.value)} />
      </label>
      {preview && (
        <div role="status" aria-label="변경 내용" className="border border-ink p-2 text-sm sm:col-span-2" data-testid="trip-change-preview">
          <ul>{preview.changes.map((c) => <li key={c.field}>{c.label}: {c.before} → {c.after}</li>)}</ul>
          <p className="font-semibold">{priceChangeLine(preview.price) || '요금 변동 없음'}</p>
          {preview.waiting && <p>{waitingChangeLine(preview.waiting)}</p>}
        </div>
      )}
      {error && <p role="alert" className="text-sm text-danger sm:col-span-2">{error}</p>}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        {preview ? (
          <button type="button" disabled={busy} className="btn-primary min-h-11 px-3 py-1.5" onClick={() => void save()}>{busy ? '저장 중…' : '변경 저장'}</button>
        ) : (
          <button type="submit" disabled={busy} className="btn-primary min-h-11 px-3 py-1.5">{busy ? '확인 중…' : '변경 내용 확인'}</button>
        )}
        <button type="button" className="min-h-11 px-3 py-1.5 text-muted underline" onClick={() => setOpen(false)}>닫기</button>
      </div>
    </form>
  );
}
