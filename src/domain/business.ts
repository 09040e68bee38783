import { formatPhone } from './accounts';

/**
 * The seller's identity that 전자상거래법 제10조 and 제13조 (and its 시행령) require a shop to show:
 * 상호, 대표자, 주소, 전화, 이메일, 사업자등록번호 (with the 공정거래위원회 사업자정보 확인 link),
 * 통신판매업 신고번호, 호스팅 서비스 제공자, and the 개인정보 보호책임자 (개인정보 보호법 제31조).
 * Pure rules: the formats the settings are checked against (src/api/env.ts) and how they are shown
 * (the footer, the contract and its annexes, receipts). docs/decisions/legal.md §3.
 */

export interface BusinessInfo {
  /** 상호. */
  name: string;
  /** 대표자 (one or more names). */
  ceo: string;
  address: string;
  /** As shown (formatKoreanPhone). */
  phone: string;
  email: string;
  /** 사업자등록번호 as shown: 123-45-67891. */
  businessNumber: string;
  /** 통신판매업 신고번호, e.g. 제2026-서울강남-01234호. */
  mailOrderNumber: string;
  /** 호스팅 서비스 제공자. */
  hostingProvider: string;
  /** 개인정보 보호책임자. */
  privacyOfficer: { name: string; email: string };
}

const WEIGHTS = [1, 3, 7, 1, 3, 7, 1, 3, 5] as const;

/** The digits of a 사업자등록번호 as typed ('123-45-67891', '123 45 67891'). */
export const businessNumberDigits = (raw: string) => raw.replace(/[\s-]/g, '');

/**
 * Whether a 사업자등록번호 is well formed: 10 digits whose last is the check digit (국세청's rule:
 * the first nine times 1,3,7,1,3,7,1,3,5 summed, plus the tens of the ninth × 5; the check digit
 * makes the sum a multiple of 10).
 */
export function validBusinessNumber(raw: string): boolean {
  const d = businessNumberDigits(raw);
  if (!/^\d{10}$/.test(d)) return false;
  return businessCheckDigit(d.slice(0, 9)) === Number(d[9]);
}

/** The check digit that completes the first nine digits of a 사업자등록번호 (the rule above). */
export function businessCheckDigit(nine: string): number {
  const n = [...nine].map(Number);
  let sum = WEIGHTS.reduce((acc, w, i) => acc + n[i] * w, 0);
  sum += Math.floor((n[8] * 5) / 10);
  return (10 - (sum % 10)) % 10;
}

/** 1234567891 → 123-45-67891 (the way it is printed). */
export function formatBusinessNumber(raw: string): string {
  const d = businessNumberDigits(raw);
  return /^\d{10}$/.test(d) ? `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}` : raw.trim();
}

/** The 공정거래위원회 사업자정보 확인 page of a 사업자등록번호 (전자상거래법 제13조 ①: the link to the 신원정보). */
export const ftcBusinessInfoUrl = (raw: string) => `https://www.ftc.go.kr/bizCommPop.do?wrkr_no=${businessNumberDigits(raw)}`;

/** 통신판매업 신고번호 as the 시·군·구 issue it: 제2026-서울강남-01234호 (제 and 호 optional when set). */
const MAIL_ORDER_NUMBER = /^(제\s*)?\d{4}-[가-힣]{2,12}-\d{4,6}(\s*호)?$/;

