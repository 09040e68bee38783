import { CONTRACT_DEFAULTS } from './contract';
import { billingMonthOf } from './early-exit';
import { formatNumber, won } from './money';
import { monthlyChargeDate } from './payments';
import type { CarOptionPrices, StoredOrderOptions } from './subscription-price';
import type { SwapOfCars } from './swap-cars';

/**
 * 주행거리 (mileage, issue 39): odometer readings of a subscription and the overage settled at the
 * return. One rule for the API, my page, the console, the message and the terms
 * (docs/decisions/mileage.md).
 *
 * - 약정 주행거리 = 월 약정 km × 이용 개월 수. 이용 개월 수 = the billing months (month k starts on
 *   its charge day, monthlyChargeDate) begun on or before the day of the latest reading, at most the
 *   term: a month begun counts whole (the customer's favour), so a return 10 days into month 4 gives
 *   4 months of allowance.
 * - 주행 km = latest reading − the HANDOVER reading. 초과 km = max(0, 주행 − 약정).
 *   With 차량 교체 (swaps) it is the sum over the subscription's cars of each car's last reading
 *   − its first (HANDOVER/SWAP_IN … SWAP_OUT/RETURN): mileageLegs.
 * - 초과 요금 = 초과 km × 1km당 단가 (won; whole numbers, nothing to round).
 * - The allowance is pooled over the whole term, so the overage is settled once, at the return.
 */

/**
 * Where a reading comes from: the handover (인도), the customer's monthly report, the return (반납),
 * staff in the console, and a swap's pair (교체 반납: the old car handed back; 교체 인도: the new car).
 */
export const ODOMETER_SOURCES = ['HANDOVER', 'SELF', 'RETURN', 'STAFF', 'SWAP_OUT', 'SWAP_IN'] as const;
export type OdometerSource = (typeof ODOMETER_SOURCES)[number];
export const ODOMETER_SOURCE_LABEL: Record<OdometerSource, string> = {
  HANDOVER: '인도 시', SELF: '고객 입력', RETURN: '반납 시', STAFF: '직원 기록', SWAP_OUT: '교체 반납 시', SWAP_IN: '교체 인도 시',
};
/** Sources a swap has at most one of (unique per swap; recording them again is idempotent). */
export const SWAP_SOURCES: readonly OdometerSource[] = ['SWAP_OUT', 'SWAP_IN'];
/** Sources a subscription has at most one of (recording them again is idempotent). */
export const SINGLE_SOURCES: readonly OdometerSource[] = ['HANDOVER', 'RETURN'];
/** The sources staff choose from in the console. */
export const STAFF_SOURCES = ['HANDOVER', 'STAFF', 'RETURN'] as const;
/** Largest odometer a form accepts (km). */
export const MAX_ODOMETER_KM = 2_000_000;

export interface OdometerReading {
  km: number;
  /** The Korean day the odometer was read (YYYY-MM-DD). */
  readOn: string;
  source: OdometerSource;
  /** The subscription's billing month the day falls in (1 = the first). */
  billingMonth: number;
  /** The car read (callers give the order's car for rows from before swaps). */
  carId?: number | null;
}

/** The plan the overage is settled by: the order's, or what the contract said for orders placed before options. */
export interface MileageTerms {
  monthlyKm: number;
  overagePerKm: number;
  /** ORDER: the order's chosen plan and the car's rate then; CONTRACT: a pre-options order (월 2,500km, the car's rate). */
  basis: 'ORDER' | 'CONTRACT';
}

/**
 * The mileage terms of an order. An order with options holds its plan's km and the car's overage
 * rate at the time. An order from before options has none: its contract says 월 2,500km
 * (CONTRACT_DEFAULTS) and "초과 1km당 차량별로 안내된 금액", which is the car's own rate (what staff
 * set, else the derived default, carOptionPrices).
 */
