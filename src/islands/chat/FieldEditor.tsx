import { useEffect, useState, type SubmitEvent } from 'react';
import { call, client } from '../../client/api';
import { carName, type ChatCar } from '../../domain/chat/fleet';
import { checkField, type BookingKey, type BookingState, type BookingUpdates } from '../../domain/chat/state';
import { todayInKorea } from '../../domain/dates';

const INPUT: Partial<Record<BookingKey, string>> = { 날짜: 'date', '탑승 시간': 'time', '탑승 인원': 'number' };

function initial(key: BookingKey, state: BookingState): string {
  const v = state[key];
  if (key === '차량') return String(state['차량 번호'] ?? '');
  return Array.isArray(v) ? v.join(', ') : v === undefined ? '' : String(v);
}

/** Turns what was typed into the key's value and checks it with the rule the server uses (checkField). */
function toUpdates(key: BookingKey, raw: string, fleet: ChatCar[]): { updates?: BookingUpdates; error?: string } {
  if (key === '차량') {
    const car = fleet.find((c) => c.id === Number(raw));
    return car ? { updates: { 차량: carName(car), '차량 번호': car.id } } : { error: '차량을 선택해주세요.' };
  }
  const value = key === '탑승 인원' ? Number(raw) : key === '경유지' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : raw.trim();
  const checked = checkField(key, value);
  return checked.ok ? { updates: { [key]: checked.value } } : { error: checked.message };
}

/** Inline correction of one booking value; the car is chosen from the fleet. */
export default function FieldEditor({ field, state, onSave, onCancel }: { field: BookingKey; state: BookingState; onSave: (u: BookingUpdates) => void; onCancel: () => void }) {
  const [value, setValue] = useState(() => initial(field, state));
  const [error, setError] = useState<string | null>(null);
  const [fleet, setFleet] = useState<ChatCar[]>([]);
  useEffect(() => {
    if (field !== '차량') return;
    void call((o) => client.butlers.cars.$get({}, o)).then((res) => (res.ok ? setFleet(res.data.cars) : setError('차량 목록을 불러오는데 실패했습니다.')));
  }, [field]);

  const submit = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const out = toUpdates(field, value, fleet);
    if (out.error) return setError(out.error);
    onSave(out.updates!);
  };
  const id = `chat-edit-${field.replace(/\s/g, '-')}`;
  return (
    <form onSubmit={submit} noValidate onKeyDown={(e) => e.key === 'Escape' && onCancel()} className="mt-1 space-y-2 text-left">
      <label htmlFor={id} className="sr-only">{field} 수정</label>
      {field === '차량' ? (
        <select id={id} value={value} onChange={(e) => setValue(e.target.value)} className="field py-2" autoFocus>
          <option value="">차량 선택</option>
          {fleet.map((c) => <option key={c.id} value={c.id}>{carName(c)}</option>)}
        </select>
      ) : (
        <input id={id} type={INPUT[field] ?? 'text'} value={value} onChange={(e) => setValue(e.target.value)} className="field py-2" autoFocus
          min={field === '날짜' ? todayInKorea(new Date()) : field === '탑승 인원' ? 1 : undefined} max={field === '탑승 인원' ? 20 : undefined}
          placeholder={field === '경유지' ? '쉼표로 구분 (예: 코엑스, 서울역)' : undefined}
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
      )}
      {error && <p id={`${id}-error`} className="text-xs text-danger">{error}</p>}
      <div className="flex gap-2">
        <button type="submit" className="min-h-11 min-w-11 bg-ink px-3 text-xs font-semibold text-paper">저장</button>
        <button type="button" onClick={onCancel} className="min-h-11 min-w-11 border border-line px-3 text-xs">취소</button>
      </div>
    </form>
  );
}
