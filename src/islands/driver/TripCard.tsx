import { useCallback, useState } from 'react';
import { call, client } from '../../client/api';
import TripThread from '../common/TripThread';
import { formatKoreaDateTime, koreaDate, koreaTime } from '../../domain/dates';
import { TRIP_STAGE_LABEL } from '../../domain/dispatch';
import { DRIVER_STAGE_LABEL, DRIVER_STAGES, type DriverStage, type DriverTrip, type DriverTripsAnswer } from '../../domain/driver-day';
import type { PendingTap } from './tap-queue';
import { dayHeading } from '../../domain/driver-notices';
import { waitingSoFar, waitingSoFarText } from '../../domain/waiting';
import { useServerNow, type ServerClock } from './server-clock';

interface Props {
  trip: DriverTrip;
  today: string;
  /** This trip's taps not yet accepted by the server (shown as recorded, 전송 대기). */
  pending: PendingTap[];
  onTap: (stage: DriverStage) => void;
  officePhone: string;
  /** The server's clock and waiting rule, for the wait shown at the pickup (null until the first answer). */
  waiting: { clock: ServerClock; policy: DriverTripsAnswer['waiting_policy'] } | null;
}

/** A Kakao Map search for the address: opens the app or the web map, no key needed. */
const mapLink = (address: string) => `https://map.kakao.com/link/search/${encodeURIComponent(address)}`;

function Place({ label, address, time }: { label: string; address: string; time: string | null }) {
  return (
    <li className="flex items-start justify-between gap-3 border-t border-line py-2 first:border-t-0">
      <div className="min-w-0">
        <p className="text-xs text-muted">{label}{time ? ` · ${koreaTime(time)}` : ''}</p>
        <p className="break-words font-medium">{address}</p>
      </div>
      <a href={mapLink(address)} target="_blank" rel="noopener" className="inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center border border-line px-3 text-sm" aria-label={`${label} 지도 열기: ${address}`}>
        지도
      </a>
    </li>
  );
}

/** One trip on the driver's phone: when, where (each place with a map link), who, what they asked, and the next stage's big button. */
export default function TripCard({ trip: t, today, pending, onTap, officePhone, waiting: rule }: Props) {
  const waiting = new Map(pending.map((p) => [p.stage, p.tapped_at]));
  const next = DRIVER_STAGES.find((s) => !t.times[s] && !waiting.has(s)) ?? null;
  const day = dayHeading(koreaDate(t.start_at), today).split(' · ')[0];
  const [sign, setSign] = useState(false);
  const loadThread = useCallback(() => call((o) => client.driver.trips[':id'].messages.$get({ param: { id: String(t.id) } }, o)), [t.id]);
  return (
    <article aria-labelledby={`trip-${t.id}`} className="border border-line bg-white p-4" data-testid="driver-trip" data-trip-id={t.id}>
      <header className="flex items-baseline justify-between gap-2">
        <h2 id={`trip-${t.id}`} className="text-lg font-bold">
          {day} {koreaTime(t.start_at)}{t.end_at ? ` ~ ${koreaTime(t.end_at)}` : ''}
        </h2>
        <span className="bg-ink px-2 py-0.5 text-xs font-bold text-paper" data-testid="driver-trip-stage">{TRIP_STAGE_LABEL[t.stage]}</span>
      </header>
      <p className="mt-1 text-sm text-muted">{t.car.name}{t.car.license_plate ? ` · ${t.car.license_plate}` : ''} · 예약 #{t.id}</p>

      <ul className="mt-3">
        <Place label="픽업" address={t.start_location} time={t.start_at} />
        {t.way_points.map((w, i) => <Place key={`${i}-${w.address}`} label={`경유 ${i + 1}`} address={w.address} time={w.scheduled_time} />)}
        <Place label="도착지" address={t.end_location} time={t.end_at} />
      </ul>

      <dl className="mt-3 grid grid-cols-[5rem_minmax(0,1fr)] gap-x-2 gap-y-1 text-sm">
        {t.flight_number && (
          <>
            <dt className="text-muted">항공편</dt>
            <dd data-testid="driver-trip-flight">
              <strong>{t.flight_number}</strong> · 픽업 {koreaTime(t.start_at)} (출발 전에 항공편 도착 시각을 확인해주세요)
            </dd>
          </>
        )}
        <dt className="text-muted">탑승객</dt>
        <dd>{t.passenger.name} · {t.passenger.phone_masked ?? '번호 없음'} · {t.passenger_count}명</dd>
        <dt className="text-muted">목적</dt>
        <dd>{t.purpose || '없음'}</dd>
        <dt className="text-muted">메모</dt>
        <dd className="whitespace-pre-line break-words" data-testid="driver-trip-memo">{t.memo || '없음'}</dd>
      </dl>
      <div className="mt-2 flex flex-wrap gap-x-4">
        <a href={`tel:${officePhone.replace(/[^\d+]/g, '')}`} className="inline-flex min-h-11 items-center text-sm underline">사무실 통해 고객 연결 ({officePhone})</a>
        <button type="button" onClick={() => setSign(true)} className="min-h-11 text-sm underline">이름 피켓 보기</button>
      </div>
      {sign && <NameSign name={t.passenger.name} onClose={() => setSign(false)} />}

      <ol className="mt-3 grid grid-cols-4 gap-1 text-center text-xs" aria-label="운행 기록">
        {DRIVER_STAGES.map((s) => {
          const at = t.times[s] ?? waiting.get(s) ?? null;
          return (
            <li key={s} className={`border-t-4 pt-1 ${at ? 'border-ink' : 'border-line text-muted'}`} data-testid={`stage-${s}`}>
              <span className="block font-semibold">{DRIVER_STAGE_LABEL[s]}</span>
              <span className="block">{at ? koreaTime(at) : '-'}</span>
              {!t.times[s] && waiting.has(s) && <span className="block text-muted">전송 대기</span>}
            </li>
          );
        })}
      </ol>

      {/* Waiting at the pickup: from the server's 도착 until 탑승 (a 탑승 tap still on the phone ends it too). */}
      {rule && t.times.arrived && !t.times.boarded && !waiting.has('boarded') && <WaitingNow trip={t} arrived={t.times.arrived} {...rule} />}

      {next ? (
        <button type="button" onClick={() => onTap(next)} className="mt-4 min-h-14 w-full bg-ink text-lg font-bold text-paper" data-testid="stage-button">
          {DRIVER_STAGE_LABEL[next]}
        </button>
      ) : (
        <p className="mt-4 text-center text-sm text-muted">운행이 종료되었습니다 · {t.times.ended ? formatKoreaDateTime(t.times.ended) : '전송 대기'}</p>
      )}
      <div className="mt-4">
        <TripThread
          id={`trip-${t.id}-messages`}
          title="고객과 메시지"
          to="고객에게"
          load={loadThread}
          send={(body, clientId) => call((o) => client.driver.trips[':id'].messages.$post({ param: { id: String(t.id) }, json: { body, client_id: clientId } }, o))}
          version={t.stage}
        />
      </div>
    </article>
  );
}