export function mileageTerms(stored: Pick<StoredOrderOptions, 'options' | 'prices'> | null, carPrices: Pick<CarOptionPrices, 'overage_per_km'>): MileageTerms {
  if (stored) return { monthlyKm: stored.options.mileage_km, overagePerKm: stored.prices.overage_per_km, basis: 'ORDER' };
  return { monthlyKm: CONTRACT_DEFAULTS.mileage.monthlyKm, overagePerKm: carPrices.overage_per_km, basis: 'CONTRACT' };
}

export interface MileageSettlement {
  /** Billing months begun by the reading's day (1…term). */
  months: number;
  monthly_km: number;
  allowance_km: number;
  handover_km: number;
  latest_km: number;
  driven_km: number;
  overage_km: number;
  per_km: number;
  /** Won. */
  amount: number;
  /** With a swap: the km driven in each car, in order (their sum is driven_km); absent without one. */
  legs_km?: number[];
}

export interface SettlementInput {
  startDate: string;
  termMonths: number;
  terms: Pick<MileageTerms, 'monthlyKm' | 'overagePerKm'>;
  handover: Pick<OdometerReading, 'km'>;
  latest: Pick<OdometerReading, 'km' | 'readOn'>;
  /** The subscription's cars (mileageLegs); absent: one car, latest − handover. */
  legs?: readonly MileageLeg[];
}

/** 이용 개월 수 on a day: billing months begun on or before it, 1…term (a month begun counts whole). */
export const monthsUsed = (startDate: string, termMonths: number, day: string) => billingMonthOf(startDate, day, Math.max(1, termMonths));

/** The overage on the latest reading: allowance, km driven, km over it and the amount. */
export function mileageSettlement(input: SettlementInput): MileageSettlement {
  const months = monthsUsed(input.startDate, input.termMonths, input.latest.readOn);
  const allowance = input.terms.monthlyKm * months;
  const legs = input.legs && input.legs.length ? input.legs : null;
  const driven = legs ? legs.reduce((sum, l) => sum + l.driven_km, 0) : Math.max(0, input.latest.km - input.handover.km);
  const overage = Math.max(0, driven - allowance);
  return {
    months, monthly_km: input.terms.monthlyKm, allowance_km: allowance, handover_km: legs ? legs[0].from_km : input.handover.km, latest_km: legs ? legs[legs.length - 1].to_km : input.latest.km,
    driven_km: driven, overage_km: overage, per_km: input.terms.overagePerKm, amount: overage * input.terms.overagePerKm,
    ...(legs && legs.length > 1 ? { legs_km: legs.map((l) => l.driven_km) } : {}),
  };
}

/** One car's part of a subscription's mileage: its first reading (HANDOVER or SWAP_IN) to its last (SWAP_OUT, RETURN, or the latest so far). */
export interface MileageLeg {
  car_id: number;
  from_km: number;
  to_km: number;
  driven_km: number;
}

/** A reading as mileageLegs reads it: its car (the order's for rows from before swaps) and its swap. */
export interface CarReading {
  km: number;
  readOn: string;
  source: OdometerSource;
  carId: number;
  swapId: number | null;
}

/** A CONFIRMED swap as the mileage reads it. */
export interface MileageSwap extends SwapOfCars {
  id: number;
}

/**
 * The subscription's mileage per car (docs/decisions/mileage.md, Swaps): the order's car from the
 * HANDOVER reading to the first swap's SWAP_OUT, each swap's new car from its SWAP_IN to the next
 * swap's SWAP_OUT, the last car to the RETURN (`final`) or to its latest reading so far. Each car's
 * km are its own odometer's difference, so driving two cars adds up while the allowance stays pooled.
 * `final`: every one of those readings must exist ({ missing: the Korean name of the first absent
 * one }); an estimate stops at a swap whose new car has no reading yet.
 */
