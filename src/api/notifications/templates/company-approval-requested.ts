import { and, eq, isNull } from 'drizzle-orm';
import { companies, companyMembers, users } from '../../db/schema';
import { butlerRequest, tripTime, won } from '../data';
import { template } from '../template';

/** A booker's trip above the threshold waits: every admin of the company is asked, once, to approve or decline it on /my/company. */
export default template({
  event: 'company.approval_requested',
  audience: 'direct',
  subject: '[LUXE] 의전 예약 승인 요청 (##{예약번호})',
  title: '의전 예약 승인을 기다리고 있습니다',
  lines: ['#{예약자}님이 #{회사} 이름으로 예약한 의전이 승인 기준 금액(#{기준금액})을 넘어 관리자 승인을 기다리고 있습니다.', '승인하면 회사 결제 수단으로 결제되고 예약이 접수됩니다.'],
  details: [['일시', '#{일시}'], ['출발지', '#{출발지}'], ['탑승자', '#{탑승자}'], ['비용 부서', '#{비용부서}'], ['예약 금액', '#{금액}']],
  action: { label: '승인하러 가기', path: '/my/company' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found || found.request.status === 'CANCELLED' || found.request.approvalStatus !== 'WAITING') return { skip: '승인을 기다리는 예약이 아닙니다.' };
    const [company] = await db.select().from(companies).where(eq(companies.id, e.companyId));
    if (!company) return { skip: '회사를 찾을 수 없습니다.' };
    const admins = await db
      .select({ email: users.email, mobile: users.mobile })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(and(eq(companyMembers.companyId, e.companyId), eq(companyMembers.role, 'ADMIN'), isNull(companyMembers.removedAt), isNull(users.deletedAt)));
    const [booker] = await db.select({ name: users.name }).from(users).where(eq(users.id, found.request.userId));
    const r = found.request;
    return {
      userId: null,
      to: admins.flatMap((a) => [...(a.email ? [{ channel: 'email' as const, to: a.email }] : []), ...(a.mobile ? [{ channel: 'kakao' as const, to: a.mobile }] : [])]),
      vars: {
        예약번호: String(r.id), 예약자: booker?.name ?? '예약 담당자', 회사: company.name, 기준금액: won(company.approvalThreshold ?? 0), 일시: tripTime(r), 출발지: r.startLocation,
        탑승자: r.guestName ?? '', 비용부서: r.costCentre ?? '', 금액: won(r.finalPrice),
      },
    };
  },
});
