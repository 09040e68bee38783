import { describe, expect, it } from 'vitest';
import {
  clampPassengers, defaultEnd, overtimeHours, overtimeRate, quoteButler, seatsFromSubModel, tripDays, tripProblems,
} from '../../../src/domain/butler';
import { calendarMonth, lastBookableDay } from '../../../src/domain/butler-calendar';
import { ButlerRequestUpdateSchema, ButlerReservationSchema } from '../../../src/domain/schemas/butler';
import { parseInstant } from '../../../src/domain/dates';

const kst = (date: string, time: string) => `${date}T${time}:00+09:00`;

describe('overtime', () => {
  const start = kst('2026-05-01', '09:00');
  it.each([
    ['8 h exactly', kst('2026-05-01', '17:00'), 0],
    ['8 h 01', kst('2026-05-01', '17:01'), 1],
    ['9 h', kst('2026-05-01', '18:00'), 1],
    ['10 h 30', kst('2026-05-01', '19:30'), 3],
    ['under 8 h', kst('2026-05-01', '12:00'), 0],
    ['an end before the start', kst('2026-05-01', '08:00'), 0],
    ['no end', null, 0],
    ['across midnight, 20 h', kst('2026-05-02', '05:00'), 12],
  ])('%s', (_n, end, hours) => {
    expect(overtimeHours(start, end)).toBe(hours);
  });

  it('an open trip ends 8 hours after its start', () => {
    expect(defaultEnd(start).toISOString()).toBe('2026-05-01T08:00:00.000Z');
  });

  it('rate: the car overtime fee, else 10% of the butler fee, floored', () => {
    expect(overtimeRate({ butler_fee: 1_200_000, butler_overtime_fee: 150_000 })).toBe(150_000);
    expect(overtimeRate({ butler_fee: 700_000, butler_overtime_fee: null })).toBe(70_000);
    expect(overtimeRate({ butler_fee: 755_555, butler_overtime_fee: null })).toBe(75_555);
    expect(overtimeRate({ butler_fee: 700_000, butler_overtime_fee: 0 })).toBe(0);
  });
});

describe('seats from the sub-model', () => {
  it.each([
    ['S 680 4MATIC (4인승)', 4],
    ['S580 7인승', 7],
    ['3.5 가솔린 (7인승)', 7],
    ['Series II (5인승)', 5],
    ['11인 리무진', 11],
    ['4 인', 4],
    ['AMG G 63', 4],
    ['0인', 4],
    ['', 4],
    [null, 4],
    [undefined, 4],
  ])('%s → %i', (sub, seats) => {
    expect(seatsFromSubModel(sub)).toBe(seats);
  });
});

describe('passenger count', () => {
  it.each([
    [1, 1], [20, 20], [5, 5], ['7', 7], [' 3 ', 3],
    [0, 1], [21, 1], [-2, 1], [2.5, 1], ['', 1], ['abc', 1], [null, 1], [undefined, 1], [Number.NaN, 1],
  ])('%s → %i', (input, n) => {
    expect(clampPassengers(input)).toBe(n);
  });
});

describe('calendar month', () => {
  const cells = calendarMonth(2026, 4, '2026-04-10', ['2026-04-15', '2026-03-30']);
  it('has 42 days starting on the Sunday on or before the 1st', () => {
    expect(cells).toHaveLength(42);
    expect(cells[0].date).toBe('2026-03-29');
    expect(new Date(`${cells[0].date}T00:00:00Z`).getUTCDay()).toBe(0);
    expect(cells[41].date).toBe('2026-05-09');
    expect(cells.filter((c) => c.inMonth)).toHaveLength(30);
    expect(cells.find((c) => c.date === '2026-04-01')).toMatchObject({ day: 1, inMonth: true });
  });
  it('past and reserved days cannot be selected; today and later free days can', () => {
    const at = (d: string) => cells.find((c) => c.date === d)!;
    expect(at('2026-04-09')).toMatchObject({ past: true, selectable: false });
    expect(at('2026-04-10')).toMatchObject({ past: false, reserved: false, selectable: true });
    expect(at('2026-04-15')).toMatchObject({ past: false, reserved: true, selectable: false });
    expect(at('2026-03-30')).toMatchObject({ past: true, reserved: true, selectable: false });
    expect(at('2026-05-09')).toMatchObject({ inMonth: false, selectable: true });
  });
  it('a month starting on a Sunday starts the grid on the 1st', () => {
    expect(calendarMonth(2026, 3, '2026-01-01', [])[0].date).toBe('2026-03-01');
    expect(calendarMonth(2026, 12, '2026-01-01', [])[0].date).toBe('2026-11-29');
  });
});

