import type { SwapOfCars } from './swap-cars';

/**
 * 연료·충전 부족 at the return (issue 49): computed from the handover records, never typed by hand.
 * Each car the customer held is one leg: its fuel (or charge, percent) recorded when it was handed
 * over (the delivery, or a swap's delivery of the new car) and when it came back (a swap's return of
 * the old car, or the final return). The shortfall is the sum over the legs of what each car came
 * back short (a car returned fuller counts 0, never a credit against another car). A leg missing
 * either record is not counted and says so (readings typed without a handover record have no fuel).
 */

/** A recorded handover as the rule reads it: its kind, its swap (null: the subscription's own), its fuel. */
export interface FuelRecord {
  kind: 'DELIVERY' | 'RETURN';
  swapId: number | null;
  fuelPercent: number;
}

/** One car's stretch with the customer (percent; null: not recorded). */
export interface FuelLeg {
  carId: number;
  out: number | null;
  back: number | null;
  /** "인도" or "교체 인도"; "반납" or "교체 반납". */
  outLabel: string;
  backLabel: string;
}

export interface FuelShortfall {
  /** The percent charged: the legs' shortfalls summed. */
  percent: number;
  /** "인도 80% → 반납 60%"; with swaps each car named and its share in brackets, joined by " + ". */
  arithmetic: string;
  /** Legs that lacked a record (not counted). */
  missing: number;
}

/** The legs of a subscription's cars in order: the order's car, then each CONFIRMED swap's new car. */
export function fuelLegs(orderCarId: number, swaps: readonly (SwapOfCars & { id: number })[], records: readonly FuelRecord[]): FuelLeg[] {
  const ordered = [...swaps].sort((a, b) => (a.swapDate < b.swapDate ? -1 : a.swapDate > b.swapDate ? 1 : a.id - b.id));
  const find = (kind: FuelRecord['kind'], swapId: number | null) => records.find((r) => r.kind === kind && r.swapId === swapId)?.fuelPercent ?? null;
  const legs: FuelLeg[] = [];
  let carId = orderCarId;
  let out = find('DELIVERY', null);
  let outLabel = '인도';
  for (const s of ordered) {
    legs.push({ carId, out, back: find('RETURN', s.id), outLabel, backLabel: '교체 반납' });
    carId = s.toCarId;
    out = find('DELIVERY', s.id);
    outLabel = '교체 인도';
  }
  legs.push({ carId, out, back: find('RETURN', null), outLabel, backLabel: '반납' });
  return legs;
}

/** The shortfall over the legs; `carName` names each car when there is more than one. */
export function fuelShortfall(legs: readonly FuelLeg[], carName: (carId: number) => string = () => ''): FuelShortfall {
  const many = legs.length > 1;
  let percent = 0;
  let missing = 0;
  const parts = legs.map((l) => {
    const name = many && carName(l.carId) ? `${carName(l.carId)} ` : '';
    if (l.out === null || l.back === null) {
      missing += 1;
      return `${name}${l.outLabel}·${l.backLabel} 기록 없음`;
    }
    const short = Math.max(0, l.out - l.back);
    percent += short;
    return `${name}${l.outLabel} ${l.out}% → ${l.backLabel} ${l.back}%${many ? ` (${short}%)` : ''}`;
  });
  return { percent, arithmetic: parts.join(' + '), missing };
}