export function mileageLegs(orderCarId: number, swaps: readonly MileageSwap[], readings: readonly CarReading[], final: boolean): { legs: MileageLeg[] } | { missing: string } {
  const ordered = [...swaps].sort((a, b) => (a.swapDate < b.swapDate ? -1 : a.swapDate > b.swapDate ? 1 : a.id - b.id));
  let start = readings.find((r) => r.source === 'HANDOVER');
  if (!start) return { missing: '인도 시 주행거리' };
  let carId = orderCarId;
  const legs: MileageLeg[] = [];
  const highest = (car: number, from: string, to: string | null) =>
    readings.filter((r) => r.carId === car && r.readOn >= from && (to === null || r.readOn <= to)).reduce<CarReading | undefined>((m, r) => (!m || r.km > m.km ? r : m), undefined);
  for (let i = 0; ; i++) {
    const next = ordered[i] as MileageSwap | undefined;
    let end = next ? readings.find((r) => r.source === 'SWAP_OUT' && r.swapId === next.id) : final ? readings.find((r) => r.source === 'RETURN') : undefined;
    if (!end) {
      if (final) return { missing: next ? `${next.swapDate} 교체 반납 시 주행거리` : '반납 시 주행거리' };
      end = highest(carId, start.readOn, next ? next.swapDate : null) ?? start;
    }
    legs.push({ car_id: carId, from_km: start.km, to_km: end.km, driven_km: Math.max(0, end.km - start.km) });
    if (!next) break;
    const incoming = readings.find((r) => r.source === 'SWAP_IN' && r.swapId === next.id);
    if (!incoming && final) return { missing: `${next.swapDate} 교체 인도 시 주행거리` };
    // An estimate before the new car's reading: its earliest reading since the swap, else stop here.
    const first = incoming ?? readings.filter((r) => r.carId === next.toCarId && r.readOn >= next.swapDate).reduce<CarReading | undefined>((m, r) => (!m || r.km < m.km ? r : m), undefined);
    if (!first) break;
    start = first;
    carId = next.toCarId;
  }
  return { legs };
}

const km = (n: number) => `${formatNumber(n)}km`;

/** The arithmetic in one Korean line (my page, console, message): "주행 8,200km − 약정 7,500km = 초과 700km × 1km당 200원 = 140,000원". */
export function mileageArithmetic(s: Pick<MileageSettlement, 'driven_km' | 'allowance_km' | 'overage_km' | 'per_km' | 'amount' | 'legs_km'>): string {
  // With a swap the parts show first: "주행 (3,100km + 5,100km) 8,200km − …".
  const driven = s.legs_km && s.legs_km.length > 1 ? `(${s.legs_km.map(km).join(' + ')}) ${km(s.driven_km)}` : km(s.driven_km);
  if (s.overage_km === 0) return `주행 ${driven} − 약정 ${km(s.allowance_km)} → 초과 주행 없음 (0원)`;
  return `주행 ${driven} − 약정 ${km(s.allowance_km)} = 초과 ${km(s.overage_km)} × 1km당 ${won(s.per_km)} = ${won(s.amount)}`;
}

/** How the allowance was made: "월 2,500km × 3개월 = 7,500km". */
export const allowanceArithmetic = (s: Pick<MileageSettlement, 'monthly_km' | 'months' | 'allowance_km'>) => `월 ${km(s.monthly_km)} × ${s.months}개월 = ${km(s.allowance_km)}`;

export type Refusal = { status: 400 | 409; reason: string };

/**
 * Why a new reading cannot be recorded (null: it can). Readings never go down: a reading must be at
 * least every reading of an earlier or the same day, and at most every reading of a later day (400)
 * — of the same car (`carId`; after a swap each car has its own odometer; callers give the order's
 * car for rows from before swaps). Nothing is recorded after the return, and no reading before the
 * handover's day (409/400).
 */
