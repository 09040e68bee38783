import { HOUR_MS, ageOn, koreaDate } from './dates';
import { seatsFromSubModel } from './butler-seats';
import { DEFAULT_OWN_CAR_HOURLY_RATE, INCLUDED_HOURS } from './butler-hours';
import { won } from './money';

/**
 * The butler (의전) service's legal basis (docs/decisions/legal.md §2). A rental company
 * (자동차대여사업자) may not provide a driver with its rented car (여객자동차 운수사업법 제34조
 * ②), except for the renters 시행령 제18조 lists. BUTLER_LEGAL_MODEL says how the service stands:
 *
 * - `exemptions`: the fleet is rented with a driver only when one of those cases applies, with
 *   its proof; a booking that fits none is refused before it is paid.
 * - `partner`: the trip is carried by a licensed transport partner (고급택시 / 플랫폼운송사업),
 *   named on the booking; nothing for the customer to prove.
 * - `own-car`: a driver for the customer's own car (대리운전-like); no fleet car is rented.
 */
export const BUTLER_LEGAL_MODELS = ['exemptions', 'partner', 'own-car'] as const;
export type ButlerLegalModel = (typeof BUTLER_LEGAL_MODELS)[number];

/** The 시행령 제18조 cases the form offers (each with what it needs as proof). */
export const EXEMPTION_CASES = ['FOREIGNER', 'DISABLED', 'SENIOR', 'CORPORATE', 'WEDDING', 'VAN_TOURISM', 'VAN_PORT'] as const;
export type ExemptionCase = (typeof EXEMPTION_CASES)[number];

const EXEMPTION_LABELS: Record<ExemptionCase, string> = {
  FOREIGNER: '외국인',
  DISABLED: '등록 장애인',
  SENIOR: '만 65세 이상',
  CORPORATE: '법인 장기 임차 (6개월 이상 계약)',
  WEDDING: '결혼식 (신랑·신부 이동, 3,000cc 이상 승용차)',
  VAN_TOURISM: '관광 목적 6시간 이상 (11~15인승 승합차)',
  VAN_PORT: '공항·항만 출발 또는 도착 (11~15인승 승합차)',
};

/** What each case asks for, shown under its choice. */
const EXEMPTION_PROOF_HINTS: Record<ExemptionCase, string> = {
  FOREIGNER: '여권번호 또는 외국인등록번호를 입력해주세요. 번호는 가려서 보관하며, 탑승 시 원본을 확인합니다.',
  DISABLED: '장애인등록증(복지카드)을 탑승 시 확인합니다.',
  SENIOR: '생년월일을 입력해주세요. 출발일 기준 만 65세 이상이어야 하며, 탑승 시 신분증을 확인합니다.',
  CORPORATE: '6개월 이상 임차 계약의 계약번호를 입력해주세요.',
  WEDDING: '결혼식 날짜와 예식장을 입력해주세요. 출발일이 결혼식 날이어야 합니다.',
  VAN_TOURISM: '11~15인승 승합차로 6시간 이상 이용하는 관광 일정이어야 합니다.',
  VAN_PORT: '11~15인승 승합차로, 항공편명 또는 선박편명을 입력해주세요.',
};

/** Vans the van-only cases allow: 11–15 seats (승차정원 11인 이상 15인 이하). */
const VAN_MIN_SEATS = 11;
const VAN_MAX_SEATS = 15;
const SENIOR_AGE = 65;
const VAN_TOURISM_MIN_HOURS = 6;
const CORPORATE_MIN_MONTHS = 6;

const VAN_ONLY_CASES: readonly ExemptionCase[] = ['VAN_TOURISM', 'VAN_PORT'];

/** Whether a car (by its sub-model's "N인") is an 11–15 seat van. */
export function isVan(subModel: string | null | undefined): boolean {
  const seats = seatsFromSubModel(subModel);
  return seats >= VAN_MIN_SEATS && seats <= VAN_MAX_SEATS;
}

