import { day, liveCustomer, subscription, won } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a customer's 차량 교체 is confirmed; schedule the old car's return and the new car's delivery on the swap day. */
export default template({
  event: 'staff.subscription_swapped',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 ##{구독번호} 차량 교체 #{교체일}',
  title: '차량 교체가 확정되었습니다',
  lines: ['구독(##{구독번호})의 차량이 #{교체일}에 #{기존차량}에서 #{새차량으로} 바뀝니다. 같은 날 반납과 인도 일정을 잡아주세요. 새 월 구독료 #{새월구독료}.'],
  details: [['고객', '#{고객}'], ['교체일', '#{교체일}'], ['기존 차량', '#{기존차량}'], ['새 차량', '#{새차량}']],
  action: { label: '주문 관리 열기', path: '/admin#orders' },
  particles: { 새차량으로: ['새차량', '으로/로'] },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.swapDate);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return {
      userId: null,
      vars: {
        구독번호: String(e.subscriptionId), 고객: contact(await liveCustomer(db, found.subscription.userId)), 교체일: day(e.swapDate), 기존차량: e.fromCar, 새차량: e.toCar, 새월구독료: won(e.newFee),
      },
    };
  },
});
