import { useState } from 'react';
import type { Driver } from '../../domain/dispatch';
import type { BoardHandover } from '../../domain/handover';
import { call, client } from '../../client/api';
import { announceChange } from './admin-api';
import { dotDate } from '../../domain/dates';
import SlotDialog, { slotOf } from './HandoverSlotDialog';

/** What the pair dialog schedules: a CONFIRMED swap's pair, new or moved. */
export interface SwapTarget {
  subscriptionId: number;
  swapId: number;
  swapDate: string;
  label: string;
  address: string | null;
  current?: BoardHandover;
}

/**
 * 교체 배차: one driver and one window on the swap day for both the old car's return and the new
 * car's delivery (the day is the swap's: billing prorated it). The API checks the window once.
 */
export default function SwapScheduleDialog({ target, drivers, onClose, onDone }: { target: SwapTarget; drivers: Driver[]; onClose: () => void; onDone: (text: string) => void }) {
  const [slot, setSlot] = useState(() => slotOf(target.current, target.address));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const { driverId, start, end, address } = slot;
    if (driverId === null) return setError('담당 기사를 선택해주세요.');
    setBusy(true);
    const res = await call((o) =>
      client.admin.subscriptions[':id'].swaps[':swapId'].handovers.$post(
        { param: { id: String(target.subscriptionId), swapId: String(target.swapId) }, json: { driver_id: driverId, date: target.swapDate, window_start: start, window_end: end, address: address || null } },
        o,
      ),
    );
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    announceChange();
    onDone(`구독 #${target.subscriptionId}의 차량 교체(반납·인도) 일정을 ${dotDate(target.swapDate)} ${start}~${end}, ${res.data.handovers[0]?.driver.name ?? ''} 기사로 잡았습니다.`);
  };

  const intro = (
    <p className="mt-2 text-sm">
      교체일 <span className="font-semibold">{dotDate(target.swapDate)}</span> — 요금이 이 날짜로 정산되어 다른 날로 잡을 수 없습니다. 한 기사가 같은 시간대에 기존 차량을 반납받고 새 차량을 인도합니다.
    </p>
  );
  return <SlotDialog title="차량 교체 일정 (반납·인도)" label={target.label} intro={intro} drivers={drivers} slot={slot} onSlot={setSlot} withDate={false} error={error} busy={busy} onSave={() => void save()} onClose={onClose} />;
}
