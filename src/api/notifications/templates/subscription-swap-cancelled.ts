import { day, greeting, liveCustomer, subscription } from '../data';
import { template } from '../template';

/** A confirmed 차량 교체 called off before its day: the car the customer keeps and what the money did. */
export default template({
  event: 'subscription.swap_cancelled',
  audience: 'customer',
  subject: '[LUXE] 차량 교체 취소 안내',
  title: '차량 교체가 취소되었습니다',
  lines: [
    '#{고객명}, #{교체일로} 예정된 #{새차량으로}의 차량 교체가 취소되었습니다. #{기존차량을} 계약 종료일까지 계속 이용하시며, 월 구독료도 교체 전과 같습니다.',
    '#{금액안내}',
  ],
  details: [['취소한 교체일', '#{교체일}'], ['이용 차량', '#{기존차량}']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  particles: { 교체일로: ['교체일', '으로/로'], 새차량으로: ['새차량', '으로/로'], 기존차량을: ['기존차량', '을/를'] },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.swapDate);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return {
      userId: e.userId,
      vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 교체일: day(e.swapDate), 기존차량: e.fromCar, 새차량: e.toCar, 금액안내: e.moneyLine },
    };
  },
});
