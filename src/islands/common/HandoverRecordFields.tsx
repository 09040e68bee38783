import type { HandoverRecordInput } from '../../domain/schemas/handover';

/** What the record form holds while typed (digits only for the numbers). */
export interface RecordDraft {
  km: string;
  fuel: string;
  notes: string;
}

export const EMPTY_RECORD: RecordDraft = { km: '', fuel: '', notes: '' };

/** The draft as the record API takes it, or the Korean reason it cannot be sent yet. */
export function recordBody(d: RecordDraft): { json: HandoverRecordInput } | { error: string } {
  const odometer = Number(d.km);
  const percent = Number(d.fuel);
  if (!d.km.trim() || !Number.isInteger(odometer) || odometer < 0) return { error: '주행거리를 km 단위 정수로 입력해주세요.' };
  if (!d.fuel.trim() || !Number.isInteger(percent) || percent < 0 || percent > 100) return { error: '연료(충전) 잔량을 0~100 사이로 입력해주세요.' };
  return { json: { odometer_km: odometer, fuel_percent: percent, notes: d.notes || null } };
}

/**
 * 인수 기록 fields (odometer km, fuel or charge %, notes): one component for the console's record
 * dialog and the driver's phone, so both ask the same and send the same body.
 */
export default function HandoverRecordFields({ value, onChange, phone = false }: { value: RecordDraft; onChange: (next: RecordDraft) => void; phone?: boolean }) {
  const input = phone ? 'mt-1 min-h-11 w-full border border-line px-3' : 'field mt-1';
  const area = phone ? 'mt-1 w-full border border-line px-3 py-2' : 'field mt-1';
  const digits = (s: string) => s.replace(/[^\d]/g, '');
  return (
    <>
      <label className="block">
        <span className="font-semibold">주행거리 (km)</span>
        <input type="text" inputMode="numeric" className={input} value={value.km} onChange={(e) => onChange({ ...value, km: digits(e.target.value) })} />
      </label>
      <label className="block">
        <span className="font-semibold">연료(충전) 잔량 (%)</span>
        <input type="text" inputMode="numeric" className={input} value={value.fuel} onChange={(e) => onChange({ ...value, fuel: digits(e.target.value) })} />
      </label>
      <label className="block">
        <span className="font-semibold">메모 (외관 상태 등)</span>
        <textarea className={area} rows={phone ? 2 : 3} maxLength={2000} value={value.notes} onChange={(e) => onChange({ ...value, notes: e.target.value })} />
      </label>
    </>
  );
}