/** What the customer claims and proves (the booking body's `eligibility`). */
export interface EligibilityClaim {
  case: ExemptionCase;
  /** FOREIGNER: a passport number or 외국인등록번호. */
  foreigner_id?: string | null;
  /** SENIOR: YYYY-MM-DD. */
  birth_date?: string | null;
  /** CORPORATE: the 6-month+ rental contract's number. */
  contract_number?: string | null;
  /** WEDDING: YYYY-MM-DD and the venue. */
  wedding_date?: string | null;
  wedding_venue?: string | null;
  /** VAN_PORT: the flight or ship (the booking's flight_number also counts). */
  transport_number?: string | null;
  /** DISABLED, and every case: the customer confirms the statement is true. */
  confirmed?: boolean | null;
}

/** What is kept with the booking and shown to staff: the case and its proof, identifiers masked. */
interface EligibilityRecord {
  case: ExemptionCase;
  label: string;
  /** Proof lines as staff see them ("여권번호: M12*****"). */
  proof: string[];
}

/** What a booking keeps of its legal basis (butler_requests.legal_basis). */
export interface LegalBasis {
  partner?: { name: string; licence: string };
  /** own-car: the driver-only hourly rate the booking was priced at (the car itself: butler_requests.customer_car). */
  ownCar?: { hourlyRate: number };
  eligibility?: EligibilityRecord;
  /** Staff refused the claimed case (the booking was cancelled and refunded in full). */
  refused?: { reason: string; by: string; at: string };
}

/** A booking's legal basis as the customer's and staff's views show it. */
export interface ButlerLegalView {
  model: ButlerLegalModel | null;
  partner: { name: string; licence: string } | null;
  eligibility: EligibilityRecord | null;
  refused: { reason: string; by: string; at: string } | null;
}

/** The trip facts the cases are judged against. */
export interface EligibilityTrip {
  start: Date;
  end: Date | null;
  carSubModel: string | null;
  flightNumber?: string | null;
}

export type EligibilityVerdict =
  | { ok: true; record: EligibilityRecord }
  | { ok: false; field: string; message: string };

/** The refusal of a booking that claims no case (the API answers it before any payment). */
export const NO_CASE_MESSAGE =
  '운전자를 포함한 차량 대여는 여객자동차 운수사업법 제34조에 따라 외국인, 장애인, 만 65세 이상, 법인 장기 임차, 결혼식, 11~15인승 승합차 관광·공항 이동 등 법령이 정한 경우에만 가능합니다. 해당하는 경우를 선택해주세요.';

/** Under own-car no fleet car is rented with a driver. */
export const OWN_CAR_ONLY_MESSAGE = '현재 의전 서비스는 고객님의 차량에 기사를 배정하는 방식으로만 운영됩니다. 운전자를 포함한 차량 대여는 할 수 없습니다.';

/** Under the other models the driver-only booking is not offered. */
export const FLEET_ONLY_MESSAGE = '현재 의전 서비스는 LUXE 차량과 기사를 함께 예약하는 방식으로 운영됩니다. 고객 차량 기사 예약은 제공하지 않습니다.';

const PASSPORT = /^[A-Z]{1,2}\d{7,8}$/;
const ALIEN_REG = /^\d{6}-?[5-8]\d{6}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TRANSPORT = /^[A-Z0-9]{2}\s?\d{1,5}[A-Z]?$|^[가-힣A-Za-z0-9\s-]{2,20}$/;

/** A passport number or 외국인등록번호 normalised (upper case, no spaces), or null when neither. */
export function normalizeForeignerId(value: string): { kind: 'passport' | 'alien'; value: string } | null {
  const v = value.replace(/\s/g, '').toUpperCase();
  if (PASSPORT.test(v)) return { kind: 'passport', value: v };
  if (ALIEN_REG.test(v)) return { kind: 'alien', value: v.replace('-', '') };
  return null;
}

/** An identifier with everything after its first characters hidden: M12***** / 900101-5******. */
export function maskForeignerId(id: { kind: 'passport' | 'alien'; value: string }): string {
  if (id.kind === 'alien') return `${id.value.slice(0, 6)}-${id.value[6]}${'*'.repeat(6)}`;
  return `${id.value.slice(0, 3)}${'*'.repeat(id.value.length - 3)}`;
}

const realDate = (s: string) => DATE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;

const refuse = (field: string, message: string): EligibilityVerdict => ({ ok: false, field, message });
const trimmed = (v: string | null | undefined) => (v ?? '').trim();

