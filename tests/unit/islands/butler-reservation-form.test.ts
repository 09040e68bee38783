import { describe, expect, it } from 'vitest';
import type { ButlerCar } from '../../../src/domain/butler';
import type { CouponHolding } from '../../../src/domain/pricing';
import {
  couponList, EMPTY_FORM, formPricing, initialForm, instantOf, missingRequired, overlayPrefill, toPayload, wallTime, withStart,
} from '../../../src/islands/butler/reservation-form';
import { prefillFromSearch, prefillToSearch } from '../../../src/domain/butler-prefill';

const car = { id: 7, butler_fee: 1_200_000, butler_overtime_fee: 150_000 } as ButlerCar;
const holding = (id: number, coupon: Partial<CouponHolding['coupon']>, extra: Partial<CouponHolding> = {}): CouponHolding => ({
  id, is_valid: true, is_used: false,
  coupon: { id, name: `c${id}`, code: `C${id}`, description: null, service: 'BUTLER', discount_type: 'FIXED', discount_rate: null, discount: 50_000, min_price: null, max_price: null, valid_from: null, valid_to: null, ...coupon },
  ...extra,
});

describe('reservation form state', () => {
  it('starts tomorrow at 09:00 and ends 8 hours later', () => {
    const f = initialForm({}, '2026-12-31');
    expect([f.start, f.end]).toEqual(['2027-01-01T09:00', '2027-01-01T17:00']);
    expect(f.passengers).toBe('1');
  });

  it('takes a prefill from the fleet or the chat', () => {
    const f = initialForm({ carId: 3, date: '2026-12-03', time: '22:30', origin: 'A', destination: 'B', waypoints: ['W1', 'W2'], passengers: 5, purpose: 'P', memo: 'M' }, '2026-11-01');
    expect(f).toMatchObject({ carId: 3, start: '2026-12-03T22:30', end: '2026-12-04T06:30', startLocation: 'A', endLocation: 'B', passengers: '5', purpose: 'P', memo: 'M' });
    expect(f.waypoints.map((w) => w.address)).toEqual(['W1', 'W2']);
  });

  it('ends after the prefilled hours (a full day from the chat), over a fresh or a kept form', () => {
    expect(initialForm({ date: '2026-12-03', time: '09:00', hours: 12 }, '2026-11-01').end).toBe('2026-12-03T21:00');
    const kept = initialForm({ date: '2026-12-01', time: '10:00' }, '2026-11-01');
    expect(overlayPrefill(kept, { date: '2026-12-03', time: '09:00', hours: 12 }, '2026-11-01')).toMatchObject({ start: '2026-12-03T09:00', end: '2026-12-03T21:00' });
    expect(overlayPrefill(kept, { hours: 9.5 }, '2026-11-01').end).toBe('2026-12-01T19:30');
  });

  it('reads hours from a link only as quarter hours up to the longest trip', () => {
    expect(prefillFromSearch(prefillToSearch({ date: '2026-12-03', hours: 12 }))).toEqual({ date: '2026-12-03', hours: 12 });
    for (const bad of ['0', '-3', '73', '1e1x', '2.1', 'abc']) expect(prefillFromSearch(`hours=${bad}`).hours).toBeUndefined();
  });

  it('moves the end whenever the start changes, and keeps it while the start is unreadable', () => {
    const f = withStart({ ...EMPTY_FORM, end: '2026-01-01T00:00' }, '2026-05-05T23:00');
    expect(f.end).toBe('2026-05-06T07:00');
    expect(withStart(f, '').end).toBe('2026-05-06T07:00');
  });

  it('reads datetime-local values as Korean time', () => {
    expect(instantOf('2026-12-03T09:00')?.toISOString()).toBe('2026-12-03T00:00:00.000Z');
    expect(instantOf('')).toBeNull();
    expect(instantOf('2026-02-30T09:00')).toBeNull();
    expect(wallTime('2026-12-03T00:00:00Z')).toBe('2026-12-03T09:00');
  });

  it('needs a car, a start, both locations and passengers above 0', () => {
    const full = { ...initialForm({ carId: 1, origin: 'A', destination: 'B' }, '2026-11-01') };
    expect(missingRequired(full)).toBe(false);
    for (const broken of [{ carId: null }, { start: '' }, { startLocation: ' ' }, { endLocation: '' }, { passengers: '0' }, { passengers: '' }]) {
      expect(missingRequired({ ...full, ...broken })).toBe(true);
    }
  });

  it('builds the payload: ISO instants, blank waypoints dropped, passengers clamped, points only when used', () => {
    const f = {
      ...initialForm({ carId: 7, date: '2026-12-03', origin: ' A ', destination: 'B' }, '2026-11-01'),
      end: '',
      waypoints: [{ key: 1, address: ' W ', time: '2026-12-03T12:00' }, { key: 2, address: '  ', time: '' }, { key: 3, address: 'X', time: '' }],
      passengers: '25',
      driver: 'female' as const,
    };
    expect(toPayload(f, 4, 0)).toEqual({
      car_id: 7, start_at: '2026-12-03T00:00:00.000Z', start_location: 'A', end_at: null, end_location: 'B',
      way_point_requests: [{ address: 'W', scheduled_time: '2026-12-03T03:00:00.000Z' }, { address: 'X', scheduled_time: null }],
      passenger_count: 1, purpose: '', memo: '', flight_number: null, driver_preference: 'female', coupon_id: 4, point_amount: null,
    });
    expect(toPayload(f, null, 30_000).point_amount).toBe(30_000);
    // A flight number goes in its written form; a wrong one as typed (the form refuses it before sending).
    expect(toPayload({ ...f, flightNumber: ' oz 1085' }, null, 0).flight_number).toBe('OZ1085');
    expect(toPayload({ ...f, flightNumber: '대한항공' }, null, 0).flight_number).toBe('대한항공');
  });
});

