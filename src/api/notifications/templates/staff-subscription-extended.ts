import { day, liveCustomer, subscription, won } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a customer extended a subscription (the car stays with them until the new end date). */
export default template({
  event: 'staff.subscription_extended',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 ##{구독번호} 연장',
  title: '구독이 연장되었습니다',
  lines: ['#{차량} 구독(##{구독번호})이 #{연장개월}개월 연장되어 #{종료일}에 종료됩니다. #{결제월}개월 차부터 월 #{월구독료}.'],
  details: [['고객', '#{고객}'], ['새 종료일', '#{종료일}'], ['연장 기간', '#{연장개월}개월'], ['연장 월 구독료', '#{월구독료}']],
  action: { label: '주문 관리 열기', path: '/admin#orders' },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.newEndDate);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return {
      userId: null,
      vars: {
        구독번호: String(e.subscriptionId), 차량: found.car, 고객: contact(await liveCustomer(db, found.subscription.userId)), 연장개월: String(e.months),
        종료일: day(e.newEndDate), 결제월: String(e.firstMonth), 월구독료: won(e.monthlyFee),
      },
    };
  },
});
