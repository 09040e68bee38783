import { addMonths, ageOn, dotDate } from './dates';
import type { DriverAge } from './subscription-price';

/**
 * 운전자격 확인 (docs/decisions/legal.md §1): a rental company checks the licence of every driver
 * named in the contract before it rents the car (여객자동차 운수사업법 제34조의2 ②, through the
 * 도로교통공단 운전자격확인시스템 since 2023-06-08), and refuses a licence that is absent,
 * suspended, or of a class that may not drive the car.
 */

/** The classes that may drive a passenger car (도로교통법 제80조 ②): 1종 대형, 1종 보통, 2종 보통. */
export const LICENCE_TYPES = ['CLASS1_LARGE', 'CLASS1_ORDINARY', 'CLASS2_ORDINARY'] as const;
export type LicenceType = (typeof LICENCE_TYPES)[number];
export const LICENCE_TYPE_LABEL: Record<LicenceType, string> = { CLASS1_LARGE: '1종 대형', CLASS1_ORDINARY: '1종 보통', CLASS2_ORDINARY: '2종 보통' };

/** Who the licence belongs to: the customer (계약자) or an additional driver named in the contract. */
export type LicenceRole = 'HOLDER' | 'EXTRA';

/** What a check was made for: the registration, the order (before its charge), a delivery, a swap's delivery. */
export type LicenceCheckPurpose = 'REGISTER' | 'ORDER' | 'DELIVERY' | 'SWAP_DELIVERY';

/** Region codes of the licence number's first two digits; a number printed with the region's name (서울 23-…) reads as its code. */
const REGION_CODES: Record<string, string> = {
  서울: '11', 부산: '12', 경기: '13', 강원: '14', 충북: '15', 충남: '16', 전북: '17', 전남: '18', 경북: '19', 경남: '20',
  제주: '21', 대구: '22', 인천: '23', 광주: '24', 대전: '25', 울산: '26', 경기북부: '28',
};
const CODES = new Set(Object.values(REGION_CODES));

/**
 * A licence number as twelve digits (지역 2 · 취득 연도 2 · 일련번호 6 · 검증 2), or null. Dashes and
 * spaces are ignored; "서울 23-123456-01" reads as 11-23-123456-01.
 */
export function normalizeLicenceNumber(text: string): string | null {
  let s = text.normalize('NFC').trim();
  const region = Object.keys(REGION_CODES).sort((a, b) => b.length - a.length).find((name) => s.startsWith(name));
  if (region) s = REGION_CODES[region] + s.slice(region.length);
  const digits = s.replace(/[\s-]/g, '');
  return /^\d{12}$/.test(digits) && CODES.has(digits.slice(0, 2)) ? digits : null;
}

/** 11-23-123456-01. */
export function formatLicenceNumber(digits: string): string {
  return `${digits.slice(0, 2)}-${digits.slice(2, 4)}-${digits.slice(4, 10)}-${digits.slice(10)}`;
}

/** What is ever shown again: the region and the year only (11-23-******-**). */
export function maskLicenceNumber(digits: string): string {
  return `${digits.slice(0, 2)}-${digits.slice(2, 4)}-******-**`;
}

/** The 운전자격확인시스템's answer, as the product keeps it. */
export type LicenceStatus = 'VALID' | 'EXPIRED' | 'SUSPENDED' | 'REVOKED' | 'NOT_FOUND' | 'MISMATCH';

export const LICENCE_STATUS_TEXT: Record<LicenceStatus, string> = {
  VALID: '확인 완료',
  EXPIRED: '갱신 기간 만료',
  SUSPENDED: '효력 정지',
  REVOKED: '면허 취소',
  NOT_FOUND: '조회되지 않음',
  MISMATCH: '본인 정보 불일치',
};

/** Why a licence that is not VALID cannot drive, said to the customer and to staff. */
export const LICENCE_REFUSAL: Record<Exclude<LicenceStatus, 'VALID'>, string> = {
  EXPIRED: '운전면허의 적성검사(갱신) 기간이 지났습니다. 갱신한 뒤 다시 확인해주세요.',
  SUSPENDED: '운전면허의 효력이 정지된 상태입니다. 정지 기간에는 차량을 인도할 수 없습니다.',
  REVOKED: '취소된 운전면허입니다. 유효한 면허로 다시 확인해주세요.',
  NOT_FOUND: '도로교통공단에서 조회되지 않는 면허입니다. 면허번호와 면허 종류를 확인해주세요.',
  MISMATCH: '면허의 성명·생년월일이 본인 정보와 일치하지 않습니다.',
};

/** One check's answer: the status and, for a VALID licence, its first issue and its renewal deadline. */
export interface LicenceVerdict {
  status: LicenceStatus;
  /** 최초 취득일 (YYYY-MM-DD), when the system gives it. */
  first_issued_on: string | null;
  /** 적성검사(갱신) 기간의 마지막 날 (YYYY-MM-DD). */
  expires_on: string | null;
  /** The provider's reference for this answer (kept with the check). */
  reference: string;
}

/** A licence as the customer and staff see it: never the number in full. */
export interface LicenceView {
  id: number;
  role: LicenceRole;
  name: string;
  birth_date: string;
  type: LicenceType;
  type_label: string;
  number: string;
  status: LicenceStatus;
  status_text: string;
  first_issued_on: string | null;
  expires_on: string | null;
  checked_at: string;
}

