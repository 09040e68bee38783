import { formatNumber, won } from './money';
import type { PaymentView, RefundView } from './payments';
import { NO_UNUSED_PREPAYMENT, PREPAYMENT_REFUND_LINE, unusedPrepaymentDetail, type UnusedPrepayment } from './prepayment';

/**
 * 반납 정산 (return settlement, issue 39): what the customer owes at the return and how it is paid:
 * from the 보증금 first, the rest charged to the card, or what is left of the deposit refunded. One
 * rule for the API, the console, my page and the message (docs/decisions/settlement.md).
 *
 * - 초과 주행 요금: the mileage rule's amount (src/domain/mileage.ts) less what was already charged
 *   for it (a `SUBSCRIPTION_MILEAGE` charge made before the settlement is not counted again).
 * - 손상: per damage item (one incident, as staff enter it), the customer pays the repair estimate up
 *   to the contract's 자기부담금 (사고 1건당): min(금액, 자기부담금). The insurance pays the rest.
 * - 연료·충전 부족: percent of the tank (or battery) short at the return × FUEL_SHORTFALL_PER_PERCENT,
 *   the percent from the handover records (src/domain/fuel.ts), summed over the cars after a swap.
 * - 합계 = the lines. 보증금 차감 = min(보증금, 합계); 카드 결제 = 합계 − 보증금 차감;
 *   보증금 환불 = 보증금 − 보증금 차감. Whole won; nothing to round.
 * - 미사용 선납금 (src/domain/prepayment.ts): a credit line (negative amount), not in 합계; it pays
 *   what the deposit did not cover, and the rest of it is refunded with the rest of the deposit.
 *   Both are held by the first payment: deposit + credit never exceed what it still holds (`held`).
 */

/** Won per percent of the tank (or battery) short at the return: the fuel or electricity plus the 주유·충전 대행. */
export const FUEL_SHORTFALL_PER_PERCENT = 3_000;
/**
 * Hours the settlement waits for the customer to acknowledge the return record (issue 49; the terms
 * state it): within them staff settle only with a written reason (an override, audited); after
 * them the record stands as the customer did not dispute it.
 */
export const SETTLEMENT_ACK_WAIT_HOURS = 48;

/** Where the customer's acknowledgement of the return record stands for the settlement. */
export interface SettlementAcknowledgement {
  /** NONE: no return record to acknowledge (readings typed); WAITING: within the wait; TIMED_OUT: the wait passed unacknowledged. */
  state: 'NONE' | 'ACKNOWLEDGED' | 'WAITING' | 'TIMED_OUT';
  acknowledged_at: string | null;
  /** The end of the wait (ISO; null without a record). */
  wait_until: string | null;
}

/** The acknowledgement's state at `now` for the return record (null: none recorded). */
export function settlementAcknowledgement(record: { recordedAt: Date; acknowledgedAt: Date | null } | null, now: Date): SettlementAcknowledgement {
  if (!record) return { state: 'NONE', acknowledged_at: null, wait_until: null };
  const until = new Date(record.recordedAt.getTime() + SETTLEMENT_ACK_WAIT_HOURS * 3_600_000);
  const state = record.acknowledgedAt ? 'ACKNOWLEDGED' : now < until ? 'WAITING' : 'TIMED_OUT';
  return { state, acknowledged_at: record.acknowledgedAt?.toISOString() ?? null, wait_until: until.toISOString() };
}

/** Most damage items one settlement takes. */
export const MAX_DAMAGES = 20;
/** Largest repair estimate of one item (won). */
export const MAX_DAMAGE_AMOUNT = 100_000_000;
export const MAX_DAMAGE_DESCRIPTION = 100;

export interface Damage {
  description: string;
  /** The repair estimate (won). */
  amount: number;
}

export interface SettlementRuleInput {
  /** 보증금 paid with the first payment and still held (won; 0 = none). */
  deposit: number;
  /** The mileage rule's overage amount on the RETURN reading (won). */
  overage: number;
  /** What was already charged for the overage before the settlement (won). */
  overagePaid: number;
  /** The mileage rule's arithmetic ("주행 8,000km − 약정 7,500km = …"): the line's detail says what the amount is made of. */
  overageArithmetic?: string;
  damages: readonly Damage[];
  /** The contract's 자기부담금 per incident (won). */
  deductible: number;
  /** Percent of the tank or battery short of what it was at the handover (src/domain/fuel.ts). */
  fuelShortfallPercent: number;
  /** How the records gave it ("인도 80% → 반납 60%"); the line's detail starts with it. */
  fuelArithmetic?: string;
  /** The unused 선납금 (src/domain/prepayment.ts); none when absent. */
  prepayment?: UnusedPrepayment;
  /** What the first payment (보증금 + 선납금) still holds (won); no cap when absent. */
  held?: number;
}

