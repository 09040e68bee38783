import { requoteButler, type ButlerCar, type ButlerQuote, type ButlerRequestView, type Instant } from '../../../domain/butler';
import { formatWon, won } from '../../../domain/money';
import type { CouponTerms } from '../../../domain/pricing';
import { vatLines } from '../../../domain/vat';

/** What an edit of a pending butler request costs, as PUT /butlers/requests/{id} will settle it. */
export interface EditPrice {
  /** The new price (quoteButler with the held coupon and the points kept). */
  quote: ButlerQuote;
  /** Won charged for the booking now (its final price, which every saved edit settles to). */
  current: number;
  /** quote.final − current: above 0 the card is charged the difference, below 0 it is refunded. */
  difference: number;
  /** Points given back to the balance because the new price after the coupon is below them. */
  pointsBack: number;
}

/** The price an edit will be charged (requoteButler, the server's rule), and the difference charged or refunded to what was paid. */
export function editPrice(
  car: Pick<ButlerCar, 'butler_fee' | 'butler_overtime_fee'>,
  start: Instant,
  end: Instant | null,
  coupon: Pick<CouponTerms, 'discount_type' | 'discount_rate' | 'discount'> | null,
  pointUsed: number,
  current: number,
): EditPrice {
  const { quote, pointsBack } = requoteButler(car, start, end, coupon, pointUsed);
  return { quote, current, difference: quote.final - current, pointsBack };
}


/** Whether saving changes what the customer pays (money or points): the save asks first then. */
export const priceChanges = (p: EditPrice) => p.difference !== 0 || p.pointsBack > 0;

/**
 * Who settles an edit's difference (docs/decisions/business-accounts.md "Changing a company trip"):
 * the booker's own card; for a company trip the company's card, its monthly invoice (no money
 * moves, the statement reads the new price), or nobody yet while it waits for approval.
 */
export type EditPayer = 'own' | 'company-card' | 'invoice' | 'waiting';

export function editPayerOf(r: Pick<ButlerRequestView, 'company_booking'>): EditPayer {
  const cb = r.company_booking;
  if (!cb) return 'own';
  if (cb.approval_status === 'WAITING') return 'waiting';
  return cb.billing === 'INVOICE' ? 'invoice' : 'company-card';
}

/** The Korean line saying what happens to the money: charged, refunded or unchanged. */
export function differenceLine(p: EditPrice, payer: EditPayer = 'own'): string {
  if (p.difference === 0) return '결제 금액은 그대로입니다.';
  if (payer === 'waiting') return '승인 전이라 결제된 금액이 없습니다. 승인되면 변경된 금액으로 결제됩니다.';
  if (payer === 'invoice') return `변경된 금액 ${won(p.quote.final)}이 회사 월 청구서에 청구됩니다. 카드로 결제되는 금액은 없습니다.`;
  const card = payer === 'company-card' ? '회사 법인카드' : null;
  if (p.difference > 0) return `차액 ${won(p.difference)}을 ${card ?? '등록된 카드'}로 추가 결제합니다.`;
  return `차액 ${won(-p.difference)}을 ${card ?? '결제한 카드'}로 환불합니다.`;
}

/** The confirmation a save asks when the price changes: old and new price, the charge or refund, the points back. */
export function priceChangeQuestion(p: EditPrice, payer: EditPayer = 'own'): string {
  return [
    `결제 금액이 ${won(p.current)}에서 ${won(p.quote.final)}으로 바뀝니다.`,
    // A company reads every price as 공급가액 and 부가세 (src/domain/vat.ts).
    ...(payer === 'own' ? [] : [`(${vatLines(p.quote.final).map((l) => `${l.label} ${won(l.amount)}`).join(' · ')})`]),
    differenceLine(p, payer),
    ...(p.pointsBack > 0 ? [`사용한 포인트 중 ${formatWon(p.pointsBack)}P는 포인트로 돌려드립니다.`] : []),
    '',
    '변경 내용을 저장하시겠습니까?',
  ].join('\n');
}
