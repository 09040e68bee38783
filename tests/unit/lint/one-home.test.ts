import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One home per rule (issue 51): the dotted day (dotDate), Korean time's offset (KOREA_OFFSET_MS)
 * and spans in words (durationText, elapsedText, agoText) live in src/domain/dates alone. A new copy anywhere else in src fails here.
 */
const SRC = path.join(process.cwd(), 'src');
const HOME = path.join(SRC, 'domain', 'dates');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return full === HOME ? [] : sources(full);
    return /\.(tsx?|astro)$/.test(name) ? [full] : [];
  });
}

const COPIES: [string, RegExp][] = [
  ['a day printed with dots (use dotDate)', /\.replace(All)?\(\s*(\/-\/g|'-')\s*,\s*'\.'\s*\)/],
  ["Korean time's offset (use KOREA_OFFSET_MS or koreaDate/koreaTime)", /\b9\s*\*\s*(3600_?000|3_600_000|60\s*\*\s*60)\b|\b32_?400_?000\b/],
  ['a span in words (use durationText, elapsedText or agoText)', /\}시간\s*\$\{[^\n]*\}분|\}(분|초) 전/],
];

describe('one home for the date rules', () => {
  const files = sources(SRC);
  for (const [what, pattern] of COPIES) {
    it(`no copy of ${what} outside src/domain/dates`, () => {
      const found = files.filter((f) => pattern.test(readFileSync(f, 'utf8'))).map((f) => path.relative(process.cwd(), f));
      expect(found).toEqual([]);
    });
  }

  it('the patterns catch the copies that were there', () => {
    expect(COPIES[0][1].test("day.replace(/-/g, '.')")).toBe(true);
    expect(COPIES[0][1].test("date.replaceAll('-', '.')")).toBe(true);
    expect(COPIES[1][1].test('at.getTime() + 9 * 3600_000')).toBe(true);
    expect(COPIES[2][1].test('`${Math.floor(m / 60)}시간 ${m % 60}분`')).toBe(true);
    expect(COPIES[2][1].test("`${Math.floor(m / 60)}시간${m % 60 ? ` ${m % 60}분` : ''}`")).toBe(true);
    expect(COPIES[2][1].test('`${Math.floor(s / 60)}분 전`')).toBe(true);
    // Not a span: a clock time, a count of hours alone.
    expect(COPIES[2][1].test("`${half} ${h12}시${min ? ` ${min}분` : ''}`")).toBe(false);
    expect(COPIES[2][1].test('`초과 ${c.overtime_hours}시간`')).toBe(false);
  });
});
