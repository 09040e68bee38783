import { useState } from 'react';
import { client } from '../../client/api';
import { callForFile, saveFile } from '../../client/file-calls';
import { swapAnnexFileName } from '../../domain/swap-annex';

/** 부속 계약서 내려받기 of one 차량 교체 (the owner's only), saved as LUXE-S-000123-C01.pdf. */
export default function SwapAnnexDownload({ subscriptionId, requestId, swapId, ordinal }: { subscriptionId: number; requestId: number; swapId: number; ordinal: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    setError(null);
    const res = await callForFile((o) => client.subscriptions[':id'].swaps[':swapId'].annex.$get({ param: { id: String(subscriptionId), swapId: String(swapId) } }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    saveFile(res.data, swapAnnexFileName(requestId, ordinal));
  }
  return (
    <span className="inline-flex flex-col">
      <button type="button" onClick={() => void download()} disabled={busy} className="inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center border border-ink px-4 text-sm disabled:opacity-50" data-testid="swap-annex-download">
        {busy ? '내려받는 중...' : ordinal > 1 ? `교체 부속 계약서 ${ordinal} (PDF)` : '교체 부속 계약서 (PDF)'}
      </button>
      {error && <span role="alert" className="mt-1 text-xs text-muted">{error}</span>}
    </span>
  );
}
