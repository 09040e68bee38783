import { useEffect, useState } from 'react';
import { formatPhone } from '../../domain/accounts';
import type { DispatchTrip, Driver } from '../../domain/dispatch';
import Dialog from '../checkout/Dialog';
import { call, client } from '../../client/api';
import { announceChange } from './admin-api';
import { GENDER_LABEL } from './dispatch-board';
import Alert from '../common/Alert';

interface Props {
  trip: DispatchTrip;
  onClose: () => void;
  /** After a successful assignment, with what to tell staff. */
  onAssigned: (message: string) => void;
}

/**
 * 기사 배정 of one trip: the drivers the API proposes (suitable and free at that time), one picked,
 * then POST assign. The API checks again under a lock, so a driver taken meanwhile (or deactivated)
 * is refused: its Korean message stays in the dialog and another driver can be picked.
 */
export default function AssignDialog({ trip, onClose, onAssigned }: Props) {
  const [drivers, setDrivers] = useState<Driver[] | null>(null);
  const [picked, setPicked] = useState<number | null>(trip.driver?.id ?? null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void call((o) => client.admin['butler-requests'][':id']['driver-proposals'].$get({ param: { id: String(trip.id) } }, o)).then((res) => {
      if (!live) return;
      if (res.ok) setDrivers(res.data.drivers);
      else setError(res.error.message);
    });
    return () => {
      live = false;
    };
  }, [trip.id]);

  const assign = async () => {
    if (picked === null) return setError('배정할 기사를 선택해주세요.');
    setBusy(true);
    const res = await call((o) => client.admin['butler-requests'][':id'].assign.$post({ param: { id: String(trip.id) }, json: { driver_id: picked } }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    announceChange();
    onAssigned(`#${trip.id}에 ${res.data.trip.driver?.name ?? '기사'} 기사를 배정했습니다.`);
  };

  return (
    <Dialog open title={`#${trip.id} 기사 배정`} onClose={onClose}>
      {!drivers && !error && <p className="text-sm text-muted">불러오는 중…</p>}
      {drivers && !drivers.length && <p className="text-sm text-muted">이 시간대에 배정할 수 있는 기사가 없습니다.</p>}
      {drivers && drivers.length > 0 && (
        <fieldset className="max-h-72 space-y-1 overflow-y-auto">
          <legend className="sr-only">배정할 기사</legend>
          {drivers.map((d) => (
            <label key={d.id} className="flex min-h-11 cursor-pointer items-center gap-3 border border-line bg-white px-3 py-2 text-sm has-[:checked]:border-ink">
              <input type="radio" name="driver" checked={picked === d.id} onChange={() => setPicked(d.id)} />
              <span className="min-w-0 break-words">
                <span className="font-semibold">{d.name}</span> <span className="text-muted">({GENDER_LABEL[d.gender]}) · {formatPhone(d.phone)}{d.licence_classes.length ? ` · ${d.licence_classes.join(', ')}` : ''}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      {error && <Alert className="mt-3">{error}</Alert>}
      <div className="mt-4 flex gap-2">
        <button type="button" className="btn-primary min-h-11 px-4 py-2" disabled={busy || !drivers?.length} onClick={() => void assign()}>
          {busy ? '배정 중…' : '배정'}
        </button>
        <button type="button" className="btn-outline min-h-11 px-4 py-2" onClick={onClose}>
          닫기
        </button>
      </div>
    </Dialog>
  );
}
