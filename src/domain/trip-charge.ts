import { durationText } from './dates';
import { withParticle } from './korean';
import { won, type PaymentLine } from './money';

/*
 * The charge after a butler trip as people read it (the trip page, the message, the receipt); its
 * rule (waiting, overtime) is src/domain/waiting.ts. Apart so the payment labels can use it
 * without depending on the butler rules.
 */

/**
 * The charge after a trip, part by part (stored with the booking when 운행 종료 is recorded, so
 * the page, the message and the receipt say what the amount is made of, by the rule it was charged by).
 */
export interface TripCharge {
  /** Hours paid at booking: the included 8 and the booked overtime. */
  booked_hours: number;
  /** 탑승 → 운행 종료 in minutes, and in started hours (the unit overtime is billed in). */
  used_minutes: number;
  used_hours: number;
  /** Started hours beyond the booked ones, and the hourly rate. */
  overtime_hours: number;
  overtime_rate: number;
  /** The coupon's share of the overtime (the coupon applies to the whole trip's total). */
  overtime_coupon: number;
  /** overtime_hours × overtime_rate − overtime_coupon. */
  overtime_amount: number;
  airport: boolean;
  waiting_minutes: number;
  free_minutes: number;
  step_minutes: number;
  waiting_steps: number;
  step_price: number;
  waiting_amount: number;
  /** Won charged at booking. */
  prepaid: number;
  /** The charge after the trip: overtime_amount + waiting_amount. */
  amount: number;
}

/** The waiting as one phrase: "80분 (공항 무료 60분 제외 20분)", "10분 (무료 15분 이내)". */
function waitingText(c: TripCharge): string {
  const free = `${c.airport ? '공항 ' : ''}무료 ${c.free_minutes}분`;
  if (c.waiting_minutes <= c.free_minutes) return `${c.waiting_minutes}분 (${free} 이내)`;
  return `${c.waiting_minutes}분 (${free} 제외 ${c.waiting_minutes - c.free_minutes}분)`;
}

/** 추가 청구 as a sum: "375,000원 = 초과 2시간 × 150,000원 + 대기 30분 단위 1회 × 75,000원"; "없음" when nothing. */
export function chargeFormula(c: TripCharge): string {
  if (c.amount === 0) return '없음';
  const parts: string[] = [];
  if (c.overtime_hours > 0) parts.push(`초과 ${c.overtime_hours}시간 × ${won(c.overtime_rate)}${c.overtime_coupon > 0 ? ` − 쿠폰 할인 ${won(c.overtime_coupon)}` : ''}`);
  if (c.waiting_steps > 0) parts.push(`대기 ${c.step_minutes}분 단위 ${c.waiting_steps}회 × ${won(c.step_price)}`);
  return `${won(c.amount)} = ${parts.join(' + ')}`;
}

/** The breakdown as labelled rows (the customer's trip page): 예약, 실제 이용, 대기, 선결제, 추가 청구. */
export function tripChargeRows(c: TripCharge): { label: string; value: string }[] {
  return [
    { label: '예약', value: `${c.booked_hours}시간` },
    { label: '실제 이용', value: `${durationText(c.used_minutes)} (탑승부터, 시작된 시간 기준 ${c.used_hours}시간)` },
    { label: '대기', value: waitingText(c) },
    { label: '선결제', value: `${won(c.prepaid)} (${c.booked_hours}시간)` },
    { label: '추가 청구', value: chargeFormula(c) },
  ];
}

/** The breakdown in one line (the message): "예약 10시간 · 실제 이용 11시간 30분 · 대기 80분 (…) · 선결제 … · 추가 청구 …". */
export function tripChargeText(c: TripCharge): string {
  return [
    `예약 ${c.booked_hours}시간`,
    `실제 이용 ${durationText(c.used_minutes)}`,
    `대기 ${waitingText(c)}`,
    `선결제 ${won(c.prepaid)}`,
    `추가 청구 ${chargeFormula(c)}`,
  ].join(' · ');
}

/**
 * Why the charge is what it is, in a sentence: "선결제한 10시간을 넘은 2시간과 무료 대기 시간을 넘은 20분이
 * 청구되었습니다." (particles by src/domain/korean.ts).
 */
export function tripChargeSentence(c: TripCharge): string {
  const over = c.overtime_hours > 0 ? `${withParticle(`선결제한 ${c.booked_hours}시간`, '을/를')} 넘은 ${c.overtime_hours}시간` : null;
  const wait = c.waiting_steps > 0 ? `무료 대기 시간을 넘은 ${c.waiting_minutes - c.free_minutes}분` : null;
  if (!over && !wait) return c.used_hours < c.booked_hours ? `선결제한 ${c.booked_hours}시간 안에서 이용해 추가 요금이 없습니다.` : '추가 요금이 없습니다.';
  const subject = over && wait ? `${withParticle(over, '과/와')} ${wait}` : (over ?? wait)!;
  return `${withParticle(subject, '이/가')} 청구됩니다.`;
}

/** The charge's lines (PaymentLine: the receipt, /my/payments, the payment message), ending in 합계. */
export function tripChargeLines(c: TripCharge): PaymentLine[] {
  const lines: PaymentLine[] = [];
  if (c.overtime_hours > 0) lines.push({ label: `초과 이용 ${c.overtime_hours}시간 × ${won(c.overtime_rate)}`, amount: c.overtime_hours * c.overtime_rate });
  if (c.overtime_coupon > 0) lines.push({ label: '쿠폰 할인', amount: -c.overtime_coupon });
  if (c.waiting_steps > 0) lines.push({ label: `대기 ${c.waiting_minutes - c.free_minutes}분 (${c.step_minutes}분 단위 ${c.waiting_steps}회 × ${won(c.step_price)})`, amount: c.waiting_amount });
  lines.push({ label: '합계', amount: c.amount });
  return lines;
}

/** What the charge after a trip holds: 초과 이용 요금, 대기 요금 or 초과 이용·대기 요금 (a stored breakdown's absence: 초과 이용 요금). */
export function tripChargeName(c: TripCharge | null | undefined): string {
  if (!c || c.waiting_amount <= 0) return '초과 이용 요금';
  return c.overtime_amount > 0 ? '초과 이용·대기 요금' : '대기 요금';
}

/** What the charge is called, with the size of its parts ("의전 초과 이용·대기 요금 (초과 2시간 · 대기 20분)"). */
export function tripChargeLabel(c: TripCharge): string {
  const parts = [c.overtime_hours > 0 && `초과 ${c.overtime_hours}시간`, c.waiting_steps > 0 && `대기 ${c.waiting_minutes - c.free_minutes}분`].filter((x): x is string => !!x);
  const name = `의전 ${tripChargeName(c)}`;
  return parts.length ? `${name} (${parts.join(' · ')})` : name;
}

/** A stored breakdown read back (jsonb), or null when it is not one. */
export function asTripCharge(value: unknown): TripCharge | null {
  return value && typeof value === 'object' && typeof (value as TripCharge).amount === 'number' ? (value as TripCharge) : null;
}
