import type { ReservationForm } from './reservation-form';
import AddressField from './AddressField';

interface Props {
  form: ReservationForm;
  /** The form's first values are not read yet (the fields are empty in the HTML and until then). */
  opening: boolean;
  onStart: (start: string) => void;
  onEnd: (end: string) => void;
  onSearch: (target: 'start' | 'end') => void;
  /** Problems with the times (domain tripProblems), shown under the fields. */
  problems: string[];
}

/**
 * Empty, a datetime field shows placeholder segments (-- for 오전/오후) narrower than the values the
 * form opens with: filling them moved the segments, a layout shift on every first view. Until the
 * form has opened they are hidden (datetime-pending), so the values appear instead of moving in.
 */
const timeField = (opening: boolean) => (opening ? 'field datetime-pending' : 'field');

/** Departure (time, location) and arrival (optional time, location). */
export default function TripSection({ form, opening, onStart, onEnd, onSearch, problems }: Props) {
  return (
    <section aria-labelledby="trip-h" className="space-y-4">
      <h2 id="trip-h" className="text-lg font-semibold">운행 정보</h2>
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <label htmlFor="start-at" className="mb-1 block text-sm font-semibold">출발 시간</label>
          <input id="start-at" type="datetime-local" required value={form.start} onChange={(e) => onStart(e.target.value)} className={timeField(opening)} />
        </div>
        <AddressField id="start-location" label="출발지" value={form.startLocation} onOpen={() => onSearch('start')} required />
        <div>
          <label htmlFor="end-at" className="mb-1 block text-sm font-semibold">도착 시간 (선택)</label>
          <input id="end-at" type="datetime-local" value={form.end} onChange={(e) => onEnd(e.target.value)} className={timeField(opening)} />
        </div>
        <AddressField id="end-location" label="도착지" value={form.endLocation} onOpen={() => onSearch('end')} required />
      </div>
      <p className="text-xs text-muted">기본 요금은 8시간 기준이며, 출발 시간을 바꾸면 도착 시간이 8시간 뒤로 맞춰집니다.</p>
      {problems.length > 0 && (
        <ul className="space-y-1 text-sm text-red-700" data-testid="trip-problems">
          {problems.map((p) => <li key={p}>{p}</li>)}
        </ul>
      )}
    </section>
  );
}
