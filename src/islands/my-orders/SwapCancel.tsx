import { useState } from 'react';
import { call, client } from '../../client/api';
import type { SwapView } from '../../domain/swap';
import { withParticle } from '../../domain/korean';
import Alert from '../common/Alert';

/** The question before a swap is called off: the day, the car kept and what the money does. */
const swapCancelQuestion = (swap: Pick<SwapView, 'swap_date' | 'from_car' | 'to_car'>, line: string) =>
  `${swap.swap_date} ${withParticle(swap.to_car.name, '으로/로')}의 차량 교체를 취소하시겠습니까? ${withParticle(swap.from_car.name, '을/를')} 계약 종료일까지 계속 이용하며, 월 구독료도 교체 전과 같아집니다. ${line}`;

/**
 * 교체 취소 on my page, for a confirmed swap the server still offers to cancel (until two days before
 * its day): asks first with what the money does, then the server moves it back once. After: the
 * list reloads (the swap reads 교체 취소).
 */
export default function SwapCancel({ subscriptionId, swap, onDone }: { subscriptionId: number; swap: SwapView; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!swap.cancel) return null;
  const cancel = swap.cancel;

  async function run() {
    if (busy || !confirm(swapCancelQuestion(swap, cancel.line))) return;
    setBusy(true);
    setFailure(null);
    const res = await call((o) => client.subscriptions[':id'].swaps[':swapId'].cancel.$post({ param: { id: String(subscriptionId), swapId: String(swap.id) } }, o));
    setBusy(false);
    if (!res.ok) return setFailure(res.error.message);
    onDone();
  }

  return (
    <div className="mt-1 text-sm">
      <button type="button" onClick={() => void run()} disabled={busy} className="min-h-11 border border-line px-3 py-1.5 font-semibold disabled:opacity-50">
        {busy ? '취소 중...' : '교체 취소'}
      </button>
      <span className="ml-2 text-xs text-muted">{cancel.until}까지 취소할 수 있습니다.</span>
      {failure && <Alert className="mt-2">차량 교체를 취소하지 못했습니다. {failure}</Alert>}
    </div>
  );
}
