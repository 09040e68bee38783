import { useState } from 'react';
import { MAX_PASSENGERS, MIN_PASSENGERS, type DriverPreference } from '../../domain/butler';
import { FLIGHT_NUMBER_MESSAGE, MAX_FLIGHT_NUMBER, normalizeFlightNumber } from '../../domain/flights';
import { clampPassengerInput, type ReservationForm } from './reservation-form';

interface Props {
  form: ReservationForm;
  onChange: (patch: Partial<ReservationForm>) => void;
}

const DRIVERS: { value: DriverPreference; label: string }[] = [
  { value: 'any', label: '상관없음' },
  { value: 'male', label: '남성' },
  { value: 'female', label: '여성' },
];
const PURPOSES = ['비즈니스 미팅', '공항 픽업', '웨딩', '행사 의전', '골프 라운딩', '가족 행사'];

/** Passenger count (1–20: the box shows the count used, with a note when it was brought into range), purpose, flight number, driver preference and memo. */
export default function ExtraInfo({ form, onChange }: Props) {
  const [note, setNote] = useState<string | null>(null);
  const [flightChecked, setFlightChecked] = useState(false);
  const flightWrong = flightChecked && form.flightNumber.trim() !== '' && !normalizeFlightNumber(form.flightNumber);
  /** On leaving the box: a valid number in its written form (ke 123 → KE123), a wrong one kept and flagged. */
  const settleFlight = () => {
    setFlightChecked(true);
    const written = normalizeFlightNumber(form.flightNumber);
    if (written && written !== form.flightNumber) onChange({ flightNumber: written });
  };
  const passengers = (raw: string, settle: boolean) => {
    const clamped = clampPassengerInput(raw, settle);
    if (settle && clamped.value === form.passengers) return;
    setNote(clamped.note);
    if (clamped.value !== form.passengers) onChange({ passengers: clamped.value });
  };
  return (
    <section aria-labelledby="extra-h" className="space-y-4">
      <h2 id="extra-h" className="text-lg font-semibold">추가 정보</h2>
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <label htmlFor="passengers" className="mb-1 block text-sm font-semibold">탑승 인원</label>
          <input
            id="passengers"
            type="number"
            inputMode="numeric"
            min={MIN_PASSENGERS}
            max={MAX_PASSENGERS}
            required
            aria-describedby={note ? 'passengers-hint passengers-note' : 'passengers-hint'}
            value={form.passengers}
            onChange={(e) => passengers(e.target.value, false)}
            onBlur={() => passengers(form.passengers, true)}
            className="field"
          />
          <p id="passengers-hint" className="mt-1 text-xs text-muted">{MIN_PASSENGERS}~{MAX_PASSENGERS}명</p>
          {note && <p id="passengers-note" role="status" className="mt-1 text-sm text-gold" data-testid="passengers-note">{note}</p>}
        </div>
        <div>
          <label htmlFor="purpose" className="mb-1 block text-sm font-semibold">이용 목적</label>
          <input id="purpose" list="purpose-options" maxLength={100} value={form.purpose} onChange={(e) => onChange({ purpose: e.target.value })} className="field" placeholder="예: 비즈니스 미팅" />
          <datalist id="purpose-options">
            {PURPOSES.map((p) => <option key={p} value={p} />)}
          </datalist>
        </div>
      </div>
      <div>
        <label htmlFor="flight-number" className="mb-1 block text-sm font-semibold">항공편명 (공항 픽업 시, 선택)</label>
        <input
          id="flight-number"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={MAX_FLIGHT_NUMBER + 3}
          aria-invalid={flightWrong || undefined}
          aria-describedby={flightWrong ? 'flight-hint flight-error' : 'flight-hint'}
          value={form.flightNumber}
          onChange={(e) => onChange({ flightNumber: e.target.value })}
          onBlur={settleFlight}
          className="field md:w-1/2"
          placeholder="예: KE123"
        />
        <p id="flight-hint" className="mt-1 text-xs text-muted">기사님이 도착 시각을 확인하고 맞춰 나갑니다.</p>
        {flightWrong && <p id="flight-error" role="alert" className="mt-1 text-sm text-red-700">{FLIGHT_NUMBER_MESSAGE}</p>}
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-semibold">기사 선호</legend>
        <div className="flex flex-wrap gap-2">
          {DRIVERS.map((d) => (
            <label key={d.value} className="flex cursor-pointer items-center gap-2 border border-line bg-white px-4 py-3 text-sm has-[:checked]:border-ink">
              <input type="radio" name="driver" value={d.value} checked={form.driver === d.value} onChange={() => onChange({ driver: d.value })} className="accent-ink" />
              {d.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor="memo" className="mb-1 block text-sm font-semibold">메모</label>
        <textarea id="memo" rows={3} maxLength={1000} value={form.memo} onChange={(e) => onChange({ memo: e.target.value })} className="field" placeholder="요청 사항을 남겨주세요" />
      </div>
    </section>
  );
}
