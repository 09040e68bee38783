import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { callForFile, saveFile } from '../../client/file-calls';
import { contractFileName } from '../../domain/contract';

/**
 * 계약서 내려받기: the contract PDF of a subscription request, fetched with the session (the
 * customer's own from /my, any for staff in the console) and saved under its number's file name.
 */
export default function ContractDownload({ requestId, staff = false, className, showHash = false }: { requestId: number; staff?: boolean; className?: string; showHash?: boolean }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The SHA-256 the contract's footer points to (the request's page shows it: showHash).
  const [sha256, setSha256] = useState<string | null>(null);
  useEffect(() => {
    if (!showHash || staff) return;
    void call((o) => client.subscriptions.requests[':id'].contract.sha256.$get({ param: { id: String(requestId) } }, o)).then((res) => {
      if (res.ok) setSha256(res.data.contract.sha256);
    });
  }, [requestId, showHash, staff]);
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
      {sha256 && (
        <span className="mt-2 text-xs text-muted" data-testid="contract-sha256">
          SHA-256 (원본 확인) <code className="break-all font-mono text-ink">{sha256}</code>
        </span>
      )}
    </span>
  );
}
