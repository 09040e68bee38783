import { describe, expect, it } from 'vitest';
import { splitVat, sumVat, vatLines } from '../../../src/domain/vat';

describe('splitVat', () => {
  it('splits a VAT-inclusive total the Korean way (공급가액 = round(total ÷ 1.1))', () => {
    expect(splitVat(11_000)).toEqual({ supply: 10_000, vat: 1_000, total: 11_000 });
    expect(splitVat(10_000)).toEqual({ supply: 9_091, vat: 909, total: 10_000 });
    expect(splitVat(550_000)).toEqual({ supply: 500_000, vat: 50_000, total: 550_000 });
    expect(splitVat(1)).toEqual({ supply: 1, vat: 0, total: 1 });
    expect(splitVat(0)).toEqual({ supply: 0, vat: 0, total: 0 });
  });

  it('always adds back to the total, and matches round(total / 1.1) on every small amount', () => {
    for (let t = 0; t <= 20_000; t++) {
      const s = splitVat(t);
      expect(s.supply + s.vat).toBe(t);
      expect(s.supply).toBe(Math.round(t / 1.1));
    }
  });

  it('splits a credit as the mirror of its charge', () => {
    expect(splitVat(-10_000)).toEqual({ supply: -9_091, vat: -909, total: -10_000 });
    expect(sumVat([splitVat(10_000), splitVat(-10_000)])).toEqual({ supply: 0, vat: 0, total: 0 });
  });

  it('refuses what is not whole won', () => {
    expect(() => splitVat(10.5)).toThrow(RangeError);
    expect(() => splitVat(Number.NaN)).toThrow(RangeError);
  });

  it('sums parts line by line and names the receipt lines', () => {
    expect(sumVat([splitVat(10_000), splitVat(10_000)])).toEqual({ supply: 18_182, vat: 1_818, total: 20_000 });
    expect(vatLines(330_000)).toEqual([{ label: '공급가액', amount: 300_000 }, { label: '부가세', amount: 30_000 }]);
  });
});
