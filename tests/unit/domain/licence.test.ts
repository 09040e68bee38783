import { describe, expect, it } from 'vitest';
import { driverBand, licenceRuleLines, formatLicenceNumber, handoverLicenceRefusal, LICENCE_REFUSAL, maskLicenceNumber, normalizeLicenceNumber, type OrderDriver } from '../../../src/domain/licence';

const adult: OrderDriver = { name: '김운전', birth_date: '1990-03-15', status: 'VALID', first_issued_on: '2010-03-01', expires_on: '2035-12-31' };
const START = '2027-01-10';

describe('licence numbers', () => {
  it('reads twelve digits with dashes or the region written out, and refuses anything else', () => {
    expect(normalizeLicenceNumber('11-23-123456-01')).toBe('112312345601');
    expect(normalizeLicenceNumber(' 서울 23-123456-01 ')).toBe('112312345601');
    expect(normalizeLicenceNumber('경기북부 23 123456 01')).toBe('282312345601');
    expect(normalizeLicenceNumber('경기 23-123456-01')).toBe('132312345601');
    for (const bad of ['', '11-23-12345-01', '99-23-123456-01', '11-23-123456-011', 'AB-23-123456-01', '부평 23-123456-01']) expect(normalizeLicenceNumber(bad), bad).toBeNull();
  });

  it('is written back with dashes, and shown again only as region and year', () => {
    expect(formatLicenceNumber('112312345601')).toBe('11-23-123456-01');
    expect(maskLicenceNumber('112312345601')).toBe('11-23-******-**');
  });
});

describe('driverBand: the age band from the checked drivers on the start', () => {
  it('26+ when every driver is 만 26세 or older; 21~25 with anyone younger, said why', () => {
    expect(driverBand([adult], START, 'refuse')).toEqual({ ok: true, band: 'AGE_26', reason: null });
    // 만 25세 the day before the 26th birthday, 만 26세 on it.
    const young = { ...adult, name: '이젊음', birth_date: '2001-01-11' };
    expect(driverBand([adult, young], START, 'refuse')).toMatchObject({ ok: true, band: 'AGE_21', reason: expect.stringContaining('만 26세 미만') });
    expect(driverBand([{ ...young, birth_date: '2001-01-10' }], START, 'refuse')).toMatchObject({ ok: true, band: 'AGE_26' });
  });

  it('refuses under 만 21세, a licence that may not drive, and one whose renewal ends before the start', () => {
    expect(driverBand([{ ...adult, birth_date: '2006-01-11' }], START, 'refuse')).toMatchObject({ ok: false, message: expect.stringContaining('만 21세 이상만') });
    expect(driverBand([{ ...adult, birth_date: '2006-01-10' }], START, 'refuse')).toMatchObject({ ok: true, band: 'AGE_21' });
    expect(driverBand([adult, { ...adult, name: '박정지', status: 'SUSPENDED' }], START, 'refuse')).toEqual({ ok: false, message: `박정지님의 운전면허: ${LICENCE_REFUSAL.SUSPENDED}` });
    expect(driverBand([{ ...adult, expires_on: '2027-01-09' }], START, 'refuse')).toMatchObject({ ok: false, message: expect.stringContaining('2027.01.09') });
    expect(driverBand([{ ...adult, expires_on: START }], START, 'refuse')).toMatchObject({ ok: true });
  });

  it('a licence under a year before the start: refused, or the 21~25 rate under young-rate', () => {
    const novice = { ...adult, first_issued_on: '2026-01-11' };
    expect(driverBand([novice], START, 'refuse')).toMatchObject({ ok: false, message: expect.stringContaining('1년이 지나야') });
    expect(driverBand([novice], START, 'young-rate')).toMatchObject({ ok: true, band: 'AGE_21', reason: expect.stringContaining('1년 미만') });
    expect(driverBand([{ ...novice, first_issued_on: '2026-01-10' }], START, 'refuse')).toMatchObject({ ok: true, band: 'AGE_26' });
  });
});

describe('handoverLicenceRefusal: checked again before the car is handed over', () => {
  it('hands over while every licence is valid on the day; names the driver whose licence lapsed', () => {
    expect(handoverLicenceRefusal([{ ...adult, role: 'HOLDER' }], START)).toBeNull();
    expect(handoverLicenceRefusal([{ ...adult, role: 'HOLDER' }, { ...adult, name: '박추가', role: 'EXTRA', status: 'REVOKED' }], START)).toBe(`추가 운전자 박추가님의 운전면허를 다시 확인한 결과 인도할 수 없습니다. ${LICENCE_REFUSAL.REVOKED}`);
    expect(handoverLicenceRefusal([{ ...adult, role: 'HOLDER', expires_on: '2027-01-09' }], START)).toContain(LICENCE_REFUSAL.EXPIRED);
  });
});

describe('licenceRuleLines: what the terms, the FAQ and the order page state', () => {
  it('names the classes, the age floor and band, and the new-driver rule the operator chose', () => {
    const refuse = licenceRuleLines('refuse');
    expect(refuse.join(' ')).toContain('1종 대형·1종 보통·2종 보통');
    expect(refuse.join(' ')).toContain('만 21세 미만은 등록할 수 없고, 만 26세 미만 운전자가 있으면 만 21~25세 요금');
    expect(refuse).toContain('면허 취득 후 1년이 지나지 않은 운전자는 등록할 수 없습니다.');
    expect(licenceRuleLines('young-rate')).toContain('면허 취득 후 1년이 지나지 않은 운전자가 있으면 만 21~25세 요금이 적용됩니다.');
  });
});
