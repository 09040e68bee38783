import { day, liveCustomer, subscription } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a customer called a confirmed 차량 교체 off; its return and delivery pair, if booked, is called off with it. */
export default template({
  event: 'staff.subscription_swap_cancelled',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 ##{구독번호} 차량 교체 취소 #{교체일}',
  title: '차량 교체가 취소되었습니다',
  lines: ['구독(##{구독번호})의 #{교체일} 차량 교체(#{기존차량} → #{새차량})를 고객이 취소했습니다. 기존 차량을 계약 종료일까지 이용하며, 잡혀 있던 교체 반납·인도 일정은 자동으로 취소됩니다.'],
  details: [['고객', '#{고객}'], ['취소한 교체일', '#{교체일}'], ['이용 차량', '#{기존차량}']],
  action: { label: '주문 관리 열기', path: '/admin#orders' },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.swapDate);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return {
      userId: null,
      vars: {
        구독번호: String(e.subscriptionId), 고객: contact(await liveCustomer(db, found.subscription.userId)), 교체일: day(e.swapDate), 기존차량: e.fromCar, 새차량: e.toCar,
      },
    };
  },
});
