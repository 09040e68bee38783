import { useState, type FormEvent } from 'react';
import type { DispatchTrip } from '../../domain/dispatch';
import { DRIVER_STAGE_LABEL } from '../../domain/driver-day';
import { call, client } from '../../client/api';

const HOUR = 3_600_000;
/** An instant as a datetime-local value in Korean time (YYYY-MM-DDTHH:mm), '' for none. */
const koreanLocal = (iso: string | null) => (iso ? new Date(Date.parse(iso) + 9 * HOUR).toISOString().slice(0, 16) : '');
/** A datetime-local value (Korean time) as an instant, null for an empty field. */
const instant = (v: string) => (v ? `${v}:00+09:00` : null);

const FIELDS = [
  ['departed_at', 'departed_at', DRIVER_STAGE_LABEL.departed],
  ['arrived_at', 'arrived_at', DRIVER_STAGE_LABEL.arrived],
  ['boarded_at', 'actual_start_at', DRIVER_STAGE_LABEL.boarded],
  ['ended_at', 'actual_end_at', DRIVER_STAGE_LABEL.ended],
] as const;

/**
 * 시각 정정: staff correct the times the driver recorded (Korean time; empty clears one), with a
 * reason; the server keeps the order, refuses future times and, once overtime was charged, 탑승
 * and 운행 종료 (audited as 운행 기록 정정).
 */
export default function StageCorrection({ trip: t, onSaved }: { trip: DispatchTrip; onSaved: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(FIELDS.map(([k, src]) => [k, koreanLocal(t[src])])));
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    // Only the fields that changed are sent.
    const changed = Object.fromEntries(FIELDS.filter(([k, src]) => values[k] !== koreanLocal(t[src])).map(([k]) => [k, instant(values[k])]));
    const r = await call((o) => client.admin['butler-requests'][':id'].stages.$patch({ param: { id: String(t.id) }, json: { ...changed, reason } }, o));
    setBusy(false);
    if (!r.ok) return setError(r.error.message);
    setOpen(false);
    onSaved(`#${t.id} 운행 기록을 정정했습니다.`);
  }
  if (!open) {
    return (
      <button type="button" aria-label={`#${t.id} 시각 정정`} className="min-h-11 border border-line px-3 py-1.5 font-semibold" onClick={() => setOpen(true)}>
        시각 정정
      </button>
    );
  }
  return (
    <form onSubmit={(e) => void save(e)} aria-label={`#${t.id} 운행 기록 정정`} className="grid w-full gap-2 sm:grid-cols-2">
      {FIELDS.map(([k, , label]) => (
        <label key={k} className="text-sm">
          {label}
          <input type="datetime-local" className="mt-1 block min-h-11 w-full border border-line px-2" value={values[k]} onChange={(e) => setValues({ ...values, [k]: e.target.value })} />
        </label>
      ))}
      <label className="text-sm sm:col-span-2">
        정정 사유
        <input className="mt-1 block min-h-11 w-full border border-line px-2" required maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      {error && <p role="alert" className="text-sm text-danger sm:col-span-2">{error}</p>}
      <div className="flex gap-2 sm:col-span-2">
        <button type="submit" disabled={busy} className="btn-primary min-h-11 px-3 py-1.5">{busy ? '저장 중…' : '정정 저장'}</button>
        <button type="button" className="min-h-11 px-3 py-1.5 text-muted underline" onClick={() => setOpen(false)}>닫기</button>
      </div>
    </form>
  );
}
