import { useState } from 'react';
import { call, client } from '../../../client/api';
import { BUTLER_REFUND } from '../../../config/site';
import { won } from '../../../domain/money';
import type { ButlerCancelPreview } from '../../../domain/butler';
import { butlerRefundPolicyLines } from '../../../domain/payments';

interface Props {
  requestId: number;
  onCancelled: () => void;
  /** The Korean lines to show and the HTTP status (409: confirmed meanwhile, 404: cancelled meanwhile). */
  onFailed: (lines: string[], status: number) => void;
}

/**
 * The confirmation of a cancel: the refund policy, and what this booking gets back now, as the
 * server reckons it (GET /butlers/requests/{id}/cancel-preview: its policy and business clock,
 * never the browser's clock, which may be wrong or a test clock's real time).
 */
export function cancelQuestion(preview: ButlerCancelPreview): string {
  return [
    '의전 요청을 취소하시겠습니까? 취소 후에는 되돌릴 수 없습니다.',
    `지금 취소하면 결제 금액 ${won(preview.paid_amount)} 중 ${won(preview.refund_amount)}(${preview.refund_percent}%)을 환불합니다.`,
    '',
    '[취소·환불 규정]',
    ...butlerRefundPolicyLines(BUTLER_REFUND),
  ].join('\n');
}

/** 요청 취소 with a confirmation that states the refund; the server refunds by the policy, returns the coupon and refunds the points. */
export default function CancelButton({ requestId, onCancelled, onFailed }: Props) {
  const [busy, setBusy] = useState(false);
  async function cancel() {
    if (busy) return;
    setBusy(true);
    const preview = await call((o) => client.butlers.requests[':id']['cancel-preview'].$get({ param: { id: String(requestId) } }, o));
    if (!preview.ok) {
      setBusy(false);
      return onFailed(['요청 취소에 실패했습니다.', preview.error.message], preview.status);
    }
    if (!confirm(cancelQuestion(preview.data))) return setBusy(false);
    const res = await call((o) => client.butlers.requests[':id'].$delete({ param: { id: String(requestId) } }, o));
    setBusy(false);
    if (res.ok) onCancelled();
    else onFailed(['요청 취소에 실패했습니다.', res.error.message], res.status);
  }
  return (
    <button type="button" onClick={() => void cancel()} disabled={busy} className="min-h-11 border border-red-700 px-6 py-3 font-semibold text-red-700 disabled:opacity-50">
      {busy ? '취소 중...' : '요청 취소'}
    </button>
  );
}
