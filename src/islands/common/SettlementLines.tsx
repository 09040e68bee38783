import { won } from '../../domain/money';
import { PAYMENT_STATUS_LABEL } from '../../domain/payments';
import type { SettlementView } from '../../domain/settlement';

const REFUND_STATUS_LABEL = { REQUESTED: '환불 확인 중', SUCCEEDED: '환불 완료', FAILED: '환불 실패' } as const;

/** A 반납 정산's lines, the deposit applied and what was charged or refunded (my page and the console). */
export default function SettlementLines({ s }: { s: SettlementView }) {
  return (
    <div className="space-y-2" data-testid="settlement-lines">
      <ul className="divide-y divide-line border-y border-line">
        {s.lines.length === 0 && <li className="py-1 text-muted">청구 항목이 없습니다.</li>}
        {s.lines.map((l, i) => (
          <li key={i} className="flex flex-wrap justify-between gap-x-3 py-1">
            <span className="min-w-0 break-words">
              {l.label} <span className="text-muted">({l.detail})</span>
            </span>
            <span className="font-semibold">{l.amount < 0 ? `−${won(-l.amount)}` : won(l.amount)}</span>
          </li>
        ))}
      </ul>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="text-muted">정산 합계</dt>
        <dd>{won(s.total)}</dd>
        <dt className="text-muted">보증금에서 차감</dt>
        <dd>{s.deposit > 0 ? `${won(s.from_deposit)} (보증금 ${won(s.deposit)})` : '보증금 없음'}</dd>
        {s.prepayment_refund > 0 && (
          <>
            <dt className="text-muted">미사용 선납금 환급</dt>
            <dd data-testid="settlement-prepayment">{won(s.prepayment_refund)}</dd>
          </>
        )}
        <dt className="text-muted">카드 결제</dt>
        <dd data-testid="settlement-charge">{won(s.to_charge)}{s.payment && ` · ${PAYMENT_STATUS_LABEL[s.payment.status]}`}</dd>
        <dt className="text-muted">{s.prepayment_refund > 0 ? '환불 (보증금·선납금)' : '보증금 환불'}</dt>
        <dd data-testid="settlement-refund">{won(s.to_refund)}{s.refund && ` · ${REFUND_STATUS_LABEL[s.refund.status]}`}</dd>
      </dl>
      <p className="break-words font-semibold" data-testid="settlement-summary">{s.summary}</p>
    </div>
  );
}
