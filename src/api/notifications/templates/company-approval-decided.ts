import { butlerRequest, greeting, liveCustomer, tripPagePath, tripTime } from '../data';
import { template } from '../template';

/** The company admin approved or declined the booker's trip: the booker hears which, once. */
export default template({
  event: 'company.approval_decided',
  audience: 'customer',
  subject: '[LUXE] 의전 예약 #{결과} (##{예약번호})',
  title: '의전 예약이 #{결과}되었습니다',
  lines: ['#{고객명}, 회사 관리자가 의전 예약(##{예약번호})을 #{결과}했습니다.', '#{안내}'],
  details: [['일시', '#{일시}'], ['출발지', '#{출발지}'], ['거절 사유', '#{사유}']],
  action: { label: '예약 보기', path: '#{상세경로}' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found) return { skip: '예약을 찾을 수 없습니다.' };
    const r = found.request;
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 예약번호: String(r.id), 결과: e.approved ? '승인' : '거절', 일시: tripTime(r), 출발지: r.startLocation,
        안내: e.approved ? '예약이 접수되었고, 확정되면 다시 알려드립니다.' : '예약은 취소되었고 결제된 금액은 없습니다.', 사유: e.approved ? '' : (e.reason ?? ''),
        상세경로: e.approved ? tripPagePath(found) : '/my/company',
      },
    };
  },
});
