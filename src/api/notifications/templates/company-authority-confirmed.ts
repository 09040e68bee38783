import { and, eq, isNull } from 'drizzle-orm';
import { companies } from '../../db/schema';
import { greeting, liveCustomer } from '../data';
import { template } from '../template';

/** Staff confirmed the 재직·위임 proof: each admin of the company hears, once, that it books and pays from now on. */
export default template({
  event: 'company.authority_confirmed',
  audience: 'customer',
  subject: '[LUXE] #{회사} 법인 계정 확인 완료',
  title: '법인 계정 확인이 완료되었습니다',
  lines: ['#{고객명}, 보내주신 재직·위임 확인 서류를 검토했습니다.', '#{회사는} 이제 회사 이름으로 의전을 예약하고 장기 구독을 신청할 수 있습니다.'],
  action: { label: '회사 관리 보기', path: '/my/company' },
  async load(db, e) {
    const [company] = await db.select().from(companies).where(and(eq(companies.id, e.companyId), isNull(companies.closedAt)));
    if (!company || company.authority !== 'CONFIRMED') return { skip: '확인이 끝난 회사가 아닙니다.' };
    return { userId: e.userId, vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 회사: company.name } };
  },
  particles: { 회사는: ['회사', '은/는'] },
});
