import { describe, expect, it } from 'vitest';
import { normalizeFlightNumber } from '../../../src/domain/flights';
import { ButlerReservationSchema, ButlerRequestUpdateSchema } from '../../../src/domain/schemas/butler';

describe('flight numbers', () => {
  it('takes the airline code and number as airlines print them', () => {
    expect(normalizeFlightNumber('KE123')).toBe('KE123');
    expect(normalizeFlightNumber('OZ1085')).toBe('OZ1085');
    expect(normalizeFlightNumber('7C1101')).toBe('7C1101');
    expect(normalizeFlightNumber('lj 201')).toBe('LJ201');
    expect(normalizeFlightNumber(' ze-0561 ')).toBe('ZE561');
    expect(normalizeFlightNumber('B61')).toBe('B61'); // JetBlue (B6) flight 1
    expect(normalizeFlightNumber('K1')).toBeNull();
    expect(normalizeFlightNumber('KE12345')).toBeNull();
    expect(normalizeFlightNumber('12345')).toBeNull();
    expect(normalizeFlightNumber('KEA123')).toBeNull();
    expect(normalizeFlightNumber('')).toBeNull();
  });

  const base = { start_at: '2031-01-01T09:00:00+09:00', start_location: '인천공항 제1터미널', end_location: '서울역', billing_key: 'k' };

  it('is optional on the booking; blank is none; a bad one is refused in Korean on its field', () => {
    expect(ButlerReservationSchema.parse(base).flight_number).toBeNull();
    expect(ButlerReservationSchema.parse({ ...base, flight_number: '' }).flight_number).toBeNull();
    expect(ButlerReservationSchema.parse({ ...base, flight_number: 'oz 1085' }).flight_number).toBe('OZ1085');
    const bad = ButlerReservationSchema.safeParse({ ...base, flight_number: '대한항공' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0].path).toEqual(['flight_number']);
    expect(bad.error!.issues[0].message).toMatch(/항공편명/);
  });

  it('an edit keeps it when left out and clears it with null', () => {
    const edit = { start_at: base.start_at, start_location: base.start_location, end_location: base.end_location };
    expect(ButlerRequestUpdateSchema.parse(edit).flight_number).toBeUndefined();
    expect(ButlerRequestUpdateSchema.parse({ ...edit, flight_number: null }).flight_number).toBeNull();
    expect(ButlerRequestUpdateSchema.parse({ ...edit, flight_number: '7c1101' }).flight_number).toBe('7C1101');
  });
});
