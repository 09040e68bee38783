import { describe, expect, it } from 'vitest';
import { carOnDay, carSpans } from '../../../src/domain/swap-cars';

describe('carSpans', () => {
  it('is the order car over the whole term without swaps', () => {
    expect(carSpans('2027-01-10', '2027-07-09', 5, [])).toEqual([{ carId: 5, from: '2027-01-10', to: '2027-07-09' }]);
  });

  it('gives the swap day to both cars, in day order whatever the input order', () => {
    const swaps = [
      { fromCarId: 8, toCarId: 9, swapDate: '2027-05-01' },
      { fromCarId: 5, toCarId: 8, swapDate: '2027-03-15' },
    ];
    expect(carSpans('2027-01-10', '2027-07-09', 5, swaps)).toEqual([
      { carId: 5, from: '2027-01-10', to: '2027-03-15' },
      { carId: 8, from: '2027-03-15', to: '2027-05-01' },
      { carId: 9, from: '2027-05-01', to: '2027-07-09' },
    ]);
  });

  it('ignores a swap after an end moved earlier by an early exit', () => {
    expect(carSpans('2027-01-10', '2027-02-28', 5, [{ fromCarId: 5, toCarId: 8, swapDate: '2027-03-15' }])).toEqual([{ carId: 5, from: '2027-01-10', to: '2027-02-28' }]);
  });
});

describe('carOnDay', () => {
  const swaps = [{ fromCarId: 5, toCarId: 8, swapDate: '2027-03-15' }];
  it('is the old car before the swap day and the new one from it', () => {
    expect(carOnDay(5, swaps, '2027-03-14')).toBe(5);
    expect(carOnDay(5, swaps, '2027-03-15')).toBe(8);
    expect(carOnDay(5, [], '2027-03-15')).toBe(5);
  });
});
