/** Native Korean counting words (as used before 명, 시) and their values, longest first. */
const NATIVE_NUMBERS: ReadonlyArray<readonly [string, number]> = [
  ['스무', 20], ['스물', 20],
  ['열아홉', 19], ['열여덟', 18], ['열일곱', 17], ['열여섯', 16], ['열다섯', 15], ['열네', 14], ['열넷', 14], ['열세', 13], ['열셋', 13], ['열두', 12], ['열둘', 12], ['열한', 11], ['열하나', 11],
  ['아홉', 9], ['여덟', 8], ['일곱', 7], ['여섯', 6], ['다섯', 5],
  ['하나', 1], ['한', 1], ['둘', 2], ['두', 2], ['셋', 3], ['세', 3], ['석', 3], ['넷', 4], ['네', 4], ['열', 10],
];

/** Sino-Korean digits (일, 이, 삼 …) for the rare "삼 명". */
const SINO: Record<string, number> = { 일: 1, 이: 2, 삼: 3, 사: 4, 오: 5, 육: 6, 칠: 7, 팔: 8, 구: 9, 십: 10 };

/** Regex source matching one native counting word (longest first). */
export const NATIVE_SOURCE = NATIVE_NUMBERS.map(([w]) => w).join('|');

/** Value of a number written in digits, native Korean (세, 열두) or simple Sino-Korean (삼, 십이); null if none. */
export function koreanNumber(word: string): number | null {
  const w = word.trim();
  if (/^\d+$/.test(w)) return Number(w);
  for (const [name, value] of NATIVE_NUMBERS) if (w === name) return value;
  if (/^[일이삼사오육칠팔구십]+$/.test(w)) {
    // 십, 십이, 이십, 이십삼
    const m = w.match(/^([이삼사오육칠팔구])?(십)?([일이삼사오육칠팔구])?$/);
    if (!m) return null;
    if (!m[2]) return m[1] ? SINO[m[1]] : m[3] ? SINO[m[3]] : null;
    return (m[1] ? SINO[m[1]] : 1) * 10 + (m[3] ? SINO[m[3]] : 0);
  }
  return null;
}