/** OVERAGE, DAMAGE, FUEL: what the customer pays; PREPAYMENT: the unused 선납금 credited (negative amount). */
type SettlementLineKind = 'OVERAGE' | 'DAMAGE' | 'FUEL' | 'PREPAYMENT';

export interface SettlementLine {
  kind: SettlementLineKind;
  /** Korean label: "초과 주행 요금", "손상: 앞범퍼 긁힘", "연료·충전 부족". */
  label: string;
  /** What the customer pays for this line (won). */
  amount: number;
  /** How it was reached, in Korean ("수리 견적 800,000원 → 자기부담금 한도 500,000원"). */
  detail: string;
}

export interface SettlementResult {
  lines: SettlementLine[];
  /** 정산 합계: the charge lines (the credit line not included). */
  total: number;
  deposit: number;
  /** The unused 선납금 credited (won; the PREPAYMENT line's amount, positive). */
  prepayment_refund: number;
  from_deposit: number;
  to_charge: number;
  to_refund: number;
  /** The arithmetic in one Korean line. */
  summary: string;
}

/** The customer's share of one damage item: the estimate up to the 자기부담금. */
export const damageShare = (amount: number, deductible: number) => Math.max(0, Math.min(amount, deductible));

/** A refusal of the staff's input in Korean (null: it can be settled). */
export function settlementInputRefusal(input: { damages: readonly Damage[]; fuelShortfallPercent: number }): { field: string; message: string } | null {
  if (input.damages.length > MAX_DAMAGES) return { field: 'damages', message: `손상 항목은 최대 ${MAX_DAMAGES}개까지 입력할 수 있습니다.` };
  for (const d of input.damages) {
    if (!d.description.trim() || d.description.length > MAX_DAMAGE_DESCRIPTION) return { field: 'damages', message: `손상 내용은 1~${MAX_DAMAGE_DESCRIPTION}자로 입력해주세요.` };
    if (!Number.isInteger(d.amount) || d.amount < 1 || d.amount > MAX_DAMAGE_AMOUNT) return { field: 'damages', message: `손상 금액은 1~${formatNumber(MAX_DAMAGE_AMOUNT)}원 사이의 정수로 입력해주세요.` };
  }
  if (!Number.isInteger(input.fuelShortfallPercent) || input.fuelShortfallPercent < 0 || input.fuelShortfallPercent > 100) {
    return { field: 'fuel_shortfall_percent', message: '연료·충전 부족은 0~100% 사이의 정수로 입력해주세요.' };
  }
  return null;
}

export function settle(input: SettlementRuleInput): SettlementResult {
  const lines: SettlementLine[] = [];
  const overageDue = Math.max(0, input.overage - input.overagePaid);
  if (input.overage > 0) {
    // Never the label again inside its own detail ("초과 주행 요금 (초과 주행 요금 520,000원)", issue 49).
    const made = input.overageArithmetic ?? won(input.overage);
    const detail = input.overagePaid > 0 ? `${made} − 이미 결제 ${won(Math.min(input.overage, input.overagePaid))}` : made;
    lines.push({ kind: 'OVERAGE', label: '초과 주행 요금', amount: overageDue, detail });
  }
  for (const d of input.damages) {
    const share = damageShare(d.amount, input.deductible);
    const detail = share < d.amount ? `수리 견적 ${won(d.amount)} → 자기부담금 한도 ${won(input.deductible)}` : `수리 견적 ${won(d.amount)}`;
    lines.push({ kind: 'DAMAGE', label: `손상: ${d.description.trim()}`, amount: share, detail });
  }
  if (input.fuelShortfallPercent > 0) {
    lines.push({
      kind: 'FUEL', label: '연료·충전 부족', amount: input.fuelShortfallPercent * FUEL_SHORTFALL_PER_PERCENT,
      detail: `${input.fuelArithmetic ? `${input.fuelArithmetic} = ` : ''}${input.fuelShortfallPercent}% × 1%당 ${won(FUEL_SHORTFALL_PER_PERCENT)}`,
    });
  }
  const total = lines.reduce((s, l) => s + l.amount, 0);
  const held = input.held === undefined ? Infinity : Math.max(0, input.held);
  const deposit = Math.min(Math.max(0, input.deposit), held);
  const unused = input.prepayment ?? NO_UNUSED_PREPAYMENT;
  const credit = Math.max(0, Math.min(unused.amount, held - deposit));
  if (unused.amount > 0) lines.push({ kind: 'PREPAYMENT', label: '미사용 선납금 환급', amount: -credit, detail: unusedPrepaymentDetail(unused, credit) });
  const fromDeposit = Math.min(deposit, total);
  const fromCredit = Math.min(credit, total - fromDeposit);
  const toCharge = total - fromDeposit - fromCredit;
  const toRefund = deposit - fromDeposit + credit - fromCredit;
  const numbers = { total, deposit, prepayment_refund: credit, to_charge: toCharge, to_refund: toRefund };
  return { lines, ...numbers, from_deposit: fromDeposit, summary: settlementSummary(numbers) };
}

