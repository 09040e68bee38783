import { ORDER_KINDS, type OrderService, type PaymentStatus } from './payments';

/**
 * What a repeat of an order already placed (the same billing key, e.g. a page retrying after a
 * 503 whose charge went through) tells the customer: plainly that it was paid, or is being
 * confirmed, and never to pay again (issue 47). `status` is its charge's, null when nothing was due.
 */
export function repeatedOrderMessage(service: OrderService, status: PaymentStatus | null): string {
  const order = ORDER_KINDS[service].orderLabel;
  switch (status) {
    case 'PAID':
      return `이미 결제된 ${order}입니다. 다시 결제하지 않으셔도 됩니다.`;
    case 'PENDING':
      return `결제 확인 중인 ${order}입니다. 카드사 확인이 끝나면 알림으로 알려드리니 다시 결제하지 마세요.`;
    case null:
      return `이미 접수된 ${order}입니다. 결제할 금액이 없어 카드로 결제되지 않았습니다.`;
    default:
      return `이미 접수된 ${order}입니다. 결제 내역에서 결제 상태를 확인해주세요.`;
  }
}
