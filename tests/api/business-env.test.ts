import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/api/env';
import { PRODUCTION_BUSINESS_ENV } from './helpers';

/** The seller's identity settings (전자상거래법 제10조·제13조; src/domain/business.ts). */

// Production with the butler partner named, so only the seller's identity can be missing here.
const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), PUBLIC_PORTONE_STORE_ID: 's', PORTONE_API_SECRET: 'p', BUTLER_PARTNER_NAME: PRODUCTION_BUSINESS_ENV.BUTLER_PARTNER_NAME, BUTLER_PARTNER_LICENCE: PRODUCTION_BUSINESS_ENV.BUTLER_PARTNER_LICENCE } as const;

describe('the seller identity settings', () => {
  it('production refuses to start without them, naming each one missing', () => {
    expect(() => loadConfig({ ...production })).toThrow(/PUBLIC_COMPANY_NAME, PUBLIC_COMPANY_CEO, PUBLIC_BUSINESS_NUMBER, PUBLIC_MAIL_ORDER_NUMBER, PUBLIC_HOSTING_PROVIDER, PUBLIC_PRIVACY_OFFICER_NAME, PUBLIC_PRIVACY_OFFICER_EMAIL/);
    const { PUBLIC_COMPANY_CEO: _ceo, PUBLIC_HOSTING_PROVIDER: _host, ...rest } = PRODUCTION_BUSINESS_ENV;
    expect(() => loadConfig({ ...production, ...rest })).toThrow(/전자상거래법[\s\S]*set PUBLIC_COMPANY_CEO, PUBLIC_HOSTING_PROVIDER\.$/);
    expect(() => loadConfig({ ...production, ...PRODUCTION_BUSINESS_ENV, PUBLIC_MAIL_ORDER_NUMBER: '  ' })).toThrow(/PUBLIC_MAIL_ORDER_NUMBER/);
  });

  it('production starts with all of them; COMPANY_NAME still names the company', () => {
    const config = loadConfig({ ...production, ...PRODUCTION_BUSINESS_ENV });
    expect(config.company).toMatchObject({ name: '주식회사 럭스모빌리티', ceo: '김대표', businessNumber: '111-11-11119', mailOrderNumber: '제2026-서울강남-01234호', privacyOfficer: { name: '이보호', email: 'privacy@luxe-subscribe.kr' } });
    const { PUBLIC_COMPANY_NAME: _name, ...noName } = PRODUCTION_BUSINESS_ENV;
    expect(loadConfig({ ...production, ...noName, COMPANY_NAME: '주식회사 옛이름' }).company.name).toBe('주식회사 옛이름');
  });

  it('refuses a malformed value in any mode: a wrong check digit, a 신고번호 or an email', () => {
    expect(() => loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(32), PUBLIC_BUSINESS_NUMBER: '111-11-11118' })).toThrow(/PUBLIC_BUSINESS_NUMBER: 10 digits with a valid check digit/);
    expect(() => loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(32), PUBLIC_MAIL_ORDER_NUMBER: '01234' })).toThrow(/PUBLIC_MAIL_ORDER_NUMBER/);
    expect(() => loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(32), PUBLIC_PRIVACY_OFFICER_EMAIL: 'privacy' })).toThrow(/PUBLIC_PRIVACY_OFFICER_EMAIL: an email address/);
  });

  it('development shows samples that say so, the phone formatted', () => {
    const { company } = loadConfig({ NODE_ENV: 'development', JWT_SECRET: 'x'.repeat(32), PUBLIC_CONTACT_PHONE: '0269520808' });
    expect(company.ceo).toContain('예시');
    expect(company.hostingProvider).toContain('예시');
    expect(company.businessNumber).toBe('123-45-67891');
    expect(company.phone).toBe('02-6952-0808');
  });
});
