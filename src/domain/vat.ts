/**
 * 부가가치세 of an amount that includes it (prices here are VAT-inclusive won): the one split every
 * receipt, statement line and 전자세금계산서 uses. 부가가치세법 제30조: 10% of the 공급가액.
 * The Korean practice for an inclusive total: 공급가액 = round(total ÷ 1.1), 부가세 = total − 공급가액
 * (10,000원 → 9,091원 + 909원), so the two always add back to the total.
 */

export interface VatSplit {
  /** 공급가액 */
  supply: number;
  /** 부가세 */
  vat: number;
  /** 합계 (the amount charged) */
  total: number;
}

/** Splits a VAT-inclusive whole-won amount; a negative amount (a credit) splits as its mirror, so −x and x cancel exactly. */
export function splitVat(total: number): VatSplit {
  if (!Number.isSafeInteger(total)) throw new RangeError(`splitVat needs whole won, got ${total}`);
  if (total < 0) {
    const p = splitVat(-total);
    return { supply: -p.supply, vat: -p.vat, total };
  }
  // round(total × 10 / 11) in integers: no floating-point drift on large amounts.
  const supply = Math.floor((total * 20 + 11) / 22);
  return { supply, vat: total - supply, total };
}

/** The sum of splits, part by part (a statement's totals are the sum of its lines, never a split of the sum). */
export function sumVat(parts: readonly VatSplit[]): VatSplit {
  return parts.reduce((a, p) => ({ supply: a.supply + p.supply, vat: a.vat + p.vat, total: a.total + p.total }), { supply: 0, vat: 0, total: 0 });
}

/** The 공급가액 and 부가세 lines a receipt prints under its total. */
export function vatLines(total: number): { label: string; amount: number }[] {
  const s = splitVat(total);
  return [
    { label: '공급가액', amount: s.supply },
    { label: '부가세', amount: s.vat },
  ];
}
