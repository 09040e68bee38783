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

/** What the console's order desk shows for each status (its filter and rows). */
export const DESK_STATUS_LABEL: Record<OrderStatus, string> = {
  PENDING: '대기',
  CONFIRMED: '확정',
  CANCELLED: '취소',
};
