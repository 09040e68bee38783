import { describe, expect, it } from 'vitest';
import { calendarHtml, shiftMonth } from '../../../src/page-scripts/fleet-calendar';

const days = (html: string) => [...html.matchAll(/<button type="button" data-day="([\d-]+)"([^>]*)>/g)].map((m) => ({ date: m[1], disabled: /\sdisabled\s/.test(m[2]), attrs: m[2] }));

describe('fleet calendar', () => {
  it('shows 42 days; past, reserved and beyond-180-day days are disabled', () => {
    const html = calendarHtml({ year: 2026, month: 11, reserved: ['2026-11-25'], selected: '2026-11-27' }, '2026-11-23');
    const cells = days(html);
    expect(cells).toHaveLength(42);
    expect(cells[0].date).toBe('2026-11-01');
    const by = (d: string) => cells.find((c) => c.date === d)!;
    expect(by('2026-11-22').disabled).toBe(true);
    expect(by('2026-11-22').attrs).toContain('data-past');
    expect(by('2026-11-23').disabled).toBe(false);
    expect(by('2026-11-25').disabled).toBe(true);
    expect(by('2026-11-25').attrs).toContain('aria-label="11월 25일 예약 마감"');
    expect(by('2026-11-27').attrs).toContain('aria-pressed="true"');
    expect(html).toContain('2026년 11월');
    expect(html).toMatch(/data-month="prev" disabled/);

    const far = days(calendarHtml({ year: 2027, month: 5, reserved: [], selected: null }, '2026-11-23'));
    expect(far.find((c) => c.date === '2027-05-22')!.disabled).toBe(false);
    expect(far.find((c) => c.date === '2027-05-23')!.disabled).toBe(true);
  });

  it('steps months across years', () => {
    expect(shiftMonth(2026, 12, 1)).toEqual({ year: 2027, month: 1 });
    expect(shiftMonth(2027, 1, -1)).toEqual({ year: 2026, month: 12 });
  });
});