export function readingRefusal(
  all: readonly Pick<OdometerReading, 'km' | 'readOn' | 'source' | 'carId'>[],
  next: Pick<OdometerReading, 'km' | 'readOn' | 'source' | 'carId'>,
): Refusal | null {
  const existing = all.filter((r) => (r.carId ?? null) === (next.carId ?? null));
  if (!Number.isInteger(next.km) || next.km < 0 || next.km > MAX_ODOMETER_KM) return { status: 400, reason: `주행거리는 0~${formatNumber(MAX_ODOMETER_KM)}km 사이의 정수로 입력해주세요.` };
  if (next.source !== 'RETURN' && all.some((r) => r.source === 'RETURN')) return { status: 409, reason: '반납 주행거리가 기록된 구독에는 더 기록할 수 없습니다.' };
  const handover = all.find((r) => r.source === 'HANDOVER');
  if (handover && next.readOn < handover.readOn) return { status: 400, reason: `인도일(${handover.readOn}) 이전 날짜로는 기록할 수 없습니다.` };
  const before = existing.filter((r) => r.readOn <= next.readOn);
  const highest = before.reduce((m, r) => Math.max(m, r.km), -1);
  if (next.km < highest) return { status: 400, reason: `주행거리는 줄어들 수 없습니다. 이전 기록(${km(highest)})보다 크거나 같게 입력해주세요.` };
  const after = existing.filter((r) => r.readOn > next.readOn);
  const lowest = after.reduce((m, r) => Math.min(m, r.km), Number.POSITIVE_INFINITY);
  if (next.km > lowest) return { status: 400, reason: `이후 날짜의 기록(${km(lowest)})보다 클 수 없습니다.` };
  return null;
}

/** Where the customer's monthly report stands on a day: once per billing month. */
export interface SelfReportWindow {
  /** The billing month the day falls in. */
  billing_month: number;
  /** Already reported this billing month. */
  reported: boolean;
  /** The day the next report opens (the next billing month's first day); null in the term's last month. */
  next_open: string | null;
  /** Why the customer cannot report now (null: they can). */
  refusal: string | null;
}

/**
 * The self-report window on `today`: from the start day to the day before the end day, once per
 * billing month (a second report in the same month is refused, not replaced: readings are a record
 * staff and the settlement rely on; a wrong one is corrected by staff).
 */
export function selfReportWindow(s: { startDate: string; endDate: string; termMonths: number; active: boolean }, existing: readonly Pick<OdometerReading, 'source' | 'billingMonth'>[], today: string): SelfReportWindow {
  const month = monthsUsed(s.startDate, s.termMonths, today);
  const reported = existing.some((r) => r.source === 'SELF' && r.billingMonth === month);
  const nextStart = monthlyChargeDate(s.startDate, month + 1);
  const next_open = month < s.termMonths && nextStart <= s.endDate ? nextStart : null;
  let refusal: string | null = null;
  if (!s.active) refusal = '이용 중인 구독만 주행거리를 입력할 수 있습니다.';
  else if (existing.some((r) => r.source === 'RETURN')) refusal = '반납이 끝난 구독입니다.';
  else if (today < s.startDate) refusal = `구독 시작일(${s.startDate})부터 입력할 수 있습니다.`;
  else if (today > s.endDate) refusal = '이용 기간이 끝난 구독입니다.';
  else if (reported) refusal = next_open ? `이번 달 주행거리는 이미 입력하셨습니다. ${next_open}부터 다시 입력할 수 있습니다.` : '이번 달 주행거리는 이미 입력하셨습니다.';
  return { billing_month: month, reported, next_open, refusal };
}

/** The rule in Korean sentences (terms, FAQ, my page). */
export const MILEAGE_RULE_LINES = [
  '약정 주행거리는 선택한 주행거리 플랜의 월 km × 이용 개월 수이며, 구독 시작일 기준 결제 월이 시작된 달은 한 달로 계산합니다.',
  '주행거리는 반납 시 주행거리에서 인도 시 주행거리를 뺀 거리이며, 약정 주행거리를 넘은 km × 차량별 1km당 초과 요금이 반납 정산에 포함됩니다(보증금에서 먼저 차감).',
  '마이페이지에서 매 결제 월 한 번 현재 주행거리를 입력해 남은 약정 주행거리를 확인할 수 있으며, 입력한 주행거리는 이전 기록보다 작을 수 없습니다.',
];
