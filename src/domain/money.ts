/**
 * The one place numbers are formatted for people (ESLint forbids toLocaleString and
 * Intl.NumberFormat elsewhere): whole numbers grouped by thousands, and money in won.
 */

/**
 * One formatter for every call: toLocaleString builds a new one each time (about 0.1 ms against
 * 3 µs here), which every car page paid dozens of times: an eighth of a full build's main thread
 * (docs/performance.md, issue 53).
 */
const WHOLE = new Intl.NumberFormat('ko-KR', { maximumFractionDigits: 0 });

/** A whole number with thousands separators and no decimals, e.g. 1,250,000 (points, km, counts). */
export function formatNumber(n: number): string {
  return WHOLE.format(Math.floor(n));
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

/** Korean units a typed amount may use after a number: 50만, 1억 2,000만, 5천. */
const WON_UNITS: Record<string, number> = { 억: 100_000_000, 만: 10_000, 천: 1_000 };

/**
 * A typed amount of won read exactly, or null when it cannot be: digits with or without thousands
 * separators ("500000", "500,000"), with Korean units after digits ("50만", "50만원", "1억 2,000만",
 * "5만 5천원"), and an optional 원. Anything else — Korean number words ("오십만원"), decimals, signs,
 * letters, a unit without digits, units out of order — is null: the console refuses it rather than
 * guess (a stripped "오십만원" once read as 0 and refunded everything, "50만" as 50).
 */
export function parseWon(text: string): number | null {
  // Spaces may part units ("5만 5천"), never digits ("500 50만" is not 50,050만).
  if (/[\d,]\s+[\d,]/.test(text)) return null;
  const s = text.replace(/\s+/g, '').replace(/원$/, '');
  if (!s) return null;
  const parts = s.match(/\d[\d,]*(?:억|만|천)?/g);
  if (!parts || parts.join('') !== s) return null;
  let total = 0;
  let lastUnit = Infinity;
  for (const [i, part] of parts.entries()) {
    const unitChar = /[억만천]$/.test(part) ? part.slice(-1) : '';
    const digits = unitChar ? part.slice(0, -1) : part;
    // Separators only as thousands groups: 500,000 yes, 5,00 or 50,,0 no.
    if (digits.includes(',') && !/^\d{1,3}(,\d{3})+$/.test(digits)) return null;
    const unit = unitChar ? WON_UNITS[unitChar] : 1;
    // Units go down (1억 2,000만 500), and a bare number only ends the amount.
    if (unit >= lastUnit || (!unitChar && i < parts.length - 1)) return null;
    lastUnit = unit;
    total += Number(digits.replace(/,/g, '')) * unit;
  }
  return Number.isSafeInteger(total) ? total : null;
}

/** One line of a charge's make-up: its name and signed won (a discount is negative). */
export interface PaymentLine {
  label: string;
  amount: number;
}
