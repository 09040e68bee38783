import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import type { ButlerCancelPreview } from '../../domain/butler';
import { formatNumber, won } from '../../domain/money';
import Dialog from '../checkout/Dialog';
import Alert from '../common/Alert';

/**
 * Staff cancel of a butler booking (issue 50): the refund the customer's rule gives now, read from
 * the server, and the operator's choice to refund in full instead, which needs a reason (audited;
 * the customer's message says it was the operator's decision).
 */
export default function ButlerCancelDialog({ requestId, onClose, onDone }: { requestId: number; onClose: () => void; onDone: (message: string) => void }) {
  const [preview, setPreview] = useState<ButlerCancelPreview | null>(null);
  const [full, setFull] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const param = { id: String(requestId) };

  useEffect(() => {
    void (async () => {
      const res = await call((o) => client.admin['butler-requests'][':id']['cancel-preview'].$get({ param }, o));
      if (res.ok) setPreview(res.data);
      else setError(res.error.message);
    })();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per dialog
  }, [requestId]);

  async function cancel() {
    setBusy(true);
    setError(null);
    const res = await call((o) => client.admin['butler-requests'][':id'].cancel.$post({ param, json: full ? { full_refund_reason: reason } : {} }, o));
    setBusy(false);
    if (!res.ok) return setError([res.error.message, ...Object.values(res.error.errors ?? {}).flat()].filter((v, i, a) => a.indexOf(v) === i).join(' '));
    onDone(`#${requestId} 취소했습니다. 환불 ${won(res.data.refunded_amount)} (${res.data.refund_percent}%)${res.data.refunded_points ? ` · 포인트 ${formatNumber(res.data.refunded_points)}P 반환` : ''}`);
  }

  return (
    <Dialog open title={`의전 요청 #${requestId} 취소`} onClose={onClose}>
      <div className="space-y-3 text-sm" data-testid="staff-cancel-dialog">
        {preview ? (
          <p data-testid="staff-cancel-rule">
            취소 규정에 따른 환불: 결제 금액 {won(preview.paid_amount)}의 {preview.refund_percent}% = <strong>{won(preview.refund_amount)}</strong>
            <span className="block text-xs text-muted">고객이 결제 전에 안내받은 규정입니다. 쿠폰과 포인트는 돌려드립니다.</span>
          </p>
        ) : (
          !error && <p role="status" className="text-muted">환불 금액을 계산하는 중...</p>
        )}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={full} onChange={(e) => setFull(e.target.checked)} className="h-5 w-5" />
          운영팀 결정으로 전액 환불 (사유 필요, 고객에게 안내됩니다)
        </label>
        {full && (
          <div>
            <label htmlFor="staff-cancel-reason" className="mb-1 block text-xs font-semibold">전액 환불 사유</label>
            <input id="staff-cancel-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} className="field" />
          </div>
        )}
        {error && <Alert>{error}</Alert>}
        <div className="flex gap-2">
          <button type="button" disabled={busy || (!preview && !full)} onClick={() => void cancel()} className="min-h-11 border border-red-700 px-4 font-semibold text-red-700 disabled:opacity-40">
            {busy ? '취소 중…' : '예약 취소'}
          </button>
          <button type="button" onClick={onClose} className="btn-outline min-h-11 px-4">닫기</button>
        </div>
      </div>
    </Dialog>
  );
}
