import { MAX_WAYPOINTS } from '../../domain/butler';
import type { WaypointRow } from './reservation-form';
import AddressField from './AddressField';

interface Props {
  rows: WaypointRow[];
  onChange: (rows: WaypointRow[]) => void;
  /** Opens the address search for the row with this key. */
  onSearch: (key: number) => void;
}

/** Optional waypoints: rows of address and time that can be added and deleted. */
export default function WaypointRows({ rows, onChange, onSearch }: Props) {
  const add = () => onChange([...rows, { key: Math.max(0, ...rows.map((r) => r.key)) + 1, address: '', time: '' }]);
  const remove = (key: number) => onChange(rows.filter((r) => r.key !== key));
  const setTime = (key: number, time: string) => onChange(rows.map((r) => (r.key === key ? { ...r, time } : r)));
  return (
    <section aria-labelledby="waypoints-h" className="space-y-4">
      <h2 id="waypoints-h" className="text-lg font-semibold">경유지 (선택)</h2>
      {rows.length > 0 && (
        <ol className="space-y-4">
          {rows.map((row, i) => (
            <li key={row.key} className="grid gap-3 border border-line bg-white p-3 md:grid-cols-[1fr_14rem_auto] md:items-end" data-testid="waypoint-row">
              <AddressField id={`waypoint-${row.key}`} label={`경유지 ${i + 1}`} value={row.address} onOpen={() => onSearch(row.key)} />
              <div>
                <label htmlFor={`waypoint-${row.key}-time`} className="mb-1 block text-sm font-semibold">경유지 {i + 1} 시간</label>
                <input id={`waypoint-${row.key}-time`} type="datetime-local" value={row.time} onChange={(e) => setTime(row.key, e.target.value)} className="field" />
              </div>
              <button type="button" onClick={() => remove(row.key)} aria-label={`경유지 ${i + 1} 삭제`} className="border border-ink px-4 py-3 text-sm font-semibold">
                삭제
              </button>
            </li>
          ))}
        </ol>
      )}
      <button type="button" onClick={add} disabled={rows.length >= MAX_WAYPOINTS} className="btn-outline w-full disabled:opacity-40 md:w-auto">
        + 경유지 추가
      </button>
    </section>
  );
}