describe('form pricing', () => {
  const form = { ...initialForm({ carId: 7, date: '2026-12-03', time: '10:00' }, '2026-11-01'), end: '2026-12-03T20:30' };

  it('quotes base + started overtime hours, coupon on the total, points last, all floored to steps', () => {
    const p = formPricing({ ...form, couponId: 1, points: '35000' }, car, [holding(1, {})], 100_000, '2026-11-01')!;
    expect(p.quote).toMatchObject({ baseFee: 1_200_000, overtimeHours: 3, overtimeFee: 450_000, total: 1_650_000, couponDiscount: 50_000, points: 30_000, final: 1_570_000 });
    expect(p.limit).toBe(100_000);
  });

  it('offers only valid, unused, in-period coupons whose min/max admit the base fee; a coupon that no longer fits is dropped', () => {
    const coupons = [
      holding(1, {}), holding(2, { min_price: 1_500_000 }), holding(3, { max_price: 1_000_000 }), holding(4, {}, { is_used: true }),
      holding(5, {}, { is_valid: false }), holding(6, { valid_to: '2026-10-31' }), holding(7, { min_price: 1_000_000, max_price: 1_200_000 }),
    ];
    const p = formPricing({ ...form, couponId: 2 }, car, coupons, 0, '2026-11-01')!;
    expect(p.usable.map((h) => h.id)).toEqual([1, 7]);
    expect(p.couponId).toBeNull();
    expect(p.quote.couponDiscount).toBe(0);
  });

  it('caps points at the balance and the price after the coupon; nothing without a car', () => {
    const cheap = { ...car, butler_fee: 45_000, butler_overtime_fee: null };
    const p = formPricing({ ...form, end: '', couponId: 1, points: '90000' }, cheap, [holding(1, { discount: 20_000 })], 500_000, '2026-11-01')!;
    expect([p.limit, p.points, p.quote.final]).toEqual([20_000, 20_000, 5_000]);
    expect(formPricing(form, null, [], 0, '2026-11-01')).toBeNull();
  });
});

describe('couponList', () => {
  it('accepts a list or one under coupons, user_coupons, items or list', () => {
    const list = [holding(1, {})];
    for (const data of [list, { coupons: list }, { user_coupons: list }, { items: list }, { list }]) expect(couponList(data)).toEqual(list);
    expect(couponList(null)).toEqual([]);
    expect(couponList({ coupons: 'x' })).toEqual([]);
  });
});