export interface LicenceListAnswer {
  licences: LicenceView[];
  /** The operator's rule for a licence held under a year, so the order page states the band the server will apply. */
  new_driver: NewDriverPolicy;
}

export interface LicenceAnswer {
  licence: LicenceView;
}

/** A licence held for less than a year: refused, or rented at the 만 21~25세 rate (the operator's setting, LICENCE_NEW_DRIVER). */
export type NewDriverPolicy = 'refuse' | 'young-rate';
export const NEW_DRIVER_POLICIES = ['refuse', 'young-rate'] as const;

/** The youngest driver the fleet is rented to, and the age from which the standard rate applies. */
const MIN_DRIVER_AGE = 21;
const STANDARD_DRIVER_AGE = 26;

/** One checked driver of an order. */
export interface OrderDriver {
  name: string;
  birth_date: string;
  status: LicenceStatus;
  first_issued_on: string | null;
  expires_on: string | null;
}

export type DriverBand = { ok: true; band: DriverAge; reason: string | null } | { ok: false; message: string };

/**
 * The age band an order is priced at, from its checked drivers on the first day of the term (never a
 * free choice): every driver's licence VALID and not expiring before the start, everyone at least 만
 * 21세; anyone under 만 26세 (or, with `young-rate`, licensed for less than a year) puts the order at 만
 * 21~25세.
 */
export function driverBand(drivers: readonly OrderDriver[], start: string, policy: NewDriverPolicy): DriverBand {
  let young: string | null = null;
  for (const d of drivers) {
    if (d.status !== 'VALID') return { ok: false, message: `${d.name}님의 운전면허: ${LICENCE_REFUSAL[d.status]}` };
    if (d.expires_on && d.expires_on < start) {
      return { ok: false, message: `${d.name}님의 운전면허 갱신 기간이 구독 시작일(${dotDate(start)}) 전인 ${dotDate(d.expires_on)}에 끝납니다. 갱신한 뒤 다시 확인해주세요.` };
    }
    const age = ageOn(d.birth_date, start);
    if (age < MIN_DRIVER_AGE) return { ok: false, message: `만 ${MIN_DRIVER_AGE}세 이상만 운전자로 등록할 수 있습니다. (${d.name}님, 구독 시작일 기준 만 ${age}세)` };
    const novice = d.first_issued_on !== null && d.first_issued_on > addMonths(start, -12);
    if (novice && policy === 'refuse') {
      return { ok: false, message: `운전면허를 취득한 지 1년이 지나야 운전자로 등록할 수 있습니다. (${d.name}님, 취득일 ${dotDate(d.first_issued_on!)})` };
    }
    if (age < STANDARD_DRIVER_AGE) young ??= `운전자 중 구독 시작일 기준 만 ${STANDARD_DRIVER_AGE}세 미만이 있어 만 21~25세 요금이 적용됩니다.`;
    else if (novice) young ??= '운전자 중 면허 취득 1년 미만이 있어 만 21~25세 요금이 적용됩니다.';
  }
  return { ok: true, band: young ? 'AGE_21' : 'AGE_26', reason: young };
}

/** Before a delivery or a swap's delivery: the refusal of a licence that lapsed since the order (null: hand over). */
export function handoverLicenceRefusal(drivers: readonly (OrderDriver & { role: LicenceRole })[], day: string): string | null {
  for (const d of drivers) {
    const lapsed = d.status !== 'VALID' ? LICENCE_REFUSAL[d.status] : d.expires_on && d.expires_on < day ? LICENCE_REFUSAL.EXPIRED : null;
    if (lapsed) return `${d.role === 'HOLDER' ? '계약자' : '추가 운전자'} ${d.name}님의 운전면허를 다시 확인한 결과 인도할 수 없습니다. ${lapsed}`;
  }
  return null;
}

/** The 운전자격 rules as the terms, the FAQ and the order page state them (the same numbers driverBand applies). */
export function licenceRuleLines(policy: NewDriverPolicy): string[] {
  return [
    '계약자와 추가 운전자 모두의 운전면허를 도로교통공단 운전자격확인시스템으로 확인한 뒤 신청할 수 있습니다(여객자동차 운수사업법 제34조의2). 계약자의 성명·생년월일은 본인인증 정보로 확인합니다.',
    `승용차를 운전할 수 있는 ${LICENCE_TYPES.map((t) => LICENCE_TYPE_LABEL[t]).join('·')} 면허만 등록할 수 있습니다.`,
    `운전자 연령 기준은 구독 시작일의 만 나이로 정해집니다: 만 ${MIN_DRIVER_AGE}세 미만은 등록할 수 없고, 만 ${STANDARD_DRIVER_AGE}세 미만 운전자가 있으면 만 21~25세 요금이 적용됩니다.`,
    policy === 'refuse' ? '면허 취득 후 1년이 지나지 않은 운전자는 등록할 수 없습니다.' : '면허 취득 후 1년이 지나지 않은 운전자가 있으면 만 21~25세 요금이 적용됩니다.',
    '차량 인도(탁송·교체 인도) 전에 면허를 다시 확인하며, 그사이 효력이 정지·취소되었거나 갱신 기간이 지난 면허로는 차량을 인도하지 않습니다.',
    '면허번호는 암호화해 보관하며 화면과 계약서에는 지역·연도 외에는 표시하지 않습니다.',
  ];
}
