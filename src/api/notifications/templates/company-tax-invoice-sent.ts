import { eq, sql } from 'drizzle-orm';
import { MODIFICATION_LABEL, monthLabel } from '../../../domain/invoices';
import { companies, companyInvoices, taxInvoices } from '../../db/schema';
import { day, won } from '../data';
import { template } from '../template';

/** A 전자세금계산서 (or 수정세금계산서) to the company's 세금계산서 수신 이메일: the 승인번호 and the document. */
export default template({
  event: 'company.tax_invoice_sent',
  audience: 'direct',
  subject: '[LUXE] #{종류} 발행 (승인번호 #{승인번호})',
  title: '#{종류} 발행 안내',
  lines: ['#{회사}의 #{월} 이용분 #{종류}입니다.', '#{수정사유}'],
  details: [['국세청 승인번호', '#{승인번호}'], ['작성일자', '#{작성일자}'], ['공급가액', '#{공급가액}'], ['세액', '#{세액}'], ['합계금액', '#{합계}']],
  action: { label: '세금계산서 보기', path: '#{문서}' },
  async load(db, e) {
    const [row] = await db
      .select({ tax: taxInvoices, month: companyInvoices.month, company: companies })
      .from(taxInvoices)
      .leftJoin(companyInvoices, eq(companyInvoices.id, taxInvoices.companyInvoiceId))
      .innerJoin(companies, eq(companies.id, sql`coalesce(${taxInvoices.companyId}, ${companyInvoices.companyId})`))
      .where(eq(taxInvoices.id, e.taxInvoiceId));
    if (!row || row.tax.status !== 'ISSUED' || !row.tax.approvalNumber) return { skip: '발행된 세금계산서가 없습니다.' };
    const t = row.tax;
    return {
      userId: null,
      to: [{ channel: 'email', to: row.company.invoiceEmail }],
      vars: {
        종류: t.kind === 'AMENDED' ? '수정세금계산서' : '전자세금계산서', 회사: row.company.name, 월: monthLabel(row.month ?? t.writeDate.slice(0, 7)),
        수정사유: t.modificationType ? `수정 사유: ${MODIFICATION_LABEL[t.modificationType]}${t.reason ? ` (${t.reason})` : ''}` : '',
        승인번호: t.approvalNumber!, 작성일자: day(t.writeDate), 공급가액: won(t.supplyAmount), 세액: won(t.vatAmount), 합계: won(t.totalAmount), 문서: t.documentUrl ?? '/my/statements',
      },
    };
  },
});
