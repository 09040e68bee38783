import { describe, expect, it } from 'vitest';
import { averageScore, driverSuits, driverWindow, showsDispatch, TRIP_STAGE_LABEL, tripStage, unassignedAlertAt, windowsOverlap } from '../../../src/domain/dispatch';

const kst = (date: string, time: string) => `${date}T${time}:00+09:00`;
const at = (date: string, time: string) => new Date(kst(date, time));

describe('tripStage', () => {
  const trip = { status: 'CONFIRMED' as const, driver_id: null as number | null, start_at: kst('2026-05-01', '09:00'), actual_start_at: null as string | null, actual_end_at: null as string | null };
  const before = at('2026-04-30', '12:00');

  it.each([
    ['no driver', {}, before, 'RECEIVED'],
    ['no driver, past the start', {}, at('2026-05-01', '10:00'), 'RECEIVED'],
    ['a driver, before the start', { driver_id: 1 }, before, 'DISPATCHED'],
    ['a driver, at the start', { driver_id: 1 }, at('2026-05-01', '09:00'), 'IN_PROGRESS'],
    ['a driver, started early', { driver_id: 1, actual_start_at: kst('2026-05-01', '08:30') }, before, 'IN_PROGRESS'],
    ['finished', { driver_id: 1, actual_start_at: kst('2026-05-01', '09:00'), actual_end_at: kst('2026-05-01', '17:00') }, before, 'COMPLETED'],
    ['cancelled with a driver', { status: 'CANCELLED' as const, driver_id: 1 }, before, 'CANCELLED'],
    ['pending with a driver', { status: 'PENDING' as const, driver_id: 1 }, before, 'DISPATCHED'],
  ])('%s', (_n, patch, now, stage) => {
    expect(tripStage({ ...trip, ...patch }, now)).toBe(stage);
  });

  it('labels every stage in Korean', () => {
    expect(TRIP_STAGE_LABEL.DISPATCHED).toBe('배차 완료');
    expect(TRIP_STAGE_LABEL.IN_PROGRESS).toBe('운행 중');
  });
});

describe('driverWindow and windowsOverlap', () => {
  it('pads the trip by the buffer on both sides', () => {
    const w = driverWindow(kst('2026-05-01', '09:00'), kst('2026-05-01', '18:00'), 60);
    expect(w.from).toEqual(at('2026-05-01', '08:00'));
    expect(w.to).toEqual(at('2026-05-01', '19:00'));
  });

  it('an open trip lasts the included 8 hours', () => {
    expect(driverWindow(kst('2026-05-01', '09:00'), null, 0).to).toEqual(at('2026-05-01', '17:00'));
  });

  it('windows that only touch do not overlap; one minute more does', () => {
    const a = driverWindow(kst('2026-05-01', '09:00'), kst('2026-05-01', '12:00'), 60); // 08:00–13:00
    const touching = driverWindow(kst('2026-05-01', '14:00'), kst('2026-05-01', '16:00'), 60); // 13:00–17:00
    const closer = driverWindow(kst('2026-05-01', '13:59'), kst('2026-05-01', '16:00'), 60);
    expect(windowsOverlap(a, touching)).toBe(false);
    expect(windowsOverlap(touching, a)).toBe(false);
    expect(windowsOverlap(a, closer)).toBe(true);
    expect(windowsOverlap(closer, a)).toBe(true);
  });

  it('without a buffer, back-to-back trips fit', () => {
    const a = driverWindow(kst('2026-05-01', '09:00'), kst('2026-05-01', '12:00'), 0);
    const b = driverWindow(kst('2026-05-01', '12:00'), kst('2026-05-01', '15:00'), 0);
    expect(windowsOverlap(a, b)).toBe(false);
  });

  it('a window inside another overlaps', () => {
    const outer = driverWindow(kst('2026-05-01', '09:00'), kst('2026-05-01', '20:00'), 0);
    const inner = driverWindow(kst('2026-05-01', '12:00'), kst('2026-05-01', '13:00'), 0);
    expect(windowsOverlap(outer, inner)).toBe(true);
    expect(windowsOverlap(inner, outer)).toBe(true);
  });
});

