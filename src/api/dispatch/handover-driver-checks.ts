import type { BusyWindow } from '../../domain/dispatch';
import type { Db } from '../db/client';
import type { drivers } from '../db/schema';
import { conflict, unprocessable } from '../errors';
import { clashingTrips } from './dispatch';
import { handoverClashes } from './handover-busy';

/**
 * What a delivery, a return and a swap's pair check of the driver they are given, after locking
 * the driver's row: working on the day (422), and free in the window with the dispatch buffer
 * around it, against butler trips and other handovers (409; `except`: the rows being moved).
 */
export function requireDriverWorking(driver: Pick<typeof drivers.$inferSelect, 'active' | 'daysOff'>, date: string): void {
  if (!driver.active) throw unprocessable('근무하지 않는 기사입니다. 기사 정보에서 근무 상태를 확인해주세요.', { driver_id: ['근무하지 않는 기사입니다.'] });
  if (driver.daysOff.includes(date)) throw unprocessable(`해당 기사의 휴무일입니다. (${date})`, { driver_id: [`휴무일: ${date}`] });
}

export async function requireDriverFree(tx: Db, driverId: number, window: BusyWindow, bufferMinutes: number, except: readonly number[]): Promise<void> {
  const trips = await clashingTrips(tx, { id: 0, startAt: window.from, endAt: window.to }, bufferMinutes, driverId);
  const others = await handoverClashes(tx, window, bufferMinutes, { driverId, exceptIds: except });
  if (trips.some((c) => c.sameTime)) throw conflict('해당 기사는 같은 시간대에 의전 운행이 배정되어 있습니다.');
  if (others.some((c) => c.sameTime)) throw conflict('해당 기사는 같은 시간대에 다른 탁송·반납 일정이 있습니다.');
  if (trips.length || others.length) throw conflict(`해당 기사의 앞뒤 일정과 간격이 ${bufferMinutes}분보다 짧습니다. 일정 사이에는 이동과 준비를 위해 ${bufferMinutes}분 이상이 필요합니다.`);
}
