import { useState } from 'react';
import { call, client } from '../../client/api';
import { formatKoreaDateTime, koreaTime } from '../../domain/dates';
import { PAST_TRIPS_DAYS, type DriverPastTrip } from '../../domain/driver-notices';

/** 지난 운행: the driver's trips of the last 30 days with their record (도착 · 탑승 · 종료, hours used, the rating), a page at a time. */
export default function PastTrips() {
  const [trips, setTrips] = useState<DriverPastTrip[] | null>(null);
  const [page, setPage] = useState(0);
  const [more, setMore] = useState(false);
  const [error, setError] = useState('');
  async function load(next: number) {
    const r = await call((o) => client.driver.trips.past.$get({ query: { page: String(next) } }, o));
    if (!r.ok) return setError(r.error.message);
    setTrips([...(next === 1 ? [] : (trips ?? [])), ...r.data.trips]);
    setPage(next);
    setMore(r.data.has_more);
  }
  return (
    <section aria-labelledby="driver-past-title" className="border border-line bg-white p-4" data-testid="driver-past">
      <h2 id="driver-past-title" className="font-bold">지난 운행 <span className="text-sm font-normal text-muted">최근 {PAST_TRIPS_DAYS}일</span></h2>
      {error && <p role="alert" className="text-sm text-danger">{error}</p>}
      {trips === null ? (
        <button type="button" className="mt-2 min-h-11 border border-line px-3" onClick={() => void load(1)}>지난 운행 보기</button>
      ) : trips.length === 0 ? (
        <p className="mt-2 text-sm text-muted">최근 {PAST_TRIPS_DAYS}일 동안의 운행이 없습니다.</p>
      ) : (
        <ol className="mt-2 space-y-2 text-sm">
          {trips.map((t) => (
            <li key={t.id} className="border-t border-line pt-2 first:border-t-0 first:pt-0" data-testid="driver-past-trip">
              <p className="font-semibold">{formatKoreaDateTime(t.start_at)} · 예약 #{t.id}{t.status === 'CANCELLED' ? ' · 취소' : ''}</p>
              <p className="break-words">{t.start_location} → {t.end_location}</p>
              <p className="text-muted">
                {[['도착', t.times.arrived], ['탑승', t.times.boarded], ['종료', t.times.ended]].map(([k, v]) => `${k} ${v ? koreaTime(v) : '-'}`).join(' · ')}
                {t.used_hours !== null ? ` · 이용 ${t.used_hours}시간` : ''}
                {t.rating !== null ? ` · 평점 ${t.rating}점` : ''}
              </p>
            </li>
          ))}
        </ol>
      )}
      {more && <button type="button" className="mt-2 min-h-11 border border-line px-3" onClick={() => void load(page + 1)}>더 보기</button>}
    </section>
  );
}
