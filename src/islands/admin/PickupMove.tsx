import { useState, type FormEvent } from 'react';
import { dotDate, koreaDate, koreaTime } from '../../domain/dates';
import type { DispatchTrip } from '../../domain/dispatch';
import { call, client } from '../../client/api';
import { withParticle } from '../../domain/korean';
import { movedPickup } from './dispatch-board';

/** HH:mm in Korean time of an instant. */
const hhmm = (iso: string) => koreaTime(iso);

/**
 * 픽업 변경 on a trip with a flight (a late arrival): +30분, +60분 or a chosen time, with a reason.
 * A +30분 past midnight names the next day (the server refuses a move into another day and says
 * so, instead of reading 00:20 as that same day's early morning, already past). The server moves the end and waypoints with it, checks the driver's board again
 * (409 when it clashes) and tells the driver and the customer (audited).
 */
export default function PickupMove({ trip: t, onSaved }: { trip: DispatchTrip; onSaved: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [time, setTime] = useState(() => hhmm(t.start_at));
  const [day, setDay] = useState(() => koreaDate(t.start_at));
  const [reason, setReason] = useState(() => (t.flight_number ? `${t.flight_number} 항공편 지연` : ''));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const later = (minutes: number) => {
    const moved = movedPickup(t.start_at, minutes);
    setDay(moved.day);
    setTime(moved.time);
  };
  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError('');
    const start_at = `${day}T${time}:00+09:00`;
    const r = await call((o) => client.admin['butler-requests'][':id'].pickup.$patch({ param: { id: String(t.id) }, json: { start_at, cause: t.flight_number ? 'flight_delay' : 'other', reason } }, o));
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setOpen(false);
    onSaved(r.data.changed ? `#${t.id} 픽업 시각을 ${withParticle(time, '으로/로')} 옮기고 기사와 고객에게 알렸습니다.` : `#${t.id} 바뀐 내용이 없습니다.`);
  }
  if (!open) {
    return (
      <button type="button" aria-label={`#${t.id} 픽업 변경`} className="min-h-11 border border-line px-3 py-1.5 font-semibold" onClick={() => setOpen(true)}>
        픽업 변경
      </button>
    );
  }
  return (
    <form onSubmit={(e) => void save(e)} aria-label={`#${t.id} 픽업 시각 변경`} className="grid w-full gap-2 sm:grid-cols-3">
      <p className="text-sm sm:col-span-3">
        현재 픽업 {hhmm(t.start_at)}{t.flight_number ? ` · 항공편 ${t.flight_number}` : ''}
      </p>
      <div className="flex gap-2 sm:col-span-3">
        <button type="button" className="min-h-11 border border-line px-3" onClick={() => later(30)}>+30분</button>
        <button type="button" className="min-h-11 border border-line px-3" onClick={() => later(60)}>+60분</button>
      </div>
      <label className="text-sm">
        새 픽업 시각{day !== koreaDate(t.start_at) && <span data-testid="pickup-next-day"> ({dotDate(day)})</span>}
        <input type="time" required className="mt-1 block min-h-11 w-full border border-line px-2" value={time} onChange={(e) => setTime(e.target.value)} />
      </label>
      <label className="text-sm sm:col-span-2">
        변경 사유
        <input className="mt-1 block min-h-11 w-full border border-line px-2" required maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      {error && <p role="alert" className="text-sm text-danger sm:col-span-3">{error}</p>}
      <div className="flex gap-2 sm:col-span-3">
        <button type="submit" disabled={busy} className="btn-primary min-h-11 px-3 py-1.5">{busy ? '저장 중…' : '픽업 변경 저장'}</button>
        <button type="button" className="min-h-11 px-3 py-1.5 text-muted underline" onClick={() => setOpen(false)}>닫기</button>
      </div>
    </form>
  );
}
