import { liveCustomer, subscription, won } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a customer withdrew a subscription (청약철회); before the handover the car is free again, after it the car is to be collected. */
export default template({
  event: 'staff.subscription_withdrawn',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 ##{구독번호} 청약철회',
  title: '구독이 청약철회되었습니다',
  lines: ['#{차량} 구독(##{구독번호})이 고객 요청으로 청약철회되었습니다. #{안내}', '카드 환불 #{환불금액}.'],
  details: [['고객', '#{고객}'], ['시점', '#{시점}'], ['카드 환불', '#{환불금액}']],
  action: { label: '주문 관리 열기', path: '/admin#orders' },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.day);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    const before = e.kind === 'BEFORE_HANDOVER';
    return {
      userId: null,
      vars: {
        구독번호: String(e.subscriptionId), 차량: found.car, 고객: contact(await liveCustomer(db, found.subscription.userId)), 환불금액: won(e.refund),
        시점: before ? '차량 인도 전' : '차량 인도 후', 안내: before ? '예정된 탁송 일정은 취소되었습니다.' : '차량 반납 일정을 잡아주세요.',
      },
    };
  },
});
