import { day, greeting, liveCustomer, subscription, won } from '../data';
import { template } from '../template';

/** 차량 교체 confirmed: the swap day, both cars, the prorated month's arithmetic and the new monthly fee from which billing month. */
export default template({
  event: 'subscription.swapped',
  audience: 'customer',
  subject: '[LUXE] 차량 교체 확정 안내',
  title: '차량 교체가 확정되었습니다',
  lines: [
    '#{고객명}, #{교체일}에 #{기존차량을} 반납하고 #{새차량을} 인도받으시도록 차량 교체가 확정되었습니다.',
    '교체 월 일할 계산: #{계산}',
    '#{새요금안내}',
    '반납과 인도 시간은 담당자가 따로 안내드리며, 부속 계약서는 내 구독에서 내려받을 수 있습니다.',
  ],
  details: [['교체일', '#{교체일}'], ['새 차량', '#{새차량}'], ['일할 계산', '#{계산}'], ['새 월 구독료', '#{새월구독료}']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  particles: { 기존차량을: ['기존차량', '을/를'], 새차량을: ['새차량', '을/를'] },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.swapDate);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 교체일: day(e.swapDate), 기존차량: e.fromCar, 새차량: e.toCar, 계산: e.arithmetic, 새월구독료: won(e.newFee),
        새요금안내: e.newFeeFrom ? `${day(e.newFeeFrom)}(${e.firstNewMonth}개월 차)부터 월 구독료 ${won(e.newFee)}이 등록한 카드로 결제됩니다.` : '남은 결제 월은 없습니다.',
      },
    };
  },
});
