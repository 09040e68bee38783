/**
 * The one place numbers are formatted for people (ESLint forbids toLocaleString and
 * Intl.NumberFormat elsewhere): whole numbers grouped by thousands, and money in won.
 */

/** A whole number with thousands separators and no decimals, e.g. 1,250,000 (points, km, counts). */
export function formatNumber(n: number): string {
  return Math.floor(n).toLocaleString('ko-KR', { maximumFractionDigits: 0 });
}

/** Whole won with thousands separators and no decimals, e.g. 1,250,000. */
export const formatWon = formatNumber;

/** An amount of money as every page reads it: whole won with separators and 원, e.g. 555,000원 (-30,000원 below zero). */
export function won(amount: number): string {
  return `${formatWon(amount)}원`;
}

/** Won with the ₩ sign, e.g. ₩555,000: only the home card price the spec spells so ('₩{fee}/월'). */
export function wonSign(amount: number): string {
  return `₩${formatWon(amount)}`;
}
