import { won } from '../../domain/money';
import type { PaymentView } from '../../domain/payments';

/** The charge an order made, in its completion dialog: 결제 완료 with the amount and the receipt, or 결제 확인 중. */
export function PaymentDone({ payment }: { payment: PaymentView | null }) {
  if (!payment) return null;
  if (payment.status === 'PENDING') {
    return (
      <p role="status" className="mt-4 border border-line bg-paper p-3 text-sm" data-testid="payment-result">
        결제 확인 중입니다. 카드사 응답이 늦어지고 있으며, 확인되면 알림과 결제 내역으로 알려드립니다. 다시 결제하지 마세요.
      </p>
    );
  }
  return (
    <div className="mt-4 border border-line bg-paper p-3 text-sm" data-testid="payment-result">
      <p className="font-semibold">결제 완료 · {won(payment.amount)}</p>
      <p className="mt-1 flex flex-wrap gap-x-4">
        {payment.receipt_url && <a href={payment.receipt_url} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center underline underline-offset-4">영수증 보기</a>}
        <a href="/my/payments" className="inline-flex min-h-11 min-w-11 items-center underline underline-offset-4">결제 내역</a>
      </p>
    </div>
  );
}

/** A declined card: the provider's reason, nothing was spent, and a way to try another card. */
export function PaymentDeclined({ reason, onRetry }: { reason: string; onRetry: () => void }) {
  return (
    <div role="alert" className="border border-red-300 bg-red-50 p-4 text-red-800" data-testid="payment-declined">
      <p className="font-semibold">카드 결제가 거절되었습니다.</p>
      <p className="mt-1 text-sm">{reason}</p>
      <p className="mt-1 text-sm">신청은 접수되지 않았고, 쿠폰과 포인트도 사용되지 않았습니다.</p>
      <button type="button" onClick={onRetry} className="mt-3 min-h-11 border border-red-800 px-4 py-2 text-sm font-semibold">
        다른 카드로 결제하기
      </button>
    </div>
  );
}

/**
 * An order whose answer was lost (503, network, timeout) after every resend: the card may have been
 * charged, so this never invites a new card; 다시 시도 asks again with the same billing key.
 */
export function PaymentUnsure({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="border border-line bg-paper p-4" data-testid="payment-unsure">
      <p className="font-semibold">신청 결과를 아직 확인하지 못했습니다.</p>
      <p className="mt-1 text-sm">카드 결제가 이미 진행되었을 수 있으니 카드를 다시 등록하거나 새로 결제하지 마세요. 다시 시도하면 같은 신청의 결제 상태를 확인하며, 두 번 결제되지 않습니다.</p>
      <button type="button" onClick={onRetry} className="mt-3 min-h-11 border border-ink px-4 py-2 text-sm font-semibold">
        다시 시도
      </button>
    </div>
  );
}