/** The 신고번호 as printed: with 제…호 around it. */
export function formatMailOrderNumber(raw: string): string {
  const core = raw.trim().replace(/^제\s*/, '').replace(/\s*호$/, '');
  return `제${core}호`;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Every problem of a set of business settings, by setting name (empty: all good). `missing` are the
 * ones not set at all (production refuses to start without them).
 */
export function businessInfoProblems(values: Record<string, string | undefined>): { missing: string[]; invalid: string[] } {
  const missing: string[] = [];
  const invalid: string[] = [];
  const check = (key: string, ok: (v: string) => boolean, why: string) => {
    const v = values[key]?.trim();
    if (!v) missing.push(key);
    else if (!ok(v)) invalid.push(`${key}: ${why}`);
  };
  const name = (v: string) => v.length <= 60;
  check('PUBLIC_COMPANY_NAME', name, 'at most 60 characters (상호, e.g. 주식회사 럭스모빌리티)');
  check('PUBLIC_COMPANY_CEO', name, 'at most 60 characters (대표자, e.g. 홍길동)');
  check('PUBLIC_BUSINESS_NUMBER', validBusinessNumber, '10 digits with a valid check digit (사업자등록번호, e.g. 123-45-67891)');
  check('PUBLIC_MAIL_ORDER_NUMBER', (v) => MAIL_ORDER_NUMBER.test(v), 'a 통신판매업 신고번호 like 제2026-서울강남-01234호');
  check('PUBLIC_HOSTING_PROVIDER', (v) => v.length <= 80, 'at most 80 characters (호스팅 서비스 제공자, e.g. Amazon Web Services)');
  check('PUBLIC_PRIVACY_OFFICER_NAME', name, 'at most 60 characters (개인정보 보호책임자, e.g. 홍길동)');
  check('PUBLIC_PRIVACY_OFFICER_EMAIL', (v) => EMAIL.test(v), 'an email address');
  return { missing, invalid };
}

/**
 * The sample values a development start uses (each visibly a sample: 예시). Production refuses to
 * start without real ones (src/api/env.ts).
 */
export const SAMPLE_BUSINESS = {
  PUBLIC_COMPANY_NAME: '주식회사 럭스모빌리티',
  PUBLIC_COMPANY_CEO: '홍길동(예시)',
  PUBLIC_BUSINESS_NUMBER: '123-45-67891',
  PUBLIC_MAIL_ORDER_NUMBER: '제0000-서울강남-00000호',
  PUBLIC_HOSTING_PROVIDER: '호스팅 사업자(예시)',
  PUBLIC_PRIVACY_OFFICER_NAME: '개인정보 보호책임자(예시)',
  PUBLIC_PRIVACY_OFFICER_EMAIL: 'privacy@luxe-subscribe.kr',
  PUBLIC_LOUNGE_ADDRESS: '서울특별시 강남구 도산대로 442',
  PUBLIC_CONTACT_PHONE: '02-6952-0808',
  PUBLIC_CONTACT_EMAIL: 'concierge@luxe-subscribe.kr',
} as const;

/** The settings as the business info shown (blank or unset: the sample; COMPANY_NAME is the old name of PUBLIC_COMPANY_NAME). */
export function businessInfoFrom(values: Record<string, string | undefined>): BusinessInfo {
  const v = (key: keyof typeof SAMPLE_BUSINESS) => values[key]?.trim() || SAMPLE_BUSINESS[key];
  return {
    name: values.PUBLIC_COMPANY_NAME?.trim() || values.COMPANY_NAME?.trim() || SAMPLE_BUSINESS.PUBLIC_COMPANY_NAME,
    ceo: v('PUBLIC_COMPANY_CEO'),
    address: v('PUBLIC_LOUNGE_ADDRESS'),
    phone: formatPhone(v('PUBLIC_CONTACT_PHONE')),
    email: v('PUBLIC_CONTACT_EMAIL'),
    businessNumber: formatBusinessNumber(v('PUBLIC_BUSINESS_NUMBER')),
    mailOrderNumber: formatMailOrderNumber(v('PUBLIC_MAIL_ORDER_NUMBER')),
    hostingProvider: v('PUBLIC_HOSTING_PROVIDER'),
    privacyOfficer: { name: v('PUBLIC_PRIVACY_OFFICER_NAME'), email: v('PUBLIC_PRIVACY_OFFICER_EMAIL') },
  };
}

/** The lines of the seller's identity, in the order the footer, the contract and receipts print them. */
export function businessLines(b: BusinessInfo): { label: string; value: string }[] {
  return [
    { label: '상호', value: b.name },
    { label: '대표자', value: b.ceo },
    { label: '주소', value: b.address },
    { label: '전화', value: b.phone },
    { label: '이메일', value: b.email },
    { label: '사업자등록번호', value: b.businessNumber },
    { label: '통신판매업 신고번호', value: b.mailOrderNumber },
    { label: '호스팅 서비스 제공자', value: b.hostingProvider },
    { label: '개인정보 보호책임자', value: `${b.privacyOfficer.name} (${b.privacyOfficer.email})` },
  ];
}
