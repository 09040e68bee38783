import { liveCustomer, subscription, won } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a monthly charge failed its last retry; the subscription is overdue. */
export default template({
  event: 'staff.subscription_overdue',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 ##{구독번호} 연체',
  title: '구독 요금이 연체되었습니다',
  lines: ['#{차량} 구독(##{구독번호})의 월 요금이 마지막 재시도까지 결제되지 않았습니다. 고객에게 연락하거나 결제 탭에서 다시 시도해주세요.'],
  details: [['고객', '#{고객}'], ['월 구독료', '#{월구독료}'], ['결제된 개월', '#{결제개월}']],
  action: { label: '결제 관리 열기', path: '/admin#payments' },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    const s = found.subscription;
    return { userId: null, vars: { 구독번호: String(s.id), 차량: found.car, 고객: contact(await liveCustomer(db, s.userId)), 월구독료: won(found.request.fee), 결제개월: `${s.paidMonths}개월` } };
  },
});
