import { useState } from 'react';
import { client } from '../../client/api';
import { callForFile, saveFile } from '../../client/file-calls';
import { contractFileName } from '../../domain/contract';

/**
 * 계약서 내려받기: the contract PDF of a subscription request, fetched with the session (the
 * customer's own from /my, any for staff in the console) and saved under its number's file name.
 */
export default function ContractDownload({ requestId, staff = false, className }: { requestId: number; staff?: boolean; className?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function download() {
    setBusy(true);
    setError(null);
    const param = { id: String(requestId) };
    const res = staff
      ? await callForFile((o) => client.admin['subscription-requests'][':id'].contract.$get({ param }, o))
      : await callForFile((o) => client.subscriptions.requests[':id'].contract.$get({ param }, o));
    setBusy(false);
    if (!res.ok) return setError(res.error.message);
    saveFile(res.data, contractFileName(requestId));
  }
  return (
    <span className="inline-flex flex-col">
      <button type="button" onClick={() => void download()} disabled={busy} className={className ?? 'inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center border border-ink px-4 text-sm disabled:opacity-50'} data-testid="contract-download">
        {busy ? '내려받는 중...' : '계약서 (PDF)'}
      </button>
      {error && <span role="alert" className="mt-1 text-xs text-muted">{error}</span>}
    </span>
  );
}
