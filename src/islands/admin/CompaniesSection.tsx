import { useState } from 'react';
import { call, client } from '../../client/api';
import { BUSINESS_STATUS_LABELS, COMPANY_AUTHORITY_LABELS, COMPANY_ROLE_LABELS } from '../../domain/company';
import { cardLabel } from '../../domain/card-label';
import { won } from '../../domain/money';
import { announceChange, formatDateTime } from './admin-api';
import PageNav from './PageNav';
import { PageLoadState, usePageLoad } from './use-page-load';
import Alert from '../common/Alert';
import { callForFile, saveFile } from '../../client/file-calls';
import { proofSizeLabel } from '../../domain/company-proof';

const admin = client.admin;

/** 법인: the companies, one opened with its members; 후불 (monthly invoice) switched here. Every read is in the audit log. */
export default function CompaniesSection() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const { load, last } = usePageLoad(() => call((o) => admin.companies.$get({ query: { page: String(page), ...(search ? { q: search } : {}) } }, o)), [page, search]);
  const data = load.state === 'ready' ? load.data : null;
  return (
    <section aria-label="법인" className="space-y-4">
      <p className="text-xs text-muted">법인 정보 조회는 변경 이력에 기록됩니다.</p>
      <form className="flex gap-2" onSubmit={(e) => { e.preventDefault(); setSearch(q); setPage(1); }}>
        <input aria-label="상호 또는 사업자등록번호" className="field" value={q} onChange={(e) => setQ(e.target.value)} placeholder="상호 또는 사업자등록번호" />
        <button type="submit" className="btn-outline px-4">검색</button>
      </form>
      <PageLoadState load={load} onRetry={() => setPage(page)} />
      <ul className="divide-y divide-line border-y border-line">
        {data?.companies.map((c) => (
          <li key={c.id} className="py-3 text-sm">
            <button type="button" className="text-left" aria-expanded={open === c.id} onClick={() => setOpen(open === c.id ? null : c.id)}>
              <span className="font-semibold">{c.name}</span> · {c.business_number} · {BUSINESS_STATUS_LABELS[c.business_status]} · {c.closed_at ? '닫힘' : COMPANY_AUTHORITY_LABELS[c.authority]} · {c.billing === 'INVOICE' ? '후불(월 청구)' : '카드 결제'} · 구성원 {c.members}명
            </button>
            {open === c.id && <CompanyDetail id={c.id} />}
          </li>
        ))}
      </ul>
      {data && !data.companies.length && <p className="text-sm text-muted">법인이 없습니다.</p>}
      {last && <PageNav page={page} pages={last.pagination_info.total_pages} busy={load.state === 'loading'} onPage={setPage} />}
    </section>
  );
}

