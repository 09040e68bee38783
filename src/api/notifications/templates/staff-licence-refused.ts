import { koreaDate } from '../../../domain/dates';
import { liveCustomer, subscription } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a handover stopped because a driver's licence lapsed since the order; the board needs a new plan. */
export default template({
  event: 'staff.licence_refused',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 ##{구독번호} 운전면허 확인 실패로 인도 보류',
  title: '운전면허 확인 실패로 인도가 보류되었습니다',
  lines: ['#{차량} 구독(##{구독번호})의 인도 전 운전면허 재확인에서 인도할 수 없다는 결과가 나왔습니다.', '#{사유}', '고객에게 안내했습니다. 인도 일정을 조정해주세요.'],
  details: [['고객', '#{고객}'], ['사유', '#{사유}']],
  action: { label: '배차 보드 열기', path: '/admin#dispatch' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return { userId: null, vars: { 구독번호: String(e.subscriptionId), 차량: found.car, 고객: contact(await liveCustomer(db, found.subscription.userId)), 사유: e.reason } };
  },
});
