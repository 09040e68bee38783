import { eq } from 'drizzle-orm';
import { monthLabel, taxInvoiceDeadline } from '../../../domain/invoices';
import { companies, companyInvoices } from '../../db/schema';
import { day, greeting, liveCustomer, won } from '../data';
import { template } from '../template';

/** A company's monthly statement is out: its admin hears the amount, what it is made of and the due day, once. */
export default template({
  event: 'company.statement_issued',
  audience: 'customer',
  subject: '[LUXE] #{회사} #{월} 청구서 #{합계}',
  title: '#{월} 청구서가 발행되었습니다',
  lines: ['#{고객명}, #{회사}의 #{월} 의전 이용 청구서입니다.', '#{납부기한}까지 납부해주세요. 기한이 지나면 회사 명의의 새 예약이 제한됩니다.', '전자세금계산서는 #{발행기한}까지 세금계산서 수신 이메일로 발행됩니다.'],
  details: [['공급가액', '#{공급가액}'], ['부가세', '#{부가세}'], ['합계', '#{합계}'], ['납부 기한', '#{납부기한}']],
  action: { label: '청구서 보기', path: '/my/statements?id=#{청구서}' },
  async load(db, e) {
    const [row] = await db.select({ invoice: companyInvoices, company: companies.name }).from(companyInvoices).innerJoin(companies, eq(companies.id, companyInvoices.companyId)).where(eq(companyInvoices.id, e.invoiceId));
    if (!row) return { skip: '청구서를 찾을 수 없습니다.' };
    const i = row.invoice;
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 회사: row.company, 월: monthLabel(i.month), 청구서: String(i.id),
        공급가액: won(i.supplyAmount), 부가세: won(i.vatAmount), 합계: won(i.totalAmount), 납부기한: day(i.dueDate), 발행기한: day(taxInvoiceDeadline(i.month)),
      },
    };
  },
});
