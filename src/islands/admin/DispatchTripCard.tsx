import { formatPhone } from '../../domain/accounts';
import { koreaTime } from '../../domain/dates';
import { TRIP_STAGE_LABEL, type DispatchTrip } from '../../domain/dispatch';
import { tripPeriod } from '../butler-lists/format';
import { carText, routeText } from './dispatch-board';
import StageCorrection from './StageCorrection';
import PickupMove from './PickupMove';
import TripEdit from './TripEdit';
import StaffTripThread from './StaffTripThread';
import TripBrief from './TripBrief';

interface Props {
  trip: DispatchTrip;
  onAssign: (trip: DispatchTrip) => void;
  onUnassign: (trip: DispatchTrip) => void;
  /** After a correction of the recorded times (the board reloads and says so). */
  onCorrected?: (message: string) => void;
}

/** One trip of the dispatch board: when, where, who rides, what they asked for and who drives, with 기사 배정, 배정 해제, 운행 변경 and the trip's 메시지. */
export default function DispatchTripCard({ trip: t, onAssign, onUnassign, onCorrected }: Props) {
  const done = t.stage === 'COMPLETED';
  return (
    <article aria-label={`운행 #${t.id}`} className="flex flex-wrap items-start gap-3 py-3 text-sm">
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="font-semibold">
          <span className="text-muted">#{t.id}</span> {tripPeriod(t.start_at, t.end_at)}{' '}
          <span className={`ml-1 inline-block px-1.5 py-0.5 text-xs font-bold ${t.driver ? 'bg-ink text-paper' : 'bg-line text-ink'}`}>{TRIP_STAGE_LABEL[t.stage]}</span>
        </p>
        <p className="break-words">{routeText(t)}</p>
        <p className="break-words text-muted">
          {t.customer.name} · {carText(t.car)}
        </p>
        {t.departed_at && (
          <p className="text-muted" data-testid="trip-times">
            {[['출발', t.departed_at], ['도착', t.arrived_at], ['탑승', t.actual_start_at], ['종료', t.actual_end_at]].filter(([, v]) => v).map(([k, v]) => `${k} ${koreaTime(v as string)}`).join(' · ')}
          </p>
        )}
        <TripBrief trip={t} startAt={t.start_at} label={`#${t.id} 고객 요청`} />
        <p>
          기사 <span className="font-semibold">{t.driver ? `${t.driver.name} (${formatPhone(t.driver.phone)})` : '미배차'}</span>
        </p>
      </div>
      {t.departed_at && t.status === 'CONFIRMED' && onCorrected && <StageCorrection trip={t} onSaved={onCorrected} />}
      {t.flight_number && !t.departed_at && t.status !== 'CANCELLED' && onCorrected && <PickupMove trip={t} onSaved={onCorrected} />}
      {!t.departed_at && t.status !== 'CANCELLED' && onCorrected && <TripEdit trip={t} onSaved={onCorrected} />}
      {!done && (
        <div className="flex shrink-0 gap-2">
          <button type="button" aria-label={`#${t.id} 기사 배정`} className="btn-primary min-h-11 px-3 py-1.5" onClick={() => onAssign(t)}>
            기사 배정
          </button>
          {t.driver && (
            <button type="button" aria-label={`#${t.id} 배정 해제`} className="min-h-11 border border-red-700 px-3 py-1.5 font-semibold text-red-700" onClick={() => onUnassign(t)}>
              배정 해제
            </button>
          )}
        </div>
      )}
      {t.driver && t.status !== 'CANCELLED' && <StaffTripThread trip={t} />}
    </article>
  );
}
