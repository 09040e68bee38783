import { describe, expect, it } from 'vitest';
import {
  carAllowed, isVan, judgeEligibility, legalAnswer, maskForeignerId, NO_CASE_MESSAGE, normalizeForeignerId, partnerLine, type EligibilityClaim,
} from '../../../src/domain/butler-legal';
import { ageOn } from '../../../src/domain/dates';

const start = new Date('2026-06-13T09:00:00+09:00');
const sedan = { start, end: new Date('2026-06-13T17:00:00+09:00'), carSubModel: 'S 580 4MATIC' };
const van = { ...sedan, carSubModel: '스프린터 11인' };
const claim = (c: Partial<EligibilityClaim> & Pick<EligibilityClaim, 'case'>): EligibilityClaim => ({ confirmed: true, ...c });
const refusal = (v: ReturnType<typeof judgeEligibility>) => (v.ok ? null : v);

describe('judgeEligibility', () => {
  it('asks nothing under partner and own-car', () => {
    expect(judgeEligibility('partner', null, sedan)).toEqual({ ok: true, record: null });
    expect(judgeEligibility('own-car', null, sedan)).toEqual({ ok: true, record: null });
  });

  it('refuses a booking that claims no case (a Korean adult, a sports car by the hour)', () => {
    expect(refusal(judgeEligibility('exemptions', null, sedan))).toEqual({ ok: false, field: 'eligibility', message: NO_CASE_MESSAGE });
    expect(NO_CASE_MESSAGE).toContain('제34조');
  });

  it('wants the statement confirmed', () => {
    expect(refusal(judgeEligibility('exemptions', { case: 'DISABLED' }, sedan))?.field).toBe('eligibility.confirmed');
  });

  it('keeps a foreigner’s passport or 외국인등록번호 masked', () => {
    const passport = judgeEligibility('exemptions', claim({ case: 'FOREIGNER', foreigner_id: 'm1234 5678' }), sedan);
    expect(passport.ok && passport.record?.proof).toEqual(['여권번호: M12******']);
    const alien = judgeEligibility('exemptions', claim({ case: 'FOREIGNER', foreigner_id: '900101-5123456' }), sedan);
    expect(alien.ok && alien.record?.proof).toEqual(['외국인등록번호: 900101-5******']);
    expect(JSON.stringify(alien)).not.toContain('123456');
    expect(refusal(judgeEligibility('exemptions', claim({ case: 'FOREIGNER', foreigner_id: '900101-1123456' }), sedan))?.field).toBe('eligibility.foreigner_id');
  });

  it('checks 65+ against the trip’s Korean date', () => {
    expect(judgeEligibility('exemptions', claim({ case: 'SENIOR', birth_date: '1961-06-13' }), sedan).ok).toBe(true);
    const young = refusal(judgeEligibility('exemptions', claim({ case: 'SENIOR', birth_date: '1961-06-14' }), sedan));
    expect(young?.message).toContain('만 64세');
    expect(refusal(judgeEligibility('exemptions', claim({ case: 'SENIOR', birth_date: '1961-02-30' }), sedan))?.field).toBe('eligibility.birth_date');
  });

  it('wants a corporate contract number', () => {
    expect(refusal(judgeEligibility('exemptions', claim({ case: 'CORPORATE', contract_number: ' ' }), sedan))?.field).toBe('eligibility.contract_number');
    const ok = judgeEligibility('exemptions', claim({ case: 'CORPORATE', contract_number: 'LX-2026-0042' }), sedan);
    expect(ok.ok && ok.record?.proof).toEqual(['법인 계약번호: LX-2026-0042']);
  });

  it('wants the wedding on the trip’s day, with a venue', () => {
    expect(refusal(judgeEligibility('exemptions', claim({ case: 'WEDDING', wedding_date: '2026-06-14', wedding_venue: '더채플 청담' }), sedan))?.message).toContain('같아야');
    expect(refusal(judgeEligibility('exemptions', claim({ case: 'WEDDING', wedding_date: '2026-06-13', wedding_venue: '' }), sedan))?.field).toBe('eligibility.wedding_venue');
    expect(judgeEligibility('exemptions', claim({ case: 'WEDDING', wedding_date: '2026-06-13', wedding_venue: '더채플 청담' }), sedan).ok).toBe(true);
  });

  it('allows the van cases in an 11–15 seat van only', () => {
    expect(refusal(judgeEligibility('exemptions', claim({ case: 'VAN_TOURISM' }), sedan))?.message).toContain('11~15인승 승합차만');
    expect(judgeEligibility('exemptions', claim({ case: 'VAN_TOURISM' }), van).ok).toBe(true);
    const short = { ...van, end: new Date('2026-06-13T14:00:00+09:00') };
    expect(refusal(judgeEligibility('exemptions', claim({ case: 'VAN_TOURISM' }), short))?.field).toBe('end_at');
    expect(refusal(judgeEligibility('exemptions', claim({ case: 'VAN_PORT' }), van))?.field).toBe('eligibility.transport_number');
    expect(judgeEligibility('exemptions', claim({ case: 'VAN_PORT' }), { ...van, flightNumber: 'KE123' }).ok).toBe(true);
  });
});

describe('helpers', () => {
  it('ageOn counts full years', () => {
    expect(ageOn('1960-12-31', '2026-12-30')).toBe(65);
    expect(ageOn('1960-12-31', '2026-12-31')).toBe(66);
  });
  it('isVan reads the seats', () => {
    expect(isVan('카니발 하이리무진 11인')).toBe(true);
    expect(isVan('솔라티 16인')).toBe(false);
    expect(isVan('S 580')).toBe(false);
  });
  it('carAllowed: own-car rents no fleet car; van cases only vans', () => {
    expect(carAllowed('own-car', null, 'S 580')).toBe(false);
    expect(carAllowed('partner', null, 'S 580')).toBe(true);
    expect(carAllowed('exemptions', 'VAN_PORT', 'S 580')).toBe(false);
    expect(carAllowed('exemptions', 'VAN_PORT', '스프린터 12인')).toBe(true);
    expect(carAllowed('exemptions', 'SENIOR', 'S 580')).toBe(true);
  });
  it('masks and normalises ids', () => {
    expect(maskForeignerId(normalizeForeignerId('AB1234567')!)).toBe('AB1******');
    expect(normalizeForeignerId('12345')).toBeNull();
  });
  it('legalAnswer names the partner only under partner, cases only under exemptions', () => {
    const p = { name: '협력사', licence: '서울-123' };
    expect(legalAnswer('partner', p)).toMatchObject({ partner: p, cases: [] });
    expect(legalAnswer('exemptions', p).partner).toBeNull();
    expect(legalAnswer('exemptions', p).cases.filter((c) => c.van_only).map((c) => c.case)).toEqual(['VAN_TOURISM', 'VAN_PORT']);
    expect(partnerLine(p)).toBe('운송: 협력사 (여객자동차운송사업 면허 서울-123)');
  });
});
