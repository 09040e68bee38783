import { useState } from 'react';
import type { Driver } from '../../domain/dispatch';
import { HANDOVER_KIND_LABEL, type BoardHandover, type HandoverKind, type OpenHandover } from '../../domain/handover';
import { DELIVERY_WINDOW_TIMES } from '../../domain/delivery-change';
import { call, client } from '../../client/api';
import { announceChange } from './admin-api';
import { dotDate } from '../../domain/dates';
import SlotDialog, { slotOf, type Slot } from './HandoverSlotDialog';

/** What the schedule dialog is for: a subscription's delivery or return, new or moved. */
export interface ScheduleTarget {
  subscriptionId: number;
  kind: HandoverKind;
  label: string;
  current?: BoardHandover;
  /** A new slot's start: what the customer chose with the order (day, window, place). */
  initial?: Partial<Slot>;
}

/**
 * A new delivery starts on the order's start day in the window and at the address the customer
 * chose (as changed on /my); a return on the end day at that address. Staff may change any of it.
 */
export function initialSlot(o: OpenHandover, kind: HandoverKind): Partial<Slot> {
  const c = o.choice;
  const times = kind === 'DELIVERY' && c?.window ? DELIVERY_WINDOW_TIMES[c.window] : null;
  return { date: kind === 'DELIVERY' ? o.start_date : o.end_date, ...(times ?? {}), address: c?.address ?? '' };
}

/** 탁송·반납 일정: driver, day, window and place of a subscription's delivery or return. The API checks the driver's other trips under a lock. */
export default function ScheduleDialog({ target, drivers, onClose, onDone }: { target: ScheduleTarget; drivers: Driver[]; onClose: () => void; onDone: (text: string) => void }) {
  const [slot, setSlot] = useState(() => slotOf(target.current, null, target.initial));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const kind = HANDOVER_KIND_LABEL[target.kind];

  const save = async () => {
    const { driverId, date, start, end, address } = slot;
    if (driverId === null) return setError('담당 기사를 선택해주세요.');
    if (!date) return setError('날짜를 선택해주세요.');
    setBusy(true);
    const res = await call((o) =>
      client.admin.subscriptions[':id'].handovers.$post({ param: { id: String(target.subscriptionId) }, json: { kind: target.kind, driver_id: driverId, date, window_start: start, window_end: end, address: address || null } }, o),
    );
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    announceChange();
    onDone(`구독 #${target.subscriptionId}의 ${kind} 일정을 ${dotDate(date)} ${start}~${end}, ${res.data.handover.driver.name} 기사로 잡았습니다.`);
  };

  return <SlotDialog title={`${kind} 일정`} label={target.label} drivers={drivers} slot={slot} onSlot={setSlot} withDate error={error} busy={busy} onSave={() => void save()} onClose={onClose} />;
}
