import { KOREA_OFFSET_MS } from './korea-time';

/** ISO 8601 date-times as the API reads them (see ./index.ts). */

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * An ISO 8601 date-time as an instant, or null when it is malformed or names a day or time that
 * does not exist (2026-02-30, 24:00). Without an offset it is read as Korean time (UTC+9).
 */
export function parseInstant(text: string): Date | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '0', zone] = m;
  const parts = [y, mo, d, h, mi, s].map(Number);
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const wall = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], ms);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== parts[0] || check.getUTCMonth() !== parts[1] - 1 || check.getUTCDate() !== parts[2] || parts[3] > 23 || parts[4] > 59 || parts[5] > 59) return null;
  let offset = KOREA_OFFSET_MS;
  if (zone && zone.toUpperCase() === 'Z') offset = 0;
  else if (zone) {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 14 || om > 59) return null;
    offset = sign * (oh * 60 + om) * 60_000;
  }
  return new Date(wall - offset);
}
