import { formatWon, won } from './money';
/**
 * Status of a subscription request or a butler request: PENDING until staff confirm it,
 * CONFIRMED once they have, CANCELLED once the customer or staff cancelled it.
 */
export const ORDER_STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** What a customer reads for each status (my orders, the butler lists). */
export const ORDER_STATUS_LABEL: Record<OrderStatus, string> = {
  PENDING: '접수',
  CONFIRMED: '확정',
  CANCELLED: '취소',
};

/**
 * A request's state as the customer reads it: a cancelled request whose first charge was declined
 * was never received, which 취소 alone would misname.
 */
export function requestStateText(r: { status: OrderStatus; payment?: { status: string } | null }): string {
  if (r.status === 'CANCELLED' && r.payment?.status === 'FAILED') return '결제 실패 (접수되지 않음)';
  return ORDER_STATUS_LABEL[r.status];
}

/** The question before a pending request is cancelled, with what comes back: the paid first payment in full, the coupon and the points. */
export function requestCancelQuestion(r: { payment?: { status: string; amount: number } | null; point_used: number }): string {
  const paid = r.payment?.status === 'PAID' ? r.payment.amount : 0;
  const back = [paid > 0 ? `결제한 ${won(paid)} 전액을 환불하고` : null, r.point_used > 0 ? `포인트 ${formatWon(r.point_used)} P와 쿠폰을 돌려드립니다.` : '쿠폰을 사용했다면 돌려드립니다.'].filter(Boolean).join(' ');
  return `구독 신청을 취소하시겠습니까? ${back} 취소 후에는 되돌릴 수 없습니다.`;
}

/** What the console's order desk shows for each status (its filter and rows). */
export const DESK_STATUS_LABEL: Record<OrderStatus, string> = {
  PENDING: '대기',
  CONFIRMED: '확정',
  CANCELLED: '취소',
};
