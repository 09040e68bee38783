import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { callForFile, saveFile } from '../../client/file-calls';
import {
  PROOF_ACCEPT, PROOF_DOCUMENTS_LINE, PROOF_MAX_BYTES, PROOF_MAX_FILES, PROOF_TOO_LARGE, PROOF_TOO_MANY, PROOF_WRONG_TYPE, proofSizeLabel, proofTypeOf,
  type ProofDocumentsAnswer,
} from '../../domain/company-proof';
import { formatKoreaDateTime } from '../../domain/dates/korea-time';
import Alert from '../common/Alert';

/**
 * 재직·위임 확인 서류 on /my/company, for the admin of a company whose creator is not the 대표자
 * (PENDING): what to send, the files sent (name, size, time; each can be opened and removed while
 * the company waits), staff's last refusal with its reason, and the picker. Each file goes as the
 * raw body under its own type, its name in X-File-Name; the type and size are checked here first
 * with the API's own words. docs/decisions/business-accounts.md.
 */
export default function CompanyProof({ companyId }: { companyId: number }) {
  const id = String(companyId);
  const [data, setData] = useState<ProofDocumentsAnswer | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    const res = await call((o) => client.companies[':id']['authority-documents'].$get({ param: { id } }, o));
    if (res.ok) setData(res.data);
    else setMessage(res.error.message);
  }, [id]);
  useEffect(() => void load(), [load]);

  const upload = async (files: File[]) => {
    if (!files.length || !data) return;
    setMessage(null);
    setStatus(null);
    if (data.documents.length + files.length > PROOF_MAX_FILES) return setMessage(PROOF_TOO_MANY);
    for (const file of files) {
      const type = proofTypeOf(file);
      if (!type) return setMessage(`${file.name}: ${PROOF_WRONG_TYPE}`);
      if (file.size > PROOF_MAX_BYTES) return setMessage(`${file.name}: ${PROOF_TOO_LARGE}`);
    }
    setBusy(true);
    let sent = 0;
    for (const file of files) {
      const body = file.slice(0, file.size, proofTypeOf(file)!);
      const res = await call(
        (o) => client.companies[':id']['authority-documents'].$post({ param: { id } }, { ...o, headers: { ...o.headers, 'x-file-name': encodeURIComponent(file.name) } }),
        { file: body, timeoutMs: 120_000 },
      );
      if (!res.ok) {
        setMessage(`${file.name}: ${res.error.message}`);
        break;
      }
      sent += 1;
    }
    setBusy(false);
    if (sent) setStatus(`서류 ${sent}개를 올렸습니다. 담당자가 확인한 뒤 알림으로 알려드립니다.`);
    await load();
  };

  const remove = async (documentId: number, name: string) => {
    const res = await call((o) => client.companies[':id']['authority-documents'][':documentId'].$delete({ param: { id, documentId: String(documentId) } }, o));
    if (!res.ok) return setMessage(res.error.message);
    setMessage(null);
    setStatus(`${name} 파일을 지웠습니다.`);
    setData(res.data);
  };

  const open = async (documentId: number, name: string) => {
    const res = await callForFile((o) => client.companies[':id']['authority-documents'][':documentId'].$get({ param: { id, documentId: String(documentId) } }, o));
    if (res.ok) saveFile(res.data, name);
    else setMessage(res.error.message);
  };

  const full = (data?.documents.length ?? 0) >= PROOF_MAX_FILES;
  return (
    <section aria-labelledby={`company-proof-${id}`} className="space-y-3 rounded border border-line bg-white p-5">
      <h2 id={`company-proof-${id}`} className="text-lg font-bold">재직·위임 확인 서류</h2>
      <p className="text-sm">{PROOF_DOCUMENTS_LINE}</p>
      <p className="text-xs text-muted">
        PDF, JPEG, PNG, HEIC 파일을 한 개에 10MB까지, 최대 {PROOF_MAX_FILES}개 올릴 수 있습니다. 올린 서류는 회사 관리자와 확인 담당자만 볼 수 있고, 담당자가 확인하면 알림으로 알려드립니다.
      </p>
      {data?.refusal && (
        <Alert tone="box" testId="proof-refusal">
          <span className="block">{formatKoreaDateTime(data.refusal.refused_at)}에 보내주신 서류가 반려되었습니다.</span>
          <span className="block font-semibold">반려 사유: {data.refusal.reason}</span>
          <span className="block">사유를 확인하신 뒤 필요 없는 파일은 지우고 서류를 다시 올려주세요.</span>
        </Alert>
      )}
      {data && data.documents.length > 0 && (
        <ul className="divide-y divide-line border-y border-line">
          {data.documents.map((d) => (
            <li key={d.id} className="flex items-center gap-2 py-2 text-sm" data-testid="proof-document">
              <div className="min-w-0 flex-1">
                <button type="button" className="block min-h-11 break-all text-left font-semibold underline" onClick={() => void open(d.id, d.name)}>{d.name}</button>
                <span className="text-muted">{proofSizeLabel(d.size)} · {formatKoreaDateTime(d.created_at)}</span>
              </div>
              {data.open && (
                <button type="button" className="min-h-11 shrink-0 border border-line px-3" aria-label={`${d.name} 지우기`} onClick={() => void remove(d.id, d.name)}>지우기</button>
              )}
            </li>
          ))}
        </ul>
      )}
      {data && !data.documents.length && <p className="text-sm text-muted">아직 올린 서류가 없습니다.</p>}
      {data?.open && (
        <label className={`inline-flex min-h-11 items-center border border-line px-4 ${busy || full ? 'text-muted' : 'cursor-pointer'}`}>
          {busy ? '올리는 중...' : full ? `서류는 ${PROOF_MAX_FILES}개까지 올릴 수 있습니다` : '확인 서류 올리기'}
          <input
            type="file"
            accept={PROOF_ACCEPT}
            multiple
            className="sr-only"
            disabled={busy || full}
            onChange={(e) => {
              void upload(Array.from(e.target.files ?? []));
              e.target.value = '';
            }}
          />
        </label>
      )}
      {status && <p role="status" className="text-sm">{status}</p>}
      {message && <Alert>{message}</Alert>}
    </section>
  );
}
