import { useCallback, useEffect, useState } from 'react';
import { HANDOVER_KIND_LABEL, type BoardHandover } from '../../domain/handover';
import { formatNumber } from '../../domain/money';
import { call, client } from '../../client/api';
import Alert from '../common/Alert';
import HandoverPhotos from '../common/HandoverPhotos';

const dotted = (day: string) => day.replace(/-/g, '.');

/** The record form of one handover: odometer, fuel or charge, notes; saved once (online only). */
function RecordForm({ h, onSaved }: { h: BoardHandover; onSaved: () => void }) {
  const [km, setKm] = useState('');
  const [fuel, setFuel] = useState('');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const odometer = Number(km);
    const percent = Number(fuel);
    if (!km || !Number.isInteger(odometer)) return setError('주행거리를 km 단위 숫자로 입력해주세요.');
    if (!fuel || !Number.isInteger(percent) || percent > 100) return setError('연료(충전) 잔량을 0~100 사이로 입력해주세요.');
    setBusy(true);
    const res = await call((o) => client.driver.handovers[':id'].record.$post({ param: { id: String(h.id) }, json: { odometer_km: odometer, fuel_percent: percent, notes: notes || null } }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    onSaved();
  };
  return (
    <div className="mt-3 space-y-2 text-sm">
      <label className="block">
        <span className="font-semibold">주행거리 (km)</span>
        <input type="text" inputMode="numeric" className="mt-1 min-h-11 w-full border border-line px-3" value={km} onChange={(e) => setKm(e.target.value.replace(/[^\d]/g, ''))} />
      </label>
      <label className="block">
        <span className="font-semibold">연료(충전) 잔량 (%)</span>
        <input type="text" inputMode="numeric" className="mt-1 min-h-11 w-full border border-line px-3" value={fuel} onChange={(e) => setFuel(e.target.value.replace(/[^\d]/g, ''))} />
      </label>
      <label className="block">
        <span className="font-semibold">메모 (외관 상태 등)</span>
        <textarea className="mt-1 w-full border border-line px-3 py-2" rows={2} maxLength={2000} value={notes} onChange={(e) => setNotes(e.target.value)} />
      </label>
      {error && <Alert>{error}</Alert>}
      <button type="button" className="btn-primary min-h-11 w-full px-4" disabled={busy} onClick={() => void save()}>
        {busy ? '저장 중...' : '인수 기록 저장'}
      </button>
    </div>
  );
}

/** 탁송·반납 on the driver's phone: today's and tomorrow's deliveries and returns, each recorded at the handover. */
export default function DriverHandovers() {
  const [list, setList] = useState<BoardHandover[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const res = await call((o) => client.driver.handovers.$get({}, o));
    if (res.ok) {
      setList(res.data.handovers);
      setError(null);
    } else setError(res.error.message);
  }, []);
  useEffect(() => void load(), [load]);
  if (error) return <Alert tone="box">{error}</Alert>;
  if (!list || !list.length) return null;
  return (
    <section aria-label="탁송·반납" className="space-y-3">
      <h2 className="font-bold">탁송·반납</h2>
      <ol className="space-y-3">
        {list.map((h) => (
          <li key={h.id} className="border border-line bg-white p-4 text-sm" data-testid="driver-handover">
            <p className="font-semibold">
              {HANDOVER_KIND_LABEL[h.kind]} {dotted(h.scheduled_date)} {h.window_start}~{h.window_end}
            </p>
            <p className="break-words">{h.car}</p>
            <p className="break-words text-muted">
              {h.customer.name} 고객{h.address ? ` · ${h.address}` : ''}
            </p>
            {h.record ? (
              <p className="mt-2" role="status">
                기록 완료 · {formatNumber(h.record.odometer_km)}km · {h.record.fuel_percent}%
              </p>
            ) : (
              <RecordForm h={h} onSaved={() => void load()} />
            )}
            <HandoverPhotos handoverId={h.id} uploadAs={h.acknowledged_at ? undefined : 'driver'} />
          </li>
        ))}
      </ol>
    </section>
  );
}
