/** Whole won with thousands separators and no decimals, e.g. 1,250,000. */
export function formatWon(amount: number): string {
  return Math.floor(amount).toLocaleString('ko-KR', { maximumFractionDigits: 0 });
}

/** An amount of money as every page reads it: whole won with separators and 원, e.g. 555,000원 (-30,000원 below zero). */
export function won(amount: number): string {
  return `${formatWon(amount)}원`;
}