/** The unused 선납금 credited by a settlement's lines (0 for one without the line). */
export const prepaymentRefundOf = (lines: readonly SettlementLine[]) => -(lines.find((l) => l.kind === 'PREPAYMENT')?.amount ?? 0);

/**
 * "정산 합계 190,000원 − 보증금 500,000원 → 보증금 환불 310,000원", "정산 합계 700,000원 − 보증금
 * 500,000원 = 카드 결제 200,000원", "정산 합계 0원, 보증금 없음 → 추가 결제 없음".
 */
export function settlementSummary(s: Pick<SettlementResult, 'total' | 'deposit' | 'to_charge' | 'to_refund'> & { prepayment_refund?: number }): string {
  const credit = s.prepayment_refund ?? 0;
  if (credit > 0) {
    // "보증금 500,000원 + 미사용 선납금 300,000원 − 정산 합계 370,000원 = 환불 430,000원"
    const parts = [...(s.deposit > 0 ? [`보증금 ${won(s.deposit)}`] : []), `미사용 선납금 ${won(credit)}`];
    const credits = parts.join(' + ');
    if (s.to_charge > 0) return `정산 합계 ${won(s.total)} − ${parts.join(' − ')} = 카드 결제 ${won(s.to_charge)}`;
    if (s.to_refund > 0) return `${credits} − 정산 합계 ${won(s.total)} = 환불 ${won(s.to_refund)}`;
    return `정산 합계 ${won(s.total)} = ${credits} → 추가 결제·환불 없음`;
  }
  if (s.deposit === 0) return s.total === 0 ? '정산 합계 0원, 보증금 없음 → 추가 결제 없음' : `정산 합계 ${won(s.total)}, 보증금 없음 → 카드 결제 ${won(s.to_charge)}`;
  if (s.to_charge > 0) return `정산 합계 ${won(s.total)} − 보증금 ${won(s.deposit)} = 카드 결제 ${won(s.to_charge)}`;
  if (s.to_refund > 0) return `보증금 ${won(s.deposit)} − 정산 합계 ${won(s.total)} = 보증금 환불 ${won(s.to_refund)}`;
  return `정산 합계 ${won(s.total)} = 보증금 ${won(s.deposit)} → 추가 결제·환불 없음`;
}

/** The rule in Korean sentences (terms, FAQ, console). */
export const SETTLEMENT_RULE_LINES = [
  '반납 시 초과 주행 요금, 손상 수리비(사고·손상 1건당 계약서의 자기부담금 한도), 연료·충전 부족분을 정산합니다.',
  `연료·충전 부족분은 인도 때보다 부족한 1%당 ${won(FUEL_SHORTFALL_PER_PERCENT)}입니다.`,
  '정산 금액은 보증금에서 먼저 차감하고, 모자라는 금액은 등록된 카드로 결제하며, 남은 보증금은 첫 결제 카드로 환불합니다.',
  `반납 기록은 고객이 확인한 뒤 정산합니다. 기록 후 ${SETTLEMENT_ACK_WAIT_HOURS}시간 안에 확인하지 않으면 기록대로 정산하며, 그 전에 정산할 때는 운영팀이 사유를 남깁니다.`,
  PREPAYMENT_REFUND_LINE,
  '미사용 선납금은 보증금으로 부족한 정산 금액에 먼저 쓰고, 남은 금액은 남은 보증금과 함께 첫 결제 카드로 한 번에 환불합니다.',
];

/** A settlement as the API answers it (staff and the customer; GET /subscriptions/{id}/settlement, the console). */
export interface SettlementView extends SettlementResult {
  subscription_id: number;
  status: 'PREVIEW' | 'PENDING' | 'DONE';
  deductible: number;
  damages: Damage[];
  fuel_shortfall_percent: number;
  /** How the handover records gave the fuel shortfall (a preview always; a stored one: its line's, null without one). */
  fuel_arithmetic: string | null;
  /** The mileage arithmetic on the RETURN reading. */
  mileage_arithmetic: string;
  /** The customer's acknowledgement of the return record (a preview; null once stored). */
  acknowledgement: SettlementAcknowledgement | null;
  /** The charge's latest attempt (null: nothing to charge, or a preview). */
  payment: PaymentView | null;
  /** The deposit refund (null: nothing to refund, or a preview). */
  refund: RefundView | null;
  created_at: string | null;
  completed_at: string | null;
}