/**
 * Which 시행령 제18조 case a booking fits, with its proof, or why it is refused (Korean, the
 * field to point at). Only the `exemptions` model asks: the others always pass with no record.
 */
export function judgeEligibility(model: ButlerLegalModel, claim: EligibilityClaim | null | undefined, trip: EligibilityTrip): EligibilityVerdict | { ok: true; record: null } {
  if (model !== 'exemptions') return { ok: true, record: null };
  if (!claim) return refuse('eligibility', NO_CASE_MESSAGE);
  const label = EXEMPTION_LABELS[claim.case];
  const tripDay = koreaDate(trip.start);
  if (VAN_ONLY_CASES.includes(claim.case) && !isVan(trip.carSubModel)) {
    return refuse('eligibility.case', `${label}의 경우 11~15인승 승합차만 예약할 수 있습니다. 승합차를 선택해주세요.`);
  }
  if (!claim.confirmed) return refuse('eligibility.confirmed', '선택한 경우에 해당함을 확인해주세요. 사실과 다르면 예약이 취소될 수 있습니다.');
  switch (claim.case) {
    case 'FOREIGNER': {
      const id = normalizeForeignerId(trimmed(claim.foreigner_id));
      if (!id) return refuse('eligibility.foreigner_id', '여권번호(예: M12345678) 또는 외국인등록번호 13자리를 정확히 입력해주세요.');
      return { ok: true, record: { case: claim.case, label, proof: [`${id.kind === 'passport' ? '여권번호' : '외국인등록번호'}: ${maskForeignerId(id)}`] } };
    }
    case 'DISABLED':
      return { ok: true, record: { case: claim.case, label, proof: ['장애인등록증: 탑승 시 확인'] } };
    case 'SENIOR': {
      const birth = trimmed(claim.birth_date);
      if (!realDate(birth)) return refuse('eligibility.birth_date', '생년월일을 YYYY-MM-DD 형식으로 입력해주세요.');
      const age = ageOn(birth, tripDay);
      if (age < SENIOR_AGE) return refuse('eligibility.birth_date', `출발일(${tripDay}) 기준 만 ${age}세로, 만 ${SENIOR_AGE}세 이상만 이 경우로 예약할 수 있습니다.`);
      return { ok: true, record: { case: claim.case, label, proof: [`생년월일: ${birth} (출발일 기준 만 ${age}세)`] } };
    }
    case 'CORPORATE': {
      const contract = trimmed(claim.contract_number);
      if (contract.length < 3 || contract.length > 40) return refuse('eligibility.contract_number', `${CORPORATE_MIN_MONTHS}개월 이상 임차 계약의 계약번호를 입력해주세요.`);
      return { ok: true, record: { case: claim.case, label, proof: [`법인 계약번호: ${contract}`] } };
    }
    case 'WEDDING': {
      const date = trimmed(claim.wedding_date);
      const venue = trimmed(claim.wedding_venue);
      if (!realDate(date)) return refuse('eligibility.wedding_date', '결혼식 날짜를 YYYY-MM-DD 형식으로 입력해주세요.');
      if (date !== tripDay) return refuse('eligibility.wedding_date', `결혼식 날짜(${date})와 출발일(${tripDay})이 같아야 합니다.`);
      if (venue.length < 2 || venue.length > 100) return refuse('eligibility.wedding_venue', '예식장 이름이나 주소를 입력해주세요.');
      return { ok: true, record: { case: claim.case, label, proof: [`결혼식: ${date}`, `예식장: ${venue}`] } };
    }
    case 'VAN_TOURISM': {
      const hours = trip.end ? (trip.end.getTime() - trip.start.getTime()) / HOUR_MS : 0;
      if (hours < VAN_TOURISM_MIN_HOURS) return refuse('end_at', `관광 목적 승합차는 ${VAN_TOURISM_MIN_HOURS}시간 이상 이용해야 합니다. 도착 시간을 확인해주세요.`);
      return { ok: true, record: { case: claim.case, label, proof: [`이용 시간: ${Math.round(hours * 10) / 10}시간`] } };
    }
    case 'VAN_PORT': {
      const number = trimmed(claim.transport_number) || trimmed(trip.flightNumber);
      if (!number || !TRANSPORT.test(number)) return refuse('eligibility.transport_number', '항공편명(예: KE123) 또는 선박편명을 입력해주세요.');
      return { ok: true, record: { case: claim.case, label, proof: [`항공·선박편: ${number.toUpperCase()}`] } };
    }
  }
}