describe('driverSuits', () => {
  const driver = { active: true, gender: 'male' as const, days_off: [] as string[] };
  const trip = { start_at: kst('2026-05-01', '09:00'), end_at: kst('2026-05-01', '18:00'), driver_preference: null as string | null };

  it.each([
    [null, true],
    ['', true],
    ['any', true],
    ['male', true],
    ['female', false],
  ])('preference %s for a male driver → %s', (pref, fits) => {
    expect(driverSuits(driver, { ...trip, driver_preference: pref })).toBe(fits);
  });

  it('an inactive driver suits nothing', () => {
    expect(driverSuits({ ...driver, active: false }, trip)).toBe(false);
  });

  it('a day off on any day the trip covers rules the driver out', () => {
    const overnight = { ...trip, end_at: kst('2026-05-02', '02:00') };
    expect(driverSuits({ ...driver, days_off: ['2026-05-02'] }, overnight)).toBe(false);
    expect(driverSuits({ ...driver, days_off: ['2026-05-02'] }, trip)).toBe(true);
    expect(driverSuits({ ...driver, days_off: ['2026-05-01'] }, trip)).toBe(false);
  });

  it('days are Korean: 08:00 in Korea is still the previous day in UTC', () => {
    const early = { start_at: kst('2026-05-01', '06:00'), end_at: kst('2026-05-01', '08:00'), driver_preference: null };
    expect(driverSuits({ ...driver, days_off: ['2026-04-30'] }, early)).toBe(true);
    expect(driverSuits({ ...driver, days_off: ['2026-05-01'] }, early)).toBe(false);
  });
});

describe('showsDispatch', () => {
  const start = kst('2026-05-10', '09:00');
  it.each([
    ['two days before, late evening', at('2026-05-08', '23:59'), false],
    ['the day before, just after midnight in Korea', at('2026-05-09', '00:00'), true],
    ['the trip day', at('2026-05-10', '08:00'), true],
    ['after the trip', at('2026-05-12', '08:00'), true],
    ['five days before', at('2026-05-05', '12:00'), false],
  ])('%s → %s', (_n, now, shows) => {
    expect(showsDispatch(start, now)).toBe(shows);
  });

  it('uses the Korean day of the start, not the UTC one', () => {
    // 2026-05-10 01:00 in Korea is 2026-05-09 in UTC: the day before is 2026-05-09 in Korea.
    const early = kst('2026-05-10', '01:00');
    expect(showsDispatch(early, at('2026-05-08', '23:00'))).toBe(false);
    expect(showsDispatch(early, at('2026-05-09', '00:30'))).toBe(true);
  });
});

describe('driver rating average', () => {
  it('is the mean to one decimal, rounding half up; none without ratings', () => {
    expect(averageScore(17, 4)).toBe(4.3);
    expect(averageScore(5, 1)).toBe(5);
    expect(averageScore(13, 3)).toBe(4.3);
    expect(averageScore(11, 3)).toBe(3.7);
    expect(averageScore(0, 0)).toBeNull();
  });
});

describe('unassignedAlertAt: when staff hear of a trip with no driver', () => {
  it('17:00 in Korea the evening before, and 07:00 on the day or 2 hours before an earlier start', () => {
    expect(unassignedAlertAt(at('2027-03-10', '10:00'), 'eve')).toEqual(at('2027-03-09', '17:00'));
    expect(unassignedAlertAt(at('2027-03-10', '10:00'), 'day')).toEqual(at('2027-03-10', '07:00'));
    expect(unassignedAlertAt(at('2027-03-10', '06:30'), 'day')).toEqual(at('2027-03-10', '04:30'));
    // A trip just after midnight in Korea (the previous day in UTC) is judged by its Korean day.
    expect(unassignedAlertAt(at('2027-03-10', '00:30'), 'eve')).toEqual(at('2027-03-09', '17:00'));
  });
});
