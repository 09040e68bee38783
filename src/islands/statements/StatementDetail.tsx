import type { ReactNode } from 'react';
import { dotDate } from '../../domain/dates';
import { creditStatementNote, type InvoiceLineView, type StatementView, type TaxInvoiceView } from '../../domain/invoices';
import { won } from '../../domain/money';

/**
 * One monthly statement as its company admin and staff read it: what is owed and by when, every
 * line with its cost centre and 공급가액 · 부가세 · 합계, the totals (the sums of the lines) and its
 * 전자세금계산서. `lineAction` / `taxAction` add staff's buttons.
 */
export default function StatementDetail({ s, lineAction, taxAction }: { s: StatementView; lineAction?: (l: InvoiceLineView) => ReactNode; taxAction?: (t: TaxInvoiceView) => ReactNode }) {
  return (
    <article aria-labelledby={`statement-${s.id}`} className="space-y-6" data-testid="statement">
      <header className="space-y-1">
        <h2 id={`statement-${s.id}`} className="text-xl font-bold">{s.company.name} · {s.month_label} 청구서</h2>
        <p className="text-sm text-muted">청구서 #{s.id} · 사업자등록번호 {s.company.business_number.replace(/^(\d{3})(\d{2})(\d{5})$/, '$1-$2-$3')}</p>
        <p className={`text-sm font-semibold ${s.overdue ? 'text-red-700' : ''}`} data-testid="statement-status">
          {s.status_label}
          {s.status === 'ISSUED' && s.total > 0 && ` · 납부 기한 ${dotDate(s.due_date)}`}
        </p>
        {s.total < 0 && <p className="text-sm" data-testid="statement-credit-note">{creditStatementNote(s)}</p>}
        {s.overdue && <p role="alert" className="text-sm text-red-700">납부 기한이 지났습니다. 납부가 확인될 때까지 회사 명의의 새 예약이 제한됩니다.</p>}
      </header>

      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 border-y border-line py-3 text-sm" data-testid="statement-totals">
        <dt className="text-muted">공급가액</dt><dd className="text-right tabular-nums">{won(s.supply)}</dd>
        <dt className="text-muted">부가세 (10%)</dt><dd className="text-right tabular-nums">{won(s.vat)}</dd>
        <dt className="font-semibold">{s.total < 0 ? '합계 (돌려드릴 금액)' : '합계 (청구 금액)'}</dt><dd className="text-right text-lg font-semibold tabular-nums">{won(s.total)}</dd>
      </dl>

      <section aria-label="청구 항목">
        <h3 className="font-semibold">청구 항목 {s.lines.length}건</h3>
        <p className="mt-1 text-xs text-muted">합계는 아래 항목의 공급가액·부가세·합계를 더한 금액입니다.</p>
        <ul className="mt-2 divide-y divide-line border-y border-line" data-testid="statement-lines">
          {s.lines.map((l) => (
            <li key={l.id} className="grid gap-1 py-3 text-sm md:grid-cols-[6rem_1fr_7rem_7rem_8rem] md:items-baseline md:gap-3" data-testid="statement-line">
              <span className="text-xs text-muted md:text-sm">{dotDate(l.service_date)}</span>
              <span>
                <span className={l.kind === 'CREDIT' ? 'text-red-700' : ''}>{l.label}</span>
                <span className="block text-xs text-muted">비용 센터: {l.cost_centre ?? '지정 없음'}</span>
                {lineAction?.(l)}
              </span>
              <span className="tabular-nums md:text-right"><span className="text-muted md:hidden">공급가액 </span>{won(l.supply)}</span>
              <span className="tabular-nums md:text-right"><span className="text-muted md:hidden">부가세 </span>{won(l.vat)}</span>
              <span className="font-semibold tabular-nums md:text-right"><span className="font-normal text-muted md:hidden">합계 </span>{won(l.total)}</span>
            </li>
          ))}
        </ul>
      </section>

      <section aria-label="전자세금계산서">
        <h3 className="font-semibold">전자세금계산서</h3>
        <p className="mt-1 text-xs text-muted">{dotDate(s.tax_invoice_deadline)}까지 세금계산서 수신 이메일로 발행됩니다 (부가가치세법 제34조).</p>
        <ul className="mt-2 divide-y divide-line border-y border-line" data-testid="tax-invoices">
          {!s.tax_invoices.length && <li className="py-3 text-sm text-muted">아직 발행된 세금계산서가 없습니다.</li>}
          {s.tax_invoices.map((t) => (
            <li key={t.id} className="space-y-1 py-3 text-sm" data-testid="tax-invoice">
              <p className="font-semibold">
                {t.kind === 'AMENDED' ? `수정세금계산서 (${t.modification_label})` : '전자세금계산서'} · {t.status_label}
              </p>
              <p className="text-muted">
                작성일자 {dotDate(t.write_date)} · 공급가액 {won(t.supply)} · 세액 {won(t.vat)} · 합계 {won(t.total)}
              </p>
              {t.approval_number && <p>승인번호 <span className="font-mono" data-testid="approval-number">{t.approval_number}</span></p>}
              {t.failure_reason && <p className="text-red-700">{t.failure_reason}</p>}
              {t.reason && <p className="text-muted">사유: {t.reason}</p>}
              <p className="flex flex-wrap gap-x-4">
                {t.document_url && <a href={t.document_url} target="_blank" rel="noopener" className="inline-flex min-h-11 items-center underline underline-offset-4">세금계산서 보기</a>}
                {taxAction?.(t)}
              </p>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
