import { BUTLER_REFUND } from '../../config/site';
import { butlerRefundPolicyLines } from '../../domain/payments';

/**
 * 취소·환불 규정 of a butler booking, before paying: the lines the terms, the FAQ, /fleet and the
 * cancel dialog show, from the policy the server refunds by (butlerRefundPolicyLines with the
 * configured hours and percent: one source).
 */
export default function RefundRules({ id, compact = false }: { id: string; compact?: boolean }) {
  return (
    <section aria-labelledby={id} className={compact ? 'mt-4 border-t border-line pt-3 text-xs leading-5' : 'border border-line bg-white p-4 text-sm leading-6'} data-testid="refund-rules">
      <h3 id={id} className="font-semibold">취소·환불 규정</h3>
      <ul className="mt-1 list-disc pl-5">
        {butlerRefundPolicyLines(BUTLER_REFUND).map((line) => <li key={line}>{line}</li>)}
      </ul>
    </section>
  );
}
