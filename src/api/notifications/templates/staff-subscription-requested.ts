import { liveCustomer, subscriptionRequest, won } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a new subscription request waits for confirmation in the console. */
export default template({
  event: 'staff.subscription_requested',
  audience: 'staff',
  subject: '[LUXE 운영] 새 구독 신청 ##{신청번호}',
  title: '새 구독 신청이 들어왔습니다',
  lines: ['#{차량} #{기간}개월 구독 신청(##{신청번호})이 접수되었습니다. 콘솔에서 확인하고 확정해주세요.'],
  details: [['고객', '#{고객}'], ['월 구독료', '#{월구독료}'], ['첫 결제 금액', '#{첫결제}']],
  action: { label: '주문 관리 열기', path: '/admin#orders' },
  async load(db, e) {
    const found = await subscriptionRequest(db, e.requestId);
    if (!found) return { skip: '신청을 찾을 수 없습니다.' };
    const r = found.request;
    return { userId: null, vars: { 신청번호: String(r.id), 차량: found.car, 기간: String(r.month), 고객: contact(await liveCustomer(db, r.userId)), 월구독료: won(r.fee), 첫결제: won(r.finalFee) } };
  },
});