/** Dev default partner (BUTLER_PARTNER_NAME / BUTLER_PARTNER_LICENCE are required in production). */
export const DEV_PARTNER = { name: '(개발용) 럭스 고급택시 운수', licence: '개발-0000' } as const;

/** The partner line the booking form, confirmation, detail and receipt show. */
export function partnerLine(partner: { name: string; licence: string }): string {
  return `운송: ${partner.name} (여객자동차운송사업 면허 ${partner.licence})`;
}

/** What GET /butlers/legal answers: the running model and what the pages show for it. */
export interface ButlerLegalAnswer {
  model: ButlerLegalModel;
  partner: { name: string; licence: string } | null;
  cases: { case: ExemptionCase; label: string; hint: string; van_only: boolean }[];
  /** own-car: the driver's hourly rate and the hours always charged (null under the other models). */
  own_car: { hourly_rate: number; min_hours: number } | null;
}

export function legalAnswer(model: ButlerLegalModel, partner: { name: string; licence: string }, ownCarHourlyRate: number = DEFAULT_OWN_CAR_HOURLY_RATE): ButlerLegalAnswer {
  return {
    model,
    partner: model === 'partner' ? { ...partner } : null,
    own_car: model === 'own-car' ? { hourly_rate: ownCarHourlyRate, min_hours: INCLUDED_HOURS } : null,
    cases: model === 'exemptions' ? EXEMPTION_CASES.map((c) => ({ case: c, label: EXEMPTION_LABELS[c], hint: EXEMPTION_PROOF_HINTS[c], van_only: VAN_ONLY_CASES.includes(c) })) : [],
  };
}

/** Whether a fleet car may be offered under the model and claimed case (van-only cases: vans only). */
export function carAllowed(model: ButlerLegalModel, claimCase: ExemptionCase | null | undefined, subModel: string | null | undefined): boolean {
  if (model === 'own-car') return false;
  if (model === 'exemptions' && claimCase && VAN_ONLY_CASES.includes(claimCase)) return isVan(subModel);
  return true;
}

/** How the terms, FAQ and /fleet state which legal model runs (the same answer the booking form reads). */
export function butlerLegalLines(legal: ButlerLegalAnswer): string[] {
  if (legal.model === 'partner' && legal.partner) {
    return [
      `의전 운행은 면허를 가진 운송사업자가 수행합니다. ${partnerLine(legal.partner)}`,
      '운송사업자는 예약 확인, 계약서와 영수증에 표시됩니다.',
    ];
  }
  if (legal.model === 'exemptions') {
    return [
      '운전자를 포함한 차량 대여는 여객자동차 운수사업법 제34조와 시행령 제18조가 정한 경우(외국인, 장애인, 만 65세 이상, 법인 장기 임차, 결혼식, 11~15인승 승합차 관광·공항 이동)에만 예약할 수 있습니다.',
      '예약 시 해당하는 경우와 증빙을 입력하며, 증빙이 확인되지 않으면 예약이 거절되고 결제 금액은 전액 환불됩니다.',
    ];
  }
  const rate = legal.own_car?.hourly_rate ?? DEFAULT_OWN_CAR_HOURLY_RATE;
  const hours = legal.own_car?.min_hours ?? INCLUDED_HOURS;
  return [
    '의전 서비스는 고객님의 차량(이용 중인 LUXE 구독 차량 포함)에 기사를 배정하는 방식으로만 운영됩니다. 운전자를 포함한 차량 대여는 제공하지 않습니다.',
    `요금은 기사 시간당 ${won(rate)}이며, 최소 ${hours}시간 요금이 부과되고 초과 시간은 시작한 시간마다 같은 요금으로 계산됩니다.`,
    '고객님의 차량은 다른 운전자가 운전해도 보상되는 보험(누구나 운전 특약 또는 임시운전자 특약)에 가입되어 있어야 합니다.',
  ];
}
