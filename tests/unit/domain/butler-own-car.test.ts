import { describe, expect, it } from 'vitest';
import { customerCarText, judgeOwnCar, normalizePlate, OWN_CAR_INSURANCE_MESSAGE, ownCarFees, PLATE_MESSAGE, quoteOwnCar } from '../../../src/domain/butler-own-car';

describe('normalizePlate', () => {
  it('accepts the 2- and 3-digit plates, with spaces or an old region prefix', () => {
    expect(normalizePlate('12가3456')).toBe('12가3456');
    expect(normalizePlate('123가4567')).toBe('123가4567');
    expect(normalizePlate(' 123 허 4567 ')).toBe('123허4567');
    expect(normalizePlate('서울12가3456')).toBe('서울12가3456');
    expect(normalizePlate('서울 12가 3456')).toBe('서울12가3456');
  });
  it('refuses what is not a plate', () => {
    for (const bad of ['', '1가3456', '1234가5678', '12A3456', '12가345', '12가34567', '가나12가3456', '12가3456a']) expect(normalizePlate(bad)).toBeNull();
  });
});

describe('quoteOwnCar', () => {
  it('charges the 8 included hours at least, then each started hour at the rate', () => {
    expect(ownCarFees(45_000)).toEqual({ butler_fee: 360_000, butler_overtime_fee: 45_000 });
    const short = quoteOwnCar(45_000, '2026-12-10T09:00:00+09:00', '2026-12-10T12:00:00+09:00', null, 0);
    expect(short).toMatchObject({ baseFee: 360_000, overtimeFee: 0, final: 360_000 });
    const long = quoteOwnCar(45_000, '2026-12-10T09:00:00+09:00', '2026-12-10T19:30:00+09:00', null, 10_000);
    expect(long).toMatchObject({ baseFee: 360_000, overtimeHours: 3, overtimeFee: 135_000, total: 495_000, final: 485_000 });
  });
});

describe('judgeOwnCar', () => {
  it('keeps the car with its plate normalised, and refuses a bad plate or no insurance statement', () => {
    expect(judgeOwnCar({ make_model: ' BMW  520i ', plate: '12 가 3456', insured: true })).toEqual({ ok: true, car: { kind: 'own', name: 'BMW 520i', plate: '12가3456', insured: true } });
    expect(judgeOwnCar({ make_model: 'BMW 520i', plate: 'ABC', insured: true })).toEqual({ ok: false, field: 'customer_car.plate', message: PLATE_MESSAGE });
    expect(judgeOwnCar({ make_model: 'BMW 520i', plate: '12가3456', insured: false })).toEqual({ ok: false, field: 'customer_car.insured', message: OWN_CAR_INSURANCE_MESSAGE });
    expect(judgeOwnCar({ make_model: 'B', plate: '12가3456', insured: true }).ok).toBe(false);
  });
  it('names the car for staff and the driver', () => {
    expect(customerCarText({ kind: 'own', name: 'BMW 520i', plate: '12가3456', insured: true })).toBe('고객 차량 BMW 520i · 12가3456');
    expect(customerCarText({ kind: 'subscription', subscription_id: 1, car_id: 2, name: 'Porsche 911', plate: null })).toBe('고객 차량 Porsche 911 (LUXE 구독 차량) · 번호 없음');
  });
});

describe('the own-car model as the pages state it', () => {
  it('GET /butlers/legal carries the rate under own-car only; the terms say which model runs', async () => {
    const { butlerLegalLines, legalAnswer } = await import('../../../src/domain/butler-legal');
    const p = { name: 'A', licence: 'B' };
    expect(legalAnswer('own-car', p, 50_000).own_car).toEqual({ hourly_rate: 50_000, min_hours: 8 });
    expect(legalAnswer('partner', p).own_car).toBeNull();
    expect(butlerLegalLines(legalAnswer('own-car', p, 50_000)).join(' ')).toMatch(/고객님의 차량.*시간당 50,000원.*최소 8시간.*누구나 운전/);
    expect(butlerLegalLines(legalAnswer('partner', p))[0]).toContain('운송: A (여객자동차운송사업 면허 B)');
    expect(butlerLegalLines(legalAnswer('exemptions', p))[0]).toContain('시행령 제18조');
  });
});