describe('trip days in Korean time', () => {
  it('a day trip covers its day', () => {
    expect(tripDays(kst('2026-05-01', '09:00'), kst('2026-05-01', '17:00'))).toEqual(['2026-05-01']);
  });
  it('crossing midnight in Korea covers both days, even when UTC stays on one', () => {
    // 20:00–02:00 KST is 11:00–17:00 UTC on one UTC day
    expect(tripDays(kst('2026-05-01', '20:00'), kst('2026-05-02', '02:00'))).toEqual(['2026-05-01', '2026-05-02']);
  });
  it('an instant late in the UTC evening is the next Korean day', () => {
    expect(tripDays('2026-05-01T16:00:00Z', '2026-05-01T20:00:00Z')).toEqual(['2026-05-02']);
  });
  it('an open end counts as start + 8 h', () => {
    expect(tripDays(kst('2026-05-01', '09:00'), null)).toEqual(['2026-05-01']);
    expect(tripDays(kst('2026-05-01', '18:00'), null)).toEqual(['2026-05-01', '2026-05-02']);
  });
  it('the longest trip (72 h) covers four days at most', () => {
    expect(tripDays(kst('2026-05-01', '00:00'), kst('2026-05-04', '00:00'))).toEqual(['2026-05-01', '2026-05-02', '2026-05-03', '2026-05-04']);
    expect(tripDays(kst('2026-05-01', '23:00'), kst('2026-05-04', '23:00'))).toHaveLength(4);
  });
  it('month and year ends', () => {
    expect(tripDays(kst('2026-12-31', '22:00'), kst('2027-01-01', '03:00'))).toEqual(['2026-12-31', '2027-01-01']);
  });
});

describe('quoteButler', () => {
  const car = { butler_fee: 700_000, butler_overtime_fee: null };
  const start = kst('2026-05-01', '09:00');
  const end = kst('2026-05-01', '19:30'); // 3 overtime hours × 70,000
  it('without a coupon: base + overtime, points last', () => {
    expect(quoteButler(car, start, end, null, 100_000)).toEqual({
      baseFee: 700_000, overtimeHours: 3, overtimeRate: 70_000, overtimeFee: 210_000, total: 910_000, couponDiscount: 0, points: 100_000, final: 810_000,
    });
  });
  it('PERCENTAGE floors on the total with overtime', () => {
    expect(quoteButler(car, start, end, { discount_type: 'PERCENTAGE', discount_rate: 15, discount: null }, 0)).toMatchObject({ couponDiscount: 136_500, final: 773_500 });
    expect(quoteButler({ butler_fee: 333_333, butler_overtime_fee: null }, start, null, { discount_type: 'PERCENTAGE', discount_rate: 10, discount: null }, 0).couponDiscount).toBe(33_333);
  });
  it('FIXED takes its amount, capped at the total', () => {
    expect(quoteButler(car, start, end, { discount_type: 'FIXED', discount_rate: null, discount: 50_000 }, 0)).toMatchObject({ couponDiscount: 50_000, final: 860_000 });
    expect(quoteButler(car, start, end, { discount_type: 'FIXED', discount_rate: null, discount: 5_000_000 }, 0)).toMatchObject({ couponDiscount: 910_000, final: 0 });
  });
  it('FREE takes the whole total including overtime', () => {
    expect(quoteButler(car, start, end, { discount_type: 'FREE', discount_rate: null, discount: null }, 0)).toMatchObject({ couponDiscount: 910_000, final: 0 });
  });
  it('the final price never goes below 0, and negative points count as none', () => {
    expect(quoteButler(car, start, null, { discount_type: 'FIXED', discount_rate: null, discount: 600_000 }, 200_000).final).toBe(0);
    expect(quoteButler(car, start, null, null, -10_000)).toMatchObject({ points: 0, final: 700_000 });
  });
  it('uses the car overtime fee when set', () => {
    expect(quoteButler({ butler_fee: 1_200_000, butler_overtime_fee: 150_000 }, start, end, null, 0)).toMatchObject({ overtimeFee: 450_000, total: 1_650_000 });
  });
});

