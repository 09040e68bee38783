import { requoteButler, type ButlerCar, type ButlerQuote, type Instant } from '../../../domain/butler';
import { formatWon, won } from '../../../domain/money';
import type { CouponTerms } from '../../../domain/pricing';

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

/** The Korean line saying what happens to the money: charged, refunded or unchanged. */
export function differenceLine(p: EditPrice): string {
  if (p.difference > 0) return `차액 ${won(p.difference)}을 등록된 카드로 추가 결제합니다.`;
  if (p.difference < 0) return `차액 ${won(-p.difference)}을 결제한 카드로 환불합니다.`;
  return '결제 금액은 그대로입니다.';
}

/** The confirmation a save asks when the price changes: old and new price, the charge or refund, the points back. */
export function priceChangeQuestion(p: EditPrice): string {
  return [
    `결제 금액이 ${won(p.current)}에서 ${won(p.quote.final)}으로 바뀝니다.`,
    differenceLine(p),
    ...(p.pointsBack > 0 ? [`사용한 포인트 중 ${formatWon(p.pointsBack)}P는 포인트로 돌려드립니다.`] : []),
    '',
    '변경 내용을 저장하시겠습니까?',
  ].join('\n');
}
