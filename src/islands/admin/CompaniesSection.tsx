import { useState } from 'react';
import { call, client } from '../../client/api';
import { BUSINESS_STATUS_LABELS, COMPANY_AUTHORITY_LABELS, COMPANY_ROLE_LABELS } from '../../domain/company';
import { cardLabel } from '../../domain/card-label';
import { won } from '../../domain/money';
import { announceChange, formatDateTime } from './admin-api';
import PageNav from './PageNav';
import { PageLoadState, usePageLoad } from './use-page-load';
import Alert from '../common/Alert';

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
  const { company, members } = load.data;
  const toggle = async () => {
    const res = await call((o) => admin.companies[':id'].billing.$put({ param: { id: String(id) }, json: { invoice_billing: company.billing !== 'INVOICE' } }, o));
    if (!res.ok) return setError(res.error.message);
    setError(null);
    announceChange();
    await reload();
  };
  const decide = async (decision: 'confirm' | 'reject') => {
    const res = await call((o) => admin.companies[':id'].authority.$put({ param: { id: String(id) }, json: { decision, note } }, o));
    if (!res.ok) return setError(res.error.message);
    setError(null);
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
      {company.authority === 'PENDING' && !company.closed_at && (
        <div className="space-y-2 rounded border border-line p-3">
          <p className="text-xs text-muted">만든 분이 대표자 본인으로 확인되지 않았습니다. 재직증명서 또는 대표자의 위임장을 확인한 뒤 승인하세요. 거절하면 회사가 닫히고 번호는 대표자가 다시 등록할 수 있습니다.</p>
          <label className="block text-xs">
            <span className="font-semibold">확인 내용</span>
            <input className="field mt-1" value={note} onChange={(e) => setNote(e.target.value)} placeholder="예: 재직증명서(2026-12-01 발급) 확인" />
          </label>
          <div className="flex gap-2">
            <button type="button" className="btn-outline px-4 py-2" onClick={() => void decide('confirm')}>재직·위임 확인 승인</button>
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
