import { liveCustomer, subscriptionRequest } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a customer changed the delivery (address, window or start) on my page; the board needs a look. */
export default template({
  event: 'staff.delivery_changed',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 신청 ##{신청번호} 탁송 정보 변경',
  title: '고객이 탁송 정보를 변경했습니다',
  lines: ['#{차량} 구독 신청(##{신청번호})의 탁송 정보가 고객 요청으로 변경되었습니다.', '#{변경}'],
  details: [['고객', '#{고객}'], ['변경 내용', '#{변경}']],
  action: { label: '배차 보드 열기', path: '/admin#dispatch' },
  async load(db, e) {
    const found = await subscriptionRequest(db, e.requestId);
    if (!found) return { skip: '신청을 찾을 수 없습니다.' };
    return { userId: null, vars: { 신청번호: String(e.requestId), 차량: found.car, 고객: contact(await liveCustomer(db, found.request.userId)), 변경: e.changes.join(' · ') } };
  },
});
