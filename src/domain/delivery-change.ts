import { addDays, daysBetween } from './dates';
import { DELIVERY_WINDOW_LABEL, deliveryZone, type DeliveryWindow } from './subscription-price';
import { termEnd } from './subscriptions';

/**
 * 탁송 정보 변경 (issue 49): after ordering, the customer changes on /my the delivery address, its
 * window and the start date, until SUBSCRIPTION_CHANGE_CUTOFF_DAYS (default 2) days before the
 * start. The same rule for a request and a confirmed subscription.
 */

/** The 탁송 windows as the dispatch board books them (Korean wall-clock HH:MM, the labels' times). */
export const DELIVERY_WINDOW_TIMES: Record<DeliveryWindow, { start: string; end: string }> = {
  MORNING: { start: '09:00', end: '12:00' },
  AFTERNOON: { start: '13:00', end: '16:00' },
  EVENING: { start: '16:00', end: '19:00' },
};

/** The last day a change is accepted for a start on `start`. */
export const deliveryChangeDeadline = (start: string, cutoffDays: number) => addDays(start, -cutoffDays);

/** Why no change is accepted today (Korean, with the deadline date), or null. */
export function deliveryChangeClosed(start: string, today: string, cutoffDays: number): string | null {
  const deadline = deliveryChangeDeadline(start, cutoffDays);
  return today > deadline ? `탁송 정보는 구독 시작 ${cutoffDays}일 전인 ${deadline}까지만 변경할 수 있습니다. 변경이 필요하면 고객센터로 문의해주세요.` : null;
}

/** A new start must itself leave the cutoff: the first start one may move to today. */
export const earliestMovedStart = (today: string, cutoffDays: number) => addDays(today, Math.max(1, cutoffDays));

/** The end after the start moves: the term's natural end from the new start, or the same length when the end was set otherwise. */
export function movedEnd(start: string, end: string, months: number, newStart: string): string {
  return end === termEnd(start, months) ? termEnd(newStart, months) : addDays(end, daysBetween(start, newStart));
}

/** A new address in another 탁송 zone (서울·경기 or elsewhere) changes the 탁송비: refused online. */
export function zoneChangeRefusal(oldAddress: string | null, newAddress: string): string | null {
  if (!oldAddress || deliveryZone(oldAddress) === deliveryZone(newAddress)) return null;
  return '탁송 지역(서울·경기와 그 외 지역)이 바뀌면 탁송비가 달라져 온라인으로 변경할 수 없습니다. 고객센터로 문의해주세요.';
}

/** The change in Korean lines (the staff message, the audit). */
export function deliveryChangeLines(before: { address: string | null; window: DeliveryWindow | null; start: string }, after: { address: string | null; window: DeliveryWindow | null; start: string }): string[] {
  const out: string[] = [];
  if (before.start !== after.start) out.push(`시작일 ${before.start} → ${after.start}`);
  if (before.address !== after.address) out.push(`탁송 주소 ${before.address ?? '-'} → ${after.address ?? '-'}`);
  if (before.window !== after.window) out.push(`탁송 시간대 ${before.window ? DELIVERY_WINDOW_LABEL[before.window] : '-'} → ${after.window ? DELIVERY_WINDOW_LABEL[after.window] : '-'}`);
  return out;
}
