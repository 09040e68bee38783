/** Whole won with thousands separators and no decimals, e.g. 1,250,000. */
export function formatWon(amount: number): string {
  return Math.floor(amount).toLocaleString('ko-KR', { maximumFractionDigits: 0 });
}
