import { useEffect, useState } from 'react';
import { formatPhone } from '../../domain/accounts';
import { dotDate, formatKoreaDateTime, koreaDate, koreaTime, weekday } from '../../domain/dates';
import type { RunSheetAnswer } from '../../domain/dispatch';
import { call, client } from '../../client/api';
import { GENDER_LABEL } from './dispatch-board';
import Alert from '../common/Alert';
import TripBrief from './TripBrief';
import { HANDOVER_KIND_LABEL, HANDOVER_STATUS_LABEL, type BoardHandover } from '../../domain/handover';

const WEEKDAYS = ['일', '월', '화', '수', '목', '금', '토'];
/** The end of a trip on the sheet: its time, with the date when it ends on a later day. */
const endText = (start: string, end: string | null) => (!end ? '미정' : koreaDate(end) === koreaDate(start) ? koreaTime(end) : formatKoreaDateTime(end));

/**
 * 운행표: one driver's trips starting on one Korean day, in order, to hand over on paper: times,
 * every stop with its time, passengers, purpose, memo and driver preference, the customer (their number masked as on /driver: calls go through the office),
 * the car and its plate; then the driver's 탁송·반납 of the day. 인쇄 prints only the sheet
 * (the console around it carries print:hidden).
 */
export default function RunSheet({ driverId, date, onBack }: { driverId: number; date: string; onBack: () => void }) {
  const [sheet, setSheet] = useState<(RunSheetAnswer & { handovers: BoardHandover[] }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void call((o) => client.admin.dispatch['run-sheet'].$get({ query: { driver_id: String(driverId), date } }, o)).then((res) => {
      if (!live) return;
      if (res.ok) setSheet(res.data);
      else setError(res.error.message);
    });
    return () => {
      live = false;
    };
  }, [driverId, date]);

  return (
    <section aria-label="운행표" className="space-y-4">
      <div className="flex flex-wrap gap-2 print:hidden">
        <button type="button" className="btn-outline min-h-11 px-4 py-2" onClick={onBack}>
          배차표로 돌아가기
        </button>
        <button type="button" className="btn-primary min-h-11 px-4 py-2" disabled={!sheet} onClick={() => window.print()}>
          인쇄
        </button>
      </div>
      {error && <Alert>{error}</Alert>}
      {!sheet && !error && <p className="text-sm text-muted">불러오는 중…</p>}
      {sheet && (
        <div className="space-y-4 bg-white p-4 print:p-0">
          <header className="border-b-2 border-ink pb-2">
            <h2 className="text-xl font-bold">운행표 · {dotDate(sheet.date)} ({WEEKDAYS[weekday(sheet.date)]})</h2>
            <p className="text-sm">
              기사 <span className="font-semibold">{sheet.driver.name}</span> ({GENDER_LABEL[sheet.driver.gender]}) · {formatPhone(sheet.driver.phone)} · 운행 {sheet.trips.length}건{sheet.handovers.length ? ` · 탁송·반납 ${sheet.handovers.length}건` : ''}
            </p>
          </header>
          {!sheet.trips.length && <p className="text-sm text-muted">이 날 배정된 운행이 없습니다.</p>}
          <ol className="space-y-4">
            {sheet.trips.map((t, i) => (
              <li key={t.id} className="break-inside-avoid border border-line p-3 text-sm" data-testid="run-sheet-trip">
                <p className="text-base font-bold">
                  {i + 1}. {koreaTime(t.start_at)} ~ {endText(t.start_at, t.end_at)} <span className="text-sm font-normal text-muted">요청 #{t.id}</span>
                </p>
                <dl className="mt-2 grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-3 gap-y-1">
                  <dt className="text-muted">출발지</dt>
                  <dd className="break-words">{t.start_location}</dd>
                  <dt className="text-muted">도착지</dt>
                  <dd className="break-words">{t.end_location}</dd>
                  <dt className="text-muted">고객</dt>
                  <dd className="break-words">
                    {t.customer.name}
                    {t.customer.mobile && (
                      <>
                        {' · '}
                        <span data-testid="run-sheet-phone">{t.customer.mobile}</span>
                      </>
                    )}
                  </dd>
                  <dt className="text-muted">차량</dt>
                  <dd className="break-words">{t.car.name} · {t.car.license_plate ?? '번호 없음'}</dd>
                </dl>
                <div className="mt-2 border-t border-line pt-2">
                  <TripBrief trip={t} startAt={t.start_at} label={`요청 #${t.id} 고객 요청`} />
                </div>
              </li>
            ))}
          </ol>
          {sheet.handovers.length > 0 && (
            <>
              <h3 className="border-b border-ink pb-1 font-bold">탁송·반납 {sheet.handovers.length}건</h3>
              <ol className="space-y-4">
                {sheet.handovers.map((h) => (
                  <li key={h.id} className="break-inside-avoid border border-line p-3 text-sm" data-testid="run-sheet-handover">
                    <p className="text-base font-bold">
                      {h.window_start} ~ {h.window_end} {HANDOVER_KIND_LABEL[h.kind]} <span className="text-sm font-normal text-muted">구독 #{h.subscription_id} · {HANDOVER_STATUS_LABEL[h.status]}</span>
                    </p>
                    <dl className="mt-2 grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-3 gap-y-1">
                      <dt className="text-muted">장소</dt>
                      <dd className="break-words">{h.address ?? '미정'}</dd>
                      <dt className="text-muted">고객</dt>
                      <dd className="break-words">
                        {h.customer.name}
                        {h.customer.mobile && (
                          <>
                            {' · '}
                            <span data-testid="run-sheet-phone">{h.customer.mobile}</span>
                          </>
                        )}
                      </dd>
                      <dt className="text-muted">차량</dt>
                      <dd className="break-words">{h.car}</dd>
                    </dl>
                  </li>
                ))}
              </ol>
            </>
          )}
        </div>
      )}
    </section>
  );
}
