import { useState } from 'react';
import { del } from '../../../client/api';

interface Props {
  requestId: number;
  onCancelled: () => void;
  onFailed: (lines: string[]) => void;
}

/** 요청 취소 with a confirmation; the server returns the coupon and refunds the points. */
export default function CancelButton({ requestId, onCancelled, onFailed }: Props) {
  const [busy, setBusy] = useState(false);
  async function cancel() {
    if (busy || !confirm('버틀러 요청을 취소하시겠습니까? 취소 후에는 되돌릴 수 없습니다.')) return;
    setBusy(true);
    const res = await del(`/butlers/requests/${requestId}`);
    setBusy(false);
    if (res.ok) onCancelled();
    else onFailed(['요청 취소에 실패했습니다.', res.error.message]);
  }
  return (
    <button type="button" onClick={() => void cancel()} disabled={busy} className="border border-red-700 px-6 py-3 font-semibold text-red-700 disabled:opacity-50">
      {busy ? '취소 중...' : '요청 취소'}
    </button>
  );
}