/**
 * 대기 N분 and the free time left or the minutes beyond it, by the charge's own rule (src/domain/waiting.ts)
 * on the server's 도착 and the server's time carried on: re-read every second, so it moves each minute.
 */
function WaitingNow({ trip, arrived, clock, policy }: { trip: DriverTrip; arrived: string; clock: ServerClock; policy: DriverTripsAnswer['waiting_policy'] }) {
  const now = useServerNow(clock);
  const w = waitingSoFar({ airportFreeMinutes: policy.airport_free_minutes, freeMinutes: policy.free_minutes, stepMinutes: policy.step_minutes }, trip, arrived, now);
  const early = now < Date.parse(trip.start_at);
  return (
    <div className={`mt-3 border px-3 py-2 text-sm ${w.chargedMinutes > 0 ? 'border-gold bg-paper' : 'border-line'}`} data-testid="driver-waiting">
      <p className="font-semibold tabular-nums" data-testid="driver-waiting-text">{waitingSoFarText(w)}</p>
      <p className="text-xs text-muted">
        {early ? `예약 시각 ${koreaTime(trip.start_at)}부터 대기 시간을 셉니다. ` : ''}
        {w.airport ? '공항 픽업' : '일반 픽업'} 무료 대기 {w.freeMinutes}분
      </p>
    </div>
  );
}

/** The passenger's name, as large as the phone allows, to hold up at arrivals; a tap anywhere closes it. */
function NameSign({ name, onClose }: { name: string; onClose: () => void }) {
  return (
    <div role="dialog" aria-modal="true" aria-label="이름 피켓" className="fixed inset-0 z-50 flex flex-col items-center justify-center bg-white p-6 text-center" data-testid="name-sign">
      <p className="text-sm tracking-widest text-muted">LUXE</p>
      <p className="mt-4 break-all text-6xl font-bold leading-tight text-ink">{name} 님</p>
      <button type="button" onClick={onClose} className="mt-12 min-h-11 border border-ink px-6 text-sm">닫기</button>
    </div>
  );
}
