import { describe, expect, it } from 'vitest';
import { fuelLegs, fuelShortfall } from '../../../src/domain/fuel';
import { settle } from '../../../src/domain/settlement';

const names: Record<number, string> = { 1: 'BMW 520i 12가 3456', 2: 'Porsche Taycan 78나 9012', 3: 'Audi A6 34다 5678' };
const name = (id: number) => names[id] ?? '';

describe('fuel shortfall from the handover records', () => {
  it('one car: delivery minus return; a fuller return is no shortfall', () => {
    const legs = fuelLegs(1, [], [{ kind: 'DELIVERY', swapId: null, fuelPercent: 80 }, { kind: 'RETURN', swapId: null, fuelPercent: 60 }]);
    expect(fuelShortfall(legs, name)).toEqual({ percent: 20, arithmetic: '인도 80% → 반납 60%', missing: 0 });
    const fuller = fuelLegs(1, [], [{ kind: 'DELIVERY', swapId: null, fuelPercent: 50 }, { kind: 'RETURN', swapId: null, fuelPercent: 90 }]);
    expect(fuelShortfall(fuller).percent).toBe(0);
  });

  it('after a swap each car counts: the handed-back car’s drop at the swap is charged too', () => {
    const swaps = [{ id: 7, fromCarId: 1, toCarId: 2, swapDate: '2035-02-20' }];
    const legs = fuelLegs(1, swaps, [
      { kind: 'DELIVERY', swapId: null, fuelPercent: 100 },
      { kind: 'RETURN', swapId: 7, fuelPercent: 70 },
      { kind: 'DELIVERY', swapId: 7, fuelPercent: 90 },
      { kind: 'RETURN', swapId: null, fuelPercent: 95 },
    ]);
    expect(legs.map((l) => [l.carId, l.out, l.back])).toEqual([[1, 100, 70], [2, 90, 95]]);
    // The new car came back fuller: it does not pay for the old car's 30%.
    expect(fuelShortfall(legs, name)).toEqual({ percent: 30, arithmetic: 'BMW 520i 12가 3456 인도 100% → 교체 반납 70% (30%) + Porsche Taycan 78나 9012 교체 인도 90% → 반납 95% (0%)', missing: 0 });
  });

  it('two swaps in either order of the list; a leg without a record is not counted and says so', () => {
    const swaps = [{ id: 9, fromCarId: 2, toCarId: 3, swapDate: '2035-05-01' }, { id: 7, fromCarId: 1, toCarId: 2, swapDate: '2035-02-20' }];
    const legs = fuelLegs(1, swaps, [
      { kind: 'RETURN', swapId: 7, fuelPercent: 70 },
      { kind: 'DELIVERY', swapId: 7, fuelPercent: 90 },
      { kind: 'RETURN', swapId: 9, fuelPercent: 80 },
      { kind: 'DELIVERY', swapId: 9, fuelPercent: 100 },
      { kind: 'RETURN', swapId: null, fuelPercent: 75 },
    ]);
    const s = fuelShortfall(legs, name);
    expect([s.percent, s.missing]).toEqual([10 + 25, 1]);
    expect(s.arithmetic.startsWith('BMW 520i 12가 3456 인도·교체 반납 기록 없음 + ')).toBe(true);
  });

  it('the settlement line shows the records’ arithmetic', () => {
    const s = settle({ deposit: 0, overage: 0, overagePaid: 0, damages: [], deductible: 500_000, fuelShortfallPercent: 20, fuelArithmetic: '인도 80% → 반납 60%' });
    expect(s.lines).toEqual([{ kind: 'FUEL', label: '연료·충전 부족', amount: 60_000, detail: '인도 80% → 반납 60% = 20% × 1%당 3,000원' }]);
  });
});
