import { useState } from 'react';
import { client } from '../../client/api';
import { callForFile, saveFile } from '../../client/file-calls';
import { annexFileName } from '../../domain/extension-annex';

/**
 * 부속 계약서 내려받기: the annex PDF of one 구독 연장, fetched with the session (the owner's only)
 * and saved under the name the server gives (LUXE-S-000123-E01.pdf).
 */
export default function AnnexDownload({ subscriptionId, requestId, extensionId, ordinal }: { subscriptionId: number; requestId: number; extensionId: number; ordinal: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    setError(null);
    const res = await callForFile((o) => client.subscriptions[':id'].extensions[':extensionId'].annex.$get({ param: { id: String(subscriptionId), extensionId: String(extensionId) } }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    saveFile(res.data, annexFileName(requestId, ordinal));
  }
  return (
    <span className="inline-flex flex-col">
      <button type="button" onClick={() => void download()} disabled={busy} className="inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center border border-ink px-4 text-sm disabled:opacity-50" data-testid="annex-download">
        {busy ? '내려받는 중...' : ordinal > 1 ? `부속 계약서 ${ordinal} (PDF)` : '부속 계약서 (PDF)'}
      </button>
      {error && <span role="alert" className="mt-1 text-xs text-muted">{error}</span>}
    </span>
  );
}
