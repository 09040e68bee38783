import { useState } from 'react';
import { call, client } from '../../client/api';
import { dotDate } from '../../domain/dates';
import { TAX_INVOICE_STATUSES, TAX_INVOICE_STATUS_LABEL } from '../../domain/invoices';
import { won } from '../../domain/money';
import Alert from '../common/Alert';
import { formatDateTime } from './admin-api';
import PageNav from './PageNav';
import { PageLoadState, usePageLoad } from './use-page-load';

const admin = client.admin;
type Page = Extract<Awaited<ReturnType<Awaited<ReturnType<(typeof admin)['tax-invoices']['$get']>>['json']>>, { data: unknown }>['data'];
type Row = Page['tax_invoices'][number];

const bizNo = (n: string) => n.replace(/^(\d{3})(\d{2})(\d{5})$/, '$1-$2-$3');

/**
 * 카드 결제 세금계산서: the 전자세금계산서 of company card payments (CARD_TAX_DOCUMENT=tax_invoice;
 * docs/decisions/business-invoices.md), each with its company, the payment it documents and its
 * 수정세금계산서, and staff's audited 다시 보내기 and 정정 발행 / 다시 발행 (the statements' routes).
 */
export default function CardTaxInvoicesSection() {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const { load, last, reload } = usePageLoad(() => {
    const s = TAX_INVOICE_STATUSES.find((x) => x === status);
    return call((o) => admin['tax-invoices'].$get({ query: { source: 'payment', ...(s ? { status: s } : {}), page: String(page) } }, o));
  }, [status, page]);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [reissue, setReissue] = useState<{ id: number; reason: string } | null>(null);

  const resend = async (t: Row) => {
    const res = await call((o) => admin['tax-invoices'][':id'].resend.$post({ param: { id: String(t.id) } }, o));
    setNotice(res.ok ? { ok: true, text: `세금계산서(승인번호 ${t.approval_number})를 ${t.company.invoice_email}로 다시 보냈습니다.` } : { ok: false, text: res.error.message });
    await reload();
  };
  const sendReissue = async (t: Row) => {
    if (!reissue) return;
    const res = await call((o) => admin['tax-invoices'][':id'].reissue.$post({ param: { id: String(t.id) }, json: { reason: reissue.reason } }, o));
    setReissue(null);
    setNotice(res.ok ? { ok: true, text: t.status === 'FAILED' ? '세금계산서를 다시 발행했습니다.' : '수정세금계산서(기재사항 착오·정정)를 발행했습니다.' } : { ok: false, text: res.error.message });
    await reload();
  };

  const data = load.state === 'ready' ? load.data : null;
  const rows = data?.tax_invoices ?? [];
  return (
    <section aria-labelledby="card-tax-title" className="space-y-4">
      <h2 id="card-tax-title" className="font-semibold">법인카드 결제 세금계산서</h2>
      {data?.card_document === 'card_slip' && (
        <p className="text-sm text-muted" data-testid="card-tax-setting">
          지금은 운영 설정에 따라 법인카드 결제를 신용카드매출전표로 증빙합니다 (부가가치세법 제33조제2항). 아래에는 설정을 바꾸기 전에 발행된 세금계산서만 보입니다.
        </p>
      )}
      <select aria-label="발행 상태" className="field w-auto py-2" value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }}>
        <option value="">전체 상태</option>
        {TAX_INVOICE_STATUSES.map((s) => <option key={s} value={s}>{TAX_INVOICE_STATUS_LABEL[s]}</option>)}
      </select>
      {notice && (notice.ok ? <p role="status" className="text-sm">{notice.text}</p> : <Alert>{notice.text}</Alert>)}
      <PageLoadState load={load} onRetry={() => void reload()} />
      {data && !rows.length && <p className="text-sm text-muted">법인카드 결제 세금계산서가 없습니다.</p>}
      <ul className="divide-y divide-line border-y border-line" data-testid="card-tax-invoices">
        {rows.map((t) => {
          const amendments = rows.filter((a) => a.amends_id === t.id);
          return (
            <li key={t.id} className="space-y-1 py-3 text-sm" data-testid="card-tax-invoice">
              <p className="font-semibold">
                {t.kind === 'AMENDED' ? `수정세금계산서 (${t.modification_label})` : '전자세금계산서'} · <span data-testid="card-tax-status">{t.status_label}</span>
              </p>
              <p>{t.company.name} <span className="text-muted">(사업자등록번호 {bizNo(t.company.business_number)})</span></p>
              {t.payment && (
                <p className="text-muted" data-testid="card-tax-payment">
                  결제 {t.payment.id} · {t.payment.order_name} · 카드 결제 {won(t.payment.amount)}
                  {t.payment.refunded_amount ? ` (환불 ${won(t.payment.refunded_amount)})` : ''}
                  {t.payment.paid_at ? ` · ${formatDateTime(t.payment.paid_at)}` : ''}
                </p>
              )}
              <p className="tabular-nums" data-testid="card-tax-amounts">
                작성일자 {dotDate(t.write_date)} · 공급가액 {won(t.supply)} + 부가세 {won(t.vat)} = 합계 {won(t.total)}
              </p>
              {t.approval_number && <p>승인번호 <span className="font-mono" data-testid="card-tax-approval">{t.approval_number}</span></p>}
              {t.amends_approval_number && <p className="text-muted">원본 세금계산서 승인번호 <span className="font-mono">{t.amends_approval_number}</span>을 수정합니다.</p>}
              {amendments.length > 0 && <p className="text-muted">이 세금계산서의 수정세금계산서 {amendments.length}건: {amendments.map((a) => a.approval_number ?? a.status_label).join(', ')}</p>}
              {t.failure_reason && <p className="text-red-700">{t.failure_reason}</p>}
              {t.reason && <p className="text-muted">사유: {t.reason}</p>}
              {t.status === 'ISSUED' && <p className="text-muted" data-testid="card-tax-sent">발송 {t.sent_count}회 · 수신 {t.company.invoice_email}</p>}
              <p className="flex flex-wrap items-end gap-x-4">
                {t.document_url && <a href={t.document_url} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center underline underline-offset-4">세금계산서 보기</a>}
                {t.status === 'ISSUED' && <button type="button" className="min-h-11 underline underline-offset-4" onClick={() => void resend(t)}>다시 보내기</button>}
                {t.status !== 'PENDING' && t.total !== 0 &&
                  (reissue?.id === t.id ? (
                    <span className="flex flex-wrap items-end gap-2">
                      <label className="text-xs">재발행 사유<input value={reissue.reason} onChange={(e) => setReissue({ ...reissue, reason: e.target.value })} className="block min-h-11 border border-line px-2" /></label>
                      <button type="button" className="min-h-11 bg-ink px-3 text-paper" onClick={() => void sendReissue(t)}>{t.status === 'FAILED' ? '다시 발행' : '정정 발행'}</button>
                      <button type="button" className="min-h-11 border border-line px-3" onClick={() => setReissue(null)}>취소</button>
                    </span>
                  ) : (
                    <button type="button" className="min-h-11 underline underline-offset-4" onClick={() => setReissue({ id: t.id, reason: '' })}>{t.status === 'FAILED' ? '다시 발행…' : '정정 발행…'}</button>
                  ))}
              </p>
            </li>
          );
        })}
      </ul>
      <PageNav page={page} pages={last?.pagination_info.total_pages ?? 1} busy={load.state === 'loading'} label="세금계산서 페이지" onPage={setPage} />
    </section>
  );
}