describe('tripProblems', () => {
  const now = new Date('2026-05-01T00:00:00Z'); // 09:00 in Korea
  const fields = (t: Parameters<typeof tripProblems>[0]) => tripProblems(t, now).map((p) => p.field);
  it('accepts a future trip within the horizon', () => {
    expect(tripProblems({ start: kst('2026-05-01', '09:01'), end: kst('2026-05-01', '17:00') }, now)).toEqual([]);
    expect(lastBookableDay('2026-05-01')).toBe('2026-10-28');
    expect(fields({ start: kst('2026-10-28', '23:59'), end: null })).toEqual([]);
  });
  it('refuses a start now or in the past, and beyond 180 Korean days', () => {
    expect(tripProblems({ start: kst('2026-05-01', '09:00'), end: null }, now)).toEqual([{ field: 'start_at', message: '출발 시간은 현재 시각 이후로 선택해주세요.' }]);
    expect(tripProblems({ start: kst('2026-10-29', '00:00'), end: null }, now)).toEqual([{ field: 'start_at', message: '출발일은 오늘부터 180일 이내로 선택해주세요.' }]);
  });
  it('refuses an end not after the start and a trip over 72 hours', () => {
    expect(fields({ start: kst('2026-05-02', '09:00'), end: kst('2026-05-02', '09:00') })).toEqual(['end_at']);
    expect(fields({ start: kst('2026-05-02', '09:00'), end: kst('2026-05-05', '09:00') })).toEqual([]);
    expect(tripProblems({ start: kst('2026-05-02', '09:00'), end: kst('2026-05-05', '09:01') }, now)[0].message).toBe('이용 시간은 최대 72시간까지 예약할 수 있습니다.');
  });
  it('waypoint times lie between start and end (start + 8 h without an end); untimed waypoints pass', () => {
    const start = kst('2026-05-02', '09:00');
    const wps = [{ scheduled_time: kst('2026-05-02', '09:00') }, { scheduled_time: null }, { scheduled_time: kst('2026-05-02', '08:59') }, { scheduled_time: kst('2026-05-02', '17:00') }, { scheduled_time: kst('2026-05-02', '17:01') }];
    expect(fields({ start, end: null, waypoints: wps })).toEqual(['way_point_requests.2.scheduled_time', 'way_point_requests.4.scheduled_time']);
    expect(tripProblems({ start, end: kst('2026-05-02', '20:00'), waypoints: wps }, now, 'way_points').map((p) => p.field)).toEqual(['way_points.2.scheduled_time']);
  });
});

describe('butler payload schemas', () => {
  const base = { start_at: '2026-05-02T09:00:00+09:00', start_location: '서울역', end_location: '인천공항', billing_key: 'k' };
  it('parses instants strictly; no offset means Korean time', () => {
    expect(parseInstant('2026-05-02T09:00')?.toISOString()).toBe('2026-05-02T00:00:00.000Z');
    expect(parseInstant('2026-05-02T09:00:00.5Z')?.toISOString()).toBe('2026-05-02T09:00:00.500Z');
    expect(parseInstant('2026-05-02T09:00-0130')?.toISOString()).toBe('2026-05-02T10:30:00.000Z');
    for (const bad of ['2026-02-30T09:00', '2026-05-02T24:00', '2026-05-02', '2026-05-02 09:00', 'tomorrow', '2026-05-02T09:00+25:00', '']) expect(parseInstant(bad), bad).toBeNull();
  });
  it('reservation: defaults, blank waypoints dropped, empty strings become null', () => {
    const r = ButlerReservationSchema.parse({ ...base, end_at: '', memo: '  ', driver_preference: '', way_point_requests: [{ address: ' ', scheduled_time: null }, { address: ' 코엑스 ', scheduled_time: '' }] });
    expect(r).toMatchObject({ start_at: '2026-05-02T00:00:00.000Z', end_at: null, passenger_count: 1, memo: null, driver_preference: null, way_point_requests: [{ address: '코엑스', scheduled_time: null }] });
  });
  it('reservation: bounds and NUL bytes are refused with Korean messages', () => {
    const bad = ButlerReservationSchema.safeParse({ ...base, start_location: 'a\u0000', passenger_count: 21, purpose: 'x'.repeat(101), way_point_requests: Array.from({ length: 11 }, () => ({ address: 'a', scheduled_time: null })) });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(messages).toEqual(expect.arrayContaining([
      'start_location: 출발지에 사용할 수 없는 문자가 포함되어 있습니다.',
      'passenger_count: 탑승 인원은 1~20명으로 입력해주세요.',
      'purpose: 목적은 100자 이하로 입력해주세요.',
      'way_point_requests: 경유지는 최대 10곳까지 입력할 수 있습니다.',
    ]));
  });
  it('update: month and billing key accepted; left-out fields stay undefined; blank waypoint addresses refused', () => {
    const u = ButlerRequestUpdateSchema.parse({ month: 1, billing_key: 'temp', start_at: base.start_at, start_location: 'a', end_location: 'b' });
    expect(u).toMatchObject({ month: 1, billing_key: 'temp' });
    expect(u.end_at).toBeUndefined();
    expect(u.way_points).toBeUndefined();
    expect(u.description).toBeUndefined();
    expect(ButlerRequestUpdateSchema.parse({ ...u, end_at: null, way_points: null, description: '' })).toMatchObject({ end_at: null, way_points: [], description: null });
    const blank = ButlerRequestUpdateSchema.safeParse({ ...u, way_points: [{ address: ' ', scheduled_time: null }] });
    expect(blank.error!.issues[0]).toMatchObject({ path: ['way_points', 0, 'address'], message: '경유지 주소를 입력해주세요.' });
  });
});
