import type { DriverPreference } from '../../domain/butler';
import { formatKoreaDateTime, koreaDate, koreaTime } from '../../domain/dates';
import type { TripBrief as Brief } from '../../domain/dispatch';
import { driverLabel } from '../butler-lists/format';

/** A waypoint's time as a driver reads it: the time on the trip's day, the date too on another day. */
const stopTime = (at: string, startAt: string) => (koreaDate(at) === koreaDate(startAt) ? koreaTime(at) : formatKoreaDateTime(at));

/**
 * What the customer asked of a trip, for the driver and staff: purpose, memo (e.g. "유아 카시트
 * 1개"), the flight of an airport pickup, passengers, driver preference and each waypoint with its time. One block for the 배차
 * card, the printed 운행표 and the order desk, so none of them drops what the customer wrote.
 */
export default function TripBrief({ trip, startAt, label }: { trip: Brief; startAt: string; label: string }) {
  return (
    <dl aria-label={label} data-testid="trip-brief" className="grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm">
      <dt className="text-muted">탑승 인원</dt>
      <dd>{trip.passenger_count}명</dd>
      <dt className="text-muted">이용 목적</dt>
      <dd className="break-words">{trip.purpose ?? '없음'}</dd>
      {trip.flight_number && (
        <>
          <dt className="text-muted">항공편</dt>
          <dd className="font-semibold" data-testid="trip-flight">{trip.flight_number}</dd>
        </>
      )}
      <dt className="text-muted">기사 선호</dt>
      <dd>{driverLabel(trip.driver_preference as DriverPreference | null)}</dd>
      {trip.waypoints.map((w, n) => [
        <dt key={`t-${n}`} className="text-muted">경유지 {n + 1}</dt>,
        <dd key={`d-${n}`} className="break-words">
          {w.address}
          {w.scheduled_time && <span className="font-semibold"> · {stopTime(w.scheduled_time, startAt)} 도착</span>}
        </dd>,
      ])}
      <dt className="text-muted">메모</dt>
      <dd className={`whitespace-pre-line break-words ${trip.memo ? 'font-semibold' : 'text-muted'}`}>{trip.memo ?? '없음'}</dd>
    </dl>
  );
}
