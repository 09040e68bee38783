import { greeting, liveCustomer, subscription, won } from '../data';
import { template } from '../template';

/** 청약철회 done: what goes back to the card, part by part. */
export default template({
  event: 'subscription.withdrawn',
  audience: 'customer',
  subject: '[LUXE] 구독 청약철회 안내',
  title: '구독 청약철회가 완료되었습니다',
  lines: ['#{고객명}, #{차량} 구독(##{구독번호})의 청약철회가 완료되었습니다.', '#{내역}', '카드 환불 #{환불금액}은 카드사 사정에 따라 3~7영업일 안에 반영됩니다.'],
  details: [['구독 번호', '#{구독번호}'], ['카드 환불', '#{환불금액}']],
  action: { label: '결제 내역 보기', path: '/my/payments' },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.day);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return {
      userId: e.userId,
      vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 구독번호: String(e.subscriptionId), 내역: e.lines.map((l) => `${l.label} ${l.amount}`).join(' · '), 환불금액: won(e.refund) },
    };
  },
});
