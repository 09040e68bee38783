import { describe, expect, it } from 'vitest';
import { isCalendarDate } from '../../../src/domain/dates';
import { calendarDate, IdSchema, intField, MAX_INT } from '../../../src/domain/schemas/common';

describe('isCalendarDate', () => {
  it('accepts days that exist between 1900 and 2999', () => {
    for (const day of ['2024-02-29', '1900-01-01', '2999-12-31', '2026-11-30']) expect(isCalendarDate(day), day).toBe(true);
  });
  it('refuses impossible days, years whose term arithmetic would overflow, and other shapes', () => {
    for (const day of ['2024-02-30', '2023-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '0000-01-01', '1899-12-31', '3000-01-01', '9999-12-31', '2026-1-01', ' 2026-01-01', '2026-01-01T00:00', '']) {
      expect(isCalendarDate(day), day).toBe(false);
    }
  });
});

describe('shared zod helpers', () => {
  it('calendarDate answers in Korean', () => {
    const result = calendarDate('시작일').safeParse('2024-02-30');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toBe('시작일이 올바른 날짜가 아닙니다.');
  });
  it('intField and IdSchema stay inside int4', () => {
    expect(intField('값').safeParse(MAX_INT).success).toBe(true);
    expect(intField('값').safeParse(MAX_INT + 1).success).toBe(false);
    expect(intField('값').safeParse(-MAX_INT - 1).success).toBe(true);
    expect(intField('값').safeParse(-MAX_INT - 2).success).toBe(false);
    expect(IdSchema.safeParse('2147483647').data).toBe(MAX_INT);
    for (const id of ['2147483648', '0', '-1', '1.5', 'abc']) expect(IdSchema.safeParse(id).success, id).toBe(false);
  });
});
