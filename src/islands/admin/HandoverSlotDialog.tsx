import type { ReactNode } from 'react';
import { formatPhone } from '../../domain/accounts';
import type { Driver } from '../../domain/dispatch';
import type { BoardHandover } from '../../domain/handover';
import Dialog from '../checkout/Dialog';
import Alert from '../common/Alert';

/** A handover's slot as staff fill it: the driver, the day, the window and the place. */
export interface Slot {
  driverId: number | null;
  date: string;
  start: string;
  end: string;
  address: string;
}

/** The slot being moved, or a new one (the customer's choice where given, else 10:00–12:00 at the place given). */
export const slotOf = (c: BoardHandover | undefined, address: string | null = null, initial: Partial<Slot> = {}): Slot => ({
  driverId: c?.driver.id ?? null, date: c?.scheduled_date ?? initial.date ?? '', start: c?.window_start ?? initial.start ?? '10:00', end: c?.window_end ?? initial.end ?? '12:00',
  address: c?.address ?? address ?? initial.address ?? '',
});

/**
 * Both schedule dialogs: the slot's fields (the day only where staff choose it: a swap's is fixed),
 * the API's refusal, 일정 저장 and 닫기.
 */
export default function SlotDialog(props: {
  title: string; label: string; intro?: ReactNode; drivers: Driver[]; slot: Slot; onSlot: (slot: Slot) => void; withDate: boolean;
  error: string | null; busy: boolean; onSave: () => void; onClose: () => void;
}) {
  const { slot, onSlot } = props;
  const set = (patch: Partial<Slot>) => onSlot({ ...slot, ...patch });
  return (
    <Dialog open title={props.title} onClose={props.onClose}>
      <p className="text-sm text-muted">{props.label}</p>
      {props.intro}
      <div className="mt-3 space-y-3 text-sm">
        <label className="block">
          <span className="font-semibold">담당 기사</span>
          <select className="field mt-1" value={slot.driverId ?? ''} onChange={(e) => set({ driverId: e.target.value ? Number(e.target.value) : null })}>
            <option value="">선택해주세요</option>
            {props.drivers.filter((d) => d.active).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} · {formatPhone(d.phone)}
              </option>
            ))}
          </select>
        </label>
        {props.withDate && (
          <label className="block">
            <span className="font-semibold">날짜</span>
            <input type="date" className="field mt-1" value={slot.date} onChange={(e) => set({ date: e.target.value })} />
          </label>
        )}
        <div className="flex gap-2">
          <label className="block flex-1">
            <span className="font-semibold">시작</span>
            <input type="time" step={600} className="field mt-1" value={slot.start} onChange={(e) => set({ start: e.target.value })} />
          </label>
          <label className="block flex-1">
            <span className="font-semibold">종료</span>
            <input type="time" step={600} className="field mt-1" value={slot.end} onChange={(e) => set({ end: e.target.value })} />
          </label>
        </div>
        <label className="block">
          <span className="font-semibold">장소 (선택)</span>
          <input type="text" className="field mt-1" maxLength={300} value={slot.address} onChange={(e) => set({ address: e.target.value })} placeholder="예: 서울 강남구 테헤란로 152" />
        </label>
      </div>
      {props.error && <Alert className="mt-3">{props.error}</Alert>}
      <div className="mt-4 flex gap-2">
        <button type="button" className="btn-primary min-h-11 px-4 py-2" disabled={props.busy} onClick={props.onSave}>
          {props.busy ? '저장 중…' : '일정 저장'}
        </button>
        <button type="button" className="btn-outline min-h-11 px-4 py-2" onClick={props.onClose}>
          닫기
        </button>
      </div>
    </Dialog>
  );
}