function CompanyDetail({ id }: { id: number }) {
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const { load, reload } = usePageLoad(() => call((o) => admin.companies[':id'].$get({ param: { id: String(id) } }, o)), [id]);
  if (load.state !== 'ready') return <PageLoadState load={load} onRetry={() => void reload()} />;
  const { company, members, authority_documents: documents } = load.data;
  const refusedAt = company.authority_refusal?.refused_at ?? null;
  const toggle = async () => {
    const res = await call((o) => admin.companies[':id'].billing.$put({ param: { id: String(id) }, json: { invoice_billing: company.billing !== 'INVOICE' } }, o));
    if (!res.ok) return setError(res.error.message);
    setError(null);
    announceChange();
    await reload();
  };
  const download = async (documentId: number, name: string) => {
    const res = await callForFile((o) => admin.companies[':id']['authority-documents'][':documentId'].$get({ param: { id: String(id), documentId: String(documentId) } }, o));
    if (!res.ok) return setError(res.error.message);
    setError(null);
    saveFile(res.data, name);
  };
  const decide = async (decision: 'confirm' | 'refuse' | 'reject') => {
    const res = await call((o) => admin.companies[':id'].authority.$put({ param: { id: String(id) }, json: { decision, note } }, o));
    if (!res.ok) return setError(res.error.message);
    setError(null);
    setNote('');
    announceChange();
    await reload();
  };
  return (
    <div className="mt-2 space-y-2 border-l-2 border-line pl-3">
      <p>
        대리 권한 {company.closed_at ? `닫힘 (${formatDateTime(company.closed_at)})` : COMPANY_AUTHORITY_LABELS[company.authority]}
        {company.opened_on ? ` · 개업일자 ${company.opened_on}` : ''}
        {company.authority_note ? ` · 확인 내용: ${company.authority_note}` : ''}
      </p>
      {(documents.length > 0 || (company.authority === 'PENDING' && !company.closed_at)) && (
        <div className="space-y-1">
          <p className="text-xs font-semibold">확인 서류 {documents.length}개 (내려받기는 변경 이력에 기록됩니다)</p>
          {documents.length > 0 ? (
            <ul className="space-y-1 text-xs">
              {documents.map((d) => (
                <li key={d.id} data-testid="admin-proof-document">
                  <button type="button" className="min-h-11 text-left underline" onClick={() => void download(d.id, d.name)}>{d.name} 내려받기</button>
                  {' '}· {proofSizeLabel(d.size)} · {formatDateTime(d.created_at)} · {d.uploaded_by}
                  {refusedAt && d.created_at > refusedAt ? ' · 반려 이후 새로 올림' : ''}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-xs text-muted">아직 올린 서류가 없습니다.</p>
          )}
        </div>
      )}
      {company.authority === 'PENDING' && !company.closed_at && (
        <div className="space-y-2 rounded border border-line p-3">
          <p className="text-xs text-muted">
            만든 분이 대표자 본인으로 확인되지 않았습니다. 회사 관리자가 올린 위임장(법인인감 날인) 또는 재직증명서와 법인인감증명서를 확인한 뒤 승인하세요. 서류가 부족하면 반려하세요: 회사는 확인 대기로 남고, 입력한 사유가 회사 관리자에게 전달되어 서류를 다시 올릴 수 있습니다. 거절하면 회사가 닫히고 번호는 대표자가 다시 등록할 수 있습니다.
          </p>
          {company.authority_refusal && (
            <p className="text-xs" data-testid="admin-proof-refusal">마지막 반려 {formatDateTime(company.authority_refusal.refused_at)} · 사유: {company.authority_refusal.reason}</p>
          )}
          <label className="block text-xs">
            <span className="font-semibold">확인 내용 또는 반려 사유</span>
            <input className="field mt-1" value={note} onChange={(e) => setNote(e.target.value)} placeholder="예: 재직증명서(2026-12-01 발급) 확인 / 법인인감증명서가 빠져 있습니다" />
          </label>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-outline px-4 py-2" onClick={() => void decide('confirm')}>재직·위임 확인 승인</button>
            <button type="button" className="btn-outline px-4 py-2" onClick={() => void decide('refuse')}>서류 반려 (다시 올리기 요청)</button>
            <button type="button" className="btn-outline px-4 py-2" onClick={() => void decide('reject')}>거절하고 닫기</button>
          </div>
        </div>
      )}
      <p>대표자 {company.ceo} · {company.business_type}/{company.business_item} · {company.address}</p>
      <p>세금계산서 수신 {company.invoice_email} · 상태 확인 {formatDateTime(company.status_checked_at)} · 결제 카드 {company.card ? cardLabel(company.card) : '없음'}</p>
      <p>승인 기준 금액 {company.approval_threshold === null ? '없음' : won(company.approval_threshold)}</p>
      <ul className="text-xs">
        {members.map((m) => (
          <li key={m.user_id}>{m.name} ({m.email ?? m.mobile ?? '-'}) · {COMPANY_ROLE_LABELS[m.role as keyof typeof COMPANY_ROLE_LABELS] ?? m.role}{m.removed_at ? ` · ${formatDateTime(m.removed_at)} 제외됨` : ''}</li>
        ))}
      </ul>
      <button type="button" className="btn-outline px-4 py-2" onClick={() => void toggle()}>
        {company.billing === 'INVOICE' ? '후불 끄기 (카드 결제로)' : '후불 켜기 (월 청구서)'}
      </button>
      {error && <Alert>{error}</Alert>}
    </div>
  );
}
