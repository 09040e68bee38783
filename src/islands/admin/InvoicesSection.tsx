import { useState } from 'react';
import { call, client } from '../../client/api';
import { dotDate } from '../../domain/dates';
import type { InvoiceLineView, StatementView, TaxInvoiceView } from '../../domain/invoices';
import { parseWon, won } from '../../domain/money';
import Alert from '../common/Alert';
import StatementDetail from '../statements/StatementDetail';
import { PageLoadState, usePageLoad } from './use-page-load';

const admin = client.admin;

/**
 * 청구서: the companies' monthly statements (후불) by month, one opened with its lines and tax
 * invoices, and staff's audited actions: 입금 확인, a line's 환불 (a 수정세금계산서), 재발송 and 재발행.
 */
export default function InvoicesSection() {
  const [month, setMonth] = useState('');
  const { load, reload } = usePageLoad(() => call((o) => admin['company-invoices'].$get({ query: month ? { month } : {} }, o)), [month]);
  const [open, setOpen] = useState<StatementView | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const [credit, setCredit] = useState<{ line: InvoiceLineView; amount: string; reason: string } | null>(null);
  const [reissue, setReissue] = useState<{ tax: TaxInvoiceView; reason: string } | null>(null);

  const show = async (id: number) => {
    const res = await call((o) => admin['company-invoices'][':id'].$get({ param: { id: String(id) } }, o));
    if (res.ok) setOpen(res.data.statement);
    else setNotice({ ok: false, text: res.error.message });
  };
  /** After an action: the statement as it is now and the list, with what happened. */
  const done = async (res: { ok: true; data: { statement: StatementView | null } } | { ok: false; error: { message: string } }, text: string) => {
    if (res.ok && res.data.statement) setOpen(res.data.statement);
    setNotice(res.ok ? { ok: true, text } : { ok: false, text: res.error.message });
    await reload();
  };
  const markPaid = async (s: StatementView) =>
    done(
      await call((o) => admin['company-invoices'][':id'].paid.$post({ param: { id: String(s.id) } }, o)),
      s.total < 0 ? `${s.company.name} ${s.month_label} 청구서의 환급(${won(-s.total)})을 완료로 기록했습니다.` : `${s.company.name} ${s.month_label} 청구서를 납부 완료로 기록했습니다.`,
    );
  const sendCredit = async () => {
    if (!credit) return;
    const amount = parseWon(credit.amount);
    if (amount === null) return setNotice({ ok: false, text: '환불 금액을 숫자로 입력해주세요. (예: 110,000 또는 11만)' });
    const res = await call((o) => admin['company-invoice-lines'][':id'].credit.$post({ param: { id: String(credit.line.id) }, json: { amount, reason: credit.reason } }, o));
    setCredit(null);
    await done(res, `${won(amount)}을 환불 처리하고 수정세금계산서를 발행했습니다.`);
  };
  const resend = async (t: TaxInvoiceView) => {
    const res = await call((o) => admin['tax-invoices'][':id'].resend.$post({ param: { id: String(t.id) } }, o));
    setNotice(res.ok ? { ok: true, text: `세금계산서(승인번호 ${t.approval_number})를 다시 보냈습니다.` } : { ok: false, text: res.error.message });
    if (open) await show(open.id);
  };
  const sendReissue = async () => {
    if (!reissue) return;
    const res = await call((o) => admin['tax-invoices'][':id'].reissue.$post({ param: { id: String(reissue.tax.id) }, json: { reason: reissue.reason } }, o));
    setReissue(null);
    await done(res, '세금계산서를 다시 발행했습니다.');
  };

  const data = load.state === 'ready' ? load.data : null;
  return (
    <section aria-label="청구서" className="space-y-6">
      <label className="block text-sm">
        청구 월
        <input type="month" value={month} onChange={(e) => setMonth(e.target.value)} className="ml-2 min-h-11 border border-line px-2" />
      </label>
      <PageLoadState load={load} onRetry={() => void reload()} />
      {notice && (notice.ok ? <p role="status" className="text-sm">{notice.text}</p> : <Alert>{notice.text}</Alert>)}
      {data && (
        <ul className="divide-y divide-line border-y border-line" data-testid="admin-statements">
          {!data.statements.length && <li className="py-3 text-sm text-muted">청구서가 없습니다.</li>}
          {data.statements.map((s) => (
            <li key={s.id}>
              <button type="button" onClick={() => void show(s.id)} className="flex min-h-11 w-full flex-wrap justify-between gap-2 py-2 text-left text-sm">
                <span className="font-semibold">{s.company.name} · {s.month_label}</span>
                <span className="tabular-nums">{won(s.total)}</span>
                <span className={`w-full text-xs ${s.overdue ? 'text-red-700' : 'text-muted'}`}>
                  {s.status_label}{s.total > 0 ? ` · 기한 ${dotDate(s.due_date)}` : ''} · 세금계산서 {s.tax_invoice_status === 'FAILED' ? '발행 실패' : s.tax_invoice_status === 'ISSUED' ? '발행 완료' : '발행 중'}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <div className="space-y-4 border-t border-line pt-6">
          {open.status === 'ISSUED' && (
            <button type="button" className="min-h-11 bg-ink px-4 font-semibold text-paper" onClick={() => void markPaid(open)}>
              {open.total < 0 ? `환급 완료로 기록 (${won(-open.total)}을 회사 계좌로 보낸 뒤)` : '입금 확인 (납부 완료로 기록)'}
            </button>
          )}
          <StatementDetail
            s={open}
            lineAction={(l) =>
              l.kind === 'CREDIT' ? null : credit?.line.id === l.id ? (
                <span className="mt-2 flex flex-wrap items-end gap-2">
                  <label className="text-xs">환불 금액<input value={credit.amount} onChange={(e) => setCredit({ ...credit, amount: e.target.value })} className="block min-h-11 w-32 border border-line px-2" /></label>
                  <label className="text-xs">사유<input value={credit.reason} onChange={(e) => setCredit({ ...credit, reason: e.target.value })} className="block min-h-11 border border-line px-2" /></label>
                  <button type="button" className="min-h-11 bg-ink px-3 text-paper" onClick={() => void sendCredit()}>환불하고 수정세금계산서 발행</button>
                  <button type="button" className="min-h-11 border border-line px-3" onClick={() => setCredit(null)}>취소</button>
                </span>
              ) : (
                <button type="button" className="mt-1 min-h-11 text-xs underline underline-offset-4" onClick={() => setCredit({ line: l, amount: String(l.total), reason: '' })}>환불…</button>
              )
            }
            taxAction={(t) => (
              <>
                {t.status === 'ISSUED' && <button type="button" className="min-h-11 underline underline-offset-4" onClick={() => void resend(t)}>다시 보내기</button>}
                {t.status !== 'PENDING' &&
                  (reissue?.tax.id === t.id ? (
                    <span className="flex flex-wrap items-end gap-2">
                      <label className="text-xs">재발행 사유<input value={reissue.reason} onChange={(e) => setReissue({ ...reissue, reason: e.target.value })} className="block min-h-11 border border-line px-2" /></label>
                      <button type="button" className="min-h-11 bg-ink px-3 text-paper" onClick={() => void sendReissue()}>{t.status === 'FAILED' ? '다시 발행' : '정정 발행'}</button>
                      <button type="button" className="min-h-11 border border-line px-3" onClick={() => setReissue(null)}>취소</button>
                    </span>
                  ) : (
                    <button type="button" className="min-h-11 underline underline-offset-4" onClick={() => setReissue({ tax: t, reason: '' })}>{t.status === 'FAILED' ? '다시 발행…' : '정정 발행…'}</button>
                  ))}
              </>
            )}
          />
        </div>
      )}
    </section>
  );
}
