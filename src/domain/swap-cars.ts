/**
 * Which car a subscription holds on which days, once 차량 교체 (swap) exists (docs/decisions/swap.md).
 * On a swap's day the customer hands the old car back and receives the new one: the day belongs to
 * both cars (the old car's last day and the new car's first), so neither can be sold for it.
 * Only CONFIRMED swaps move the car; a PENDING one (its adjustment still being charged) reserves
 * the new car from its day like a hold, which the availability read decides, not this module.
 */
export interface SwapOfCars {
  fromCarId: number;
  toCarId: number;
  /** YYYY-MM-DD, the Korean day the cars change hands. */
  swapDate: string;
}

/** A car's days inside a subscription, both ends included. */
export interface CarSpan {
  carId: number;
  from: string;
  to: string;
}

const byDay = (swaps: readonly SwapOfCars[]) => [...swaps].sort((a, b) => (a.swapDate < b.swapDate ? -1 : a.swapDate > b.swapDate ? 1 : 0));

/**
 * The subscription's cars over its term [start, end]: the order's car until the first swap's day,
 * each swap's new car from its day to the next swap's day, the last to the end. Swaps after the end
 * (an early exit moved it) are ignored.
 */
export function carSpans(start: string, end: string, orderCarId: number, swaps: readonly SwapOfCars[]): CarSpan[] {
  const spans: CarSpan[] = [];
  let carId = orderCarId;
  let from = start;
  for (const s of byDay(swaps)) {
    if (s.swapDate > end || s.swapDate < start) continue;
    spans.push({ carId, from, to: s.swapDate });
    carId = s.toCarId;
    from = s.swapDate;
  }
  spans.push({ carId, from, to: end });
  return spans;
}

/** The car the customer drives on `day` (on a swap's day: the new one, from the handover on). */
export function carOnDay(orderCarId: number, swaps: readonly SwapOfCars[], day: string): number {
  let carId = orderCarId;
  for (const s of byDay(swaps)) if (s.swapDate <= day) carId = s.toCarId;
  return carId;
}
