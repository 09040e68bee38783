import { and, eq, isNull } from 'drizzle-orm';
import { companies } from '../../db/schema';
import { greeting, liveCustomer } from '../data';
import { template } from '../template';

/** Staff refused the 재직·위임 proof (the company still waits): each admin hears why, once, and may upload again on /my/company. */
export default template({
  event: 'company.authority_refused',
  audience: 'customer',
  subject: '[LUXE] #{회사} 재직·위임 확인 서류 반려',
  title: '재직·위임 확인 서류가 반려되었습니다',
  lines: [
    '#{고객명}, 보내주신 서류로는 회사를 대리할 권한을 확인하지 못했습니다.',
    '아래 사유를 확인하신 뒤 회사 관리 페이지에서 서류를 다시 올려주세요. 확인이 끝날 때까지 회사 이름의 예약과 결제는 할 수 없습니다.',
  ],
  details: [['회사', '#{회사}'], ['반려 사유', '#{사유}']],
  action: { label: '서류 다시 올리기', path: '/my/company' },
  async load(db, e) {
    const [company] = await db.select().from(companies).where(and(eq(companies.id, e.companyId), isNull(companies.closedAt)));
    if (!company || company.authority !== 'PENDING') return { skip: '재직·위임 확인을 기다리는 회사가 아닙니다.' };
    return { userId: e.userId, vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 회사: company.name, 사유: e.reason } };
  },
});
