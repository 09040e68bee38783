import LicenceStatus from '../common/LicenceStatus';
import { useCallback, useEffect, useState } from 'react';
import { handoverLabel, HANDOVER_RECORD_LABEL, type BoardHandover } from '../../domain/handover';
import { formatNumber } from '../../domain/money';
import { call, client } from '../../client/api';
import Alert from '../common/Alert';
import HandoverPhotos from '../common/HandoverPhotos';
import HandoverRecordFields, { EMPTY_RECORD, recordBody, type RecordDraft } from '../common/HandoverRecordFields';
import { dotDate } from '../../domain/dates';


/** The record form of one handover: odometer, fuel or charge, notes; saved once (online only). */
function RecordForm({ h, onSaved }: { h: BoardHandover; onSaved: () => void }) {
  const [draft, setDraft] = useState<RecordDraft>(EMPTY_RECORD);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const body = recordBody(draft);
    if ('error' in body) return setError(body.error);
    setBusy(true);
    const res = await call((o) => client.driver.handovers[':id'].record.$post({ param: { id: String(h.id) }, json: body.json }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    onSaved();
  };
  return (
    <div className="mt-3 space-y-2 text-sm">
      <HandoverRecordFields value={draft} onChange={setDraft} phone />
      {error && <Alert>{error}</Alert>}
      <button type="button" className="btn-primary min-h-11 w-full px-4" disabled={busy} onClick={() => void save()}>
        {busy ? '저장 중...' : `${HANDOVER_RECORD_LABEL[h.kind]} 저장`}
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
              {handoverLabel(h)} {dotDate(h.scheduled_date)} {h.window_start}~{h.window_end}
            </p>
            {/* A swap's pair: the old car handed back (교체 반납) or the new one handed over (교체 인도), by plate. */}
            <p className="break-words">
              {h.car}
              {h.swap?.plate ? ` (${h.swap.plate})` : ''}
            </p>
            <p className="break-words text-muted">
              {h.customer.name} 고객{h.address ? ` · ${h.address}` : ''}
            </p>
            {/* The card at the door is checked against what the 운전자격확인시스템 answered. */}
            <LicenceStatus licences={h.licences} />
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
