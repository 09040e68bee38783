import { eq } from 'drizzle-orm';
import { monthLabel } from '../../../domain/invoices';
import { companies, companyInvoices } from '../../db/schema';
import { greeting, liveCustomer, won } from '../data';
import { template } from '../template';

/**
 * A company's monthly statement whose credits (a deposit returned, refunds) exceed its charges: nothing to pay; its
 * admin hears what is owed back to the company, what it is made of, and that the credits are documented by
 * 수정세금계산서 of the earlier months (docs/decisions/business-invoices.md), once.
 */
export default template({
  event: 'company.statement_credit',
  audience: 'customer',
  subject: '[LUXE] #{회사} #{월} 청구서: 돌려드릴 금액 #{환급금액}',
  title: '#{월} 청구서: 돌려드릴 금액이 있습니다',
  lines: [
    '#{고객명}, #{회사}의 #{월} 청구서입니다.',
    '이번 달은 환불·반환 금액이 이용 금액보다 많아 납부하실 금액이 없습니다. #{환급금액}을 회사 계좌로 돌려드리며, 고객센터에서 입금받으실 계좌를 확인해 연락드립니다.',
    '환불·반환된 금액은 처음 발행한 세금계산서의 수정세금계산서로 세금계산서 수신 이메일에 발행됩니다.',
  ],
  details: [['공급가액', '#{공급가액}'], ['부가세', '#{부가세}'], ['돌려드릴 금액', '#{환급금액}']],
  action: { label: '청구서 보기', path: '/my/statements?id=#{청구서}' },
  async load(db, e) {
    const [row] = await db.select({ invoice: companyInvoices, company: companies.name }).from(companyInvoices).innerJoin(companies, eq(companies.id, companyInvoices.companyId)).where(eq(companyInvoices.id, e.invoiceId));
    if (!row) return { skip: '청구서를 찾을 수 없습니다.' };
    const i = row.invoice;
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 회사: row.company, 월: monthLabel(i.month), 청구서: String(i.id),
        공급가액: won(-i.supplyAmount), 부가세: won(-i.vatAmount), 환급금액: won(-i.totalAmount),
      },
    };
  },
});
