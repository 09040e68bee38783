import { useCallback, useEffect, useRef, useState } from 'react';
import { addDays, dotDate, todayInKorea } from '../../domain/dates';
import type { DispatchBoardAnswer, DispatchTrip } from '../../domain/dispatch';
import { call, client } from '../../client/api';
import { announceChange } from './admin-api';
import AssignDialog from './AssignDialog';
import { groupTrips, tripDaysOf, type BoardView } from './dispatch-board';
import DispatchTripCard from './DispatchTripCard';
import RunSheet from './RunSheet';
import HandoverBoard from './HandoverBoard';
import Alert from '../common/Alert';


/** A two-way switch of the board (일/주, 차량별/기사별). */
function Toggle<T extends string | number>({ label, value, options, onChange }: { label: string; value: T; options: [T, string][]; onChange: (v: T) => void }) {
  return (
    <div role="group" aria-label={label} className="flex">
      {options.map(([v, text]) => (
        <button key={v} type="button" aria-pressed={value === v} onClick={() => onChange(v)} className={`min-h-11 border border-ink px-4 py-2 text-sm font-semibold ${value === v ? 'bg-ink text-paper' : ''}`}>
          {text}
        </button>
      ))}
    </div>
  );
}

/**
 * 배차: the butler trips of a day or a week (Korean days), grouped by car or by driver with 미배차
 * first. 기사 배정 picks among the drivers the API proposes, 배정 해제 frees the trip; the board
 * loads again after each. In the 기사별 view each driver's day opens its 운행표. Below the trips, the
 * same days' 탁송·반납 of subscriptions (HandoverBoard), on the same drivers.
 */
export default function DispatchSection() {
  const [from, setFrom] = useState(() => todayInKorea(new Date()));
  const [days, setDays] = useState<1 | 7>(1);
  const [view, setView] = useState<BoardView>('car');
  const [board, setBoard] = useState<DispatchBoardAnswer | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [assigning, setAssigning] = useState<DispatchTrip | null>(null);
  const [sheet, setSheet] = useState<{ driverId: number; date: string } | null>(null);

  /** The latest load: an older answer (the day changed while it was on its way) is dropped. */
  const latest = useRef(0);
  const load = useCallback(async () => {
    if (!from) return;
    const seq = ++latest.current;
    const res = await call((o) => client.admin.dispatch.$get({ query: { from, days: String(days) } }, o));
    if (seq !== latest.current) return;
    if (res.ok) {
      setBoard(res.data);
      setError(null);
    } else setError(res.error.message);
  }, [from, days]);
  useEffect(() => void load(), [load]);

  const unassign = async (t: DispatchTrip) => {
    if (!window.confirm(`#${t.id}의 ${t.driver?.name ?? ''} 기사 배정을 해제할까요?`)) return;
    const res = await call((o) => client.admin['butler-requests'][':id'].driver.$delete({ param: { id: String(t.id) } }, o));
    if (res.ok) announceChange();
    setMessage(res.ok ? `#${t.id} 기사 배정을 해제했습니다.` : res.error.message);
    await load();
  };
  const assigned = async (text: string) => {
    setAssigning(null);
    setMessage(text);
    await load();
  };

  if (sheet) return <RunSheet driverId={sheet.driverId} date={sheet.date} onBack={() => setSheet(null)} />;
  const groups = board ? groupTrips(board.trips, view) : [];
  return (
    <section aria-label="배차" className="space-y-4">
      <div className="flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="mr-2 font-semibold">날짜</span>
          <input type="date" className="field w-auto py-2" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <Toggle label="기간" value={days} options={[[1, '일'], [7, '주']]} onChange={setDays} />
        <Toggle label="보기" value={view} options={[['car', '차량별'], ['driver', '기사별']]} onChange={setView} />
      </div>
      {board && (
        // `to` is exclusive: the range ends the day before.
        <p className="text-sm text-muted">
          {days === 1 ? dotDate(board.from) : `${dotDate(board.from)} ~ ${dotDate(addDays(board.to, -1))}`} · 운행 {board.trips.length}건 · 미배차 {board.trips.filter((t) => !t.driver).length}건
        </p>
      )}
      {message && <p role="status" className="text-sm text-muted">{message}</p>}
      {error && <Alert>{error}</Alert>}
      {!board && !error && <p className="text-sm text-muted">불러오는 중…</p>}
      {board && !board.trips.length && <p className="text-sm text-muted">이 기간에 예약된 운행이 없습니다.</p>}
      {groups.map((g) => (
        <section key={g.key} aria-label={g.label} className="border-t border-ink">
          <div className="flex flex-wrap items-center gap-2 py-2">
            <h3 className="min-w-0 flex-1 break-words font-semibold">
              {g.label} <span className="text-sm font-normal text-muted">{g.trips.length}건</span>
            </h3>
            {g.driverId !== null &&
              tripDaysOf(g.trips).map((day) => (
                <button key={day} type="button" aria-label={`${g.label} ${day} 운행표`} className="btn-outline min-h-11 px-3 py-1.5" onClick={() => setSheet({ driverId: g.driverId!, date: day })}>
                  운행표{days > 1 ? ` ${dotDate(day).slice(5)}` : ''}
                </button>
              ))}
          </div>
          <div className="divide-y divide-line border-t border-line">
            {g.trips.map((t) => (
              <DispatchTripCard key={`${t.id}-${t.start_at}-${t.departed_at}-${t.arrived_at}-${t.actual_start_at}-${t.actual_end_at}`} trip={t} onAssign={setAssigning} onUnassign={(trip) => void unassign(trip)} onCorrected={(text) => void assigned(text)} />
            ))}
          </div>
        </section>
      ))}
      <HandoverBoard from={from} days={days} drivers={board?.drivers ?? []} onChanged={() => void load()} />
      {assigning && <AssignDialog trip={assigning} onClose={() => setAssigning(null)} onAssigned={(text) => void assigned(text)} />}
    </section>
  );
}
