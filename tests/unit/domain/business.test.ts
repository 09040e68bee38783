import { describe, expect, it } from 'vitest';
import { businessInfoFrom, businessInfoProblems, businessLines, formatBusinessNumber, formatMailOrderNumber, ftcBusinessInfoUrl, SAMPLE_BUSINESS, validBusinessNumber } from '../../../src/domain/business';

describe('사업자등록번호', () => {
  it('accepts 10 digits whose last is the check digit, with or without dashes', () => {
    expect(validBusinessNumber('123-45-67891')).toBe(true);
    expect(validBusinessNumber('1234567891')).toBe(true);
    // Another well-formed number.
    expect(validBusinessNumber('111-11-11119')).toBe(true);
  });
  it('refuses a wrong check digit, a wrong length and letters', () => {
    expect(validBusinessNumber('123-45-67890')).toBe(false);
    expect(validBusinessNumber('111-11-11118')).toBe(false);
    expect(validBusinessNumber('123456789')).toBe(false);
    expect(validBusinessNumber('12345678911')).toBe(false);
    expect(validBusinessNumber('123-45-6789a')).toBe(false);
  });
  it('counts the tens of the ninth digit × 5 (a ninth digit ≥ 2 changes the check digit)', () => {
    // 9th digit 9: 9×5 = 45 adds 4; without it the check digit would be 5, not 1.
    expect(validBusinessNumber('1234567895')).toBe(false);
    expect(validBusinessNumber('1234567891')).toBe(true);
  });
  it('prints 3-2-5 and links the 공정위 사업자정보 page with the digits', () => {
    expect(formatBusinessNumber('1234567891')).toBe('123-45-67891');
    expect(ftcBusinessInfoUrl('123-45-67891')).toBe('https://www.ftc.go.kr/bizCommPop.do?wrkr_no=1234567891');
  });
});

describe('business settings', () => {
  it('names what is missing and what is malformed', () => {
    const { missing, invalid } = businessInfoProblems({ PUBLIC_COMPANY_NAME: '주식회사 럭스', PUBLIC_BUSINESS_NUMBER: '123-45-67890', PUBLIC_PRIVACY_OFFICER_EMAIL: 'nope', PUBLIC_MAIL_ORDER_NUMBER: '2026-서울강남-01234' });
    expect(missing).toEqual(['PUBLIC_COMPANY_CEO', 'PUBLIC_HOSTING_PROVIDER', 'PUBLIC_PRIVACY_OFFICER_NAME']);
    expect(invalid.map((i) => i.split(':')[0])).toEqual(['PUBLIC_BUSINESS_NUMBER', 'PUBLIC_PRIVACY_OFFICER_EMAIL']);
  });
  it('the samples pass their own checks', () => {
    expect(businessInfoProblems(SAMPLE_BUSINESS)).toEqual({ missing: [], invalid: [] });
  });
  it('shows the samples when unset, COMPANY_NAME as the old name, 제…호 around the 신고번호', () => {
    const b = businessInfoFrom({ COMPANY_NAME: '주식회사 옛이름', PUBLIC_CONTACT_PHONE: '0269520808', PUBLIC_MAIL_ORDER_NUMBER: '2026-서울강남-01234' });
    expect(b.name).toBe('주식회사 옛이름');
    expect(b.phone).toBe('02-6952-0808');
    expect(b.ceo).toContain('예시');
    expect(b.mailOrderNumber).toBe('제2026-서울강남-01234호');
    expect(formatMailOrderNumber('제2026-서울강남-01234호')).toBe('제2026-서울강남-01234호');
    expect(businessLines(b).map((l) => l.label)).toEqual(['상호', '대표자', '주소', '전화', '이메일', '사업자등록번호', '통신판매업 신고번호', '호스팅 서비스 제공자', '개인정보 보호책임자']);
  });
});
