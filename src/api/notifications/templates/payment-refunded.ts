import { greeting, liveCustomer, payment, won } from '../data';
import { template } from '../template';

/** Money went back to the card (a cancel, or a staff refund). */
export default template({
  event: 'payment.refunded',
  audience: 'customer',
  subject: '[LUXE] 환불 완료 #{환불금액}',
  title: '환불이 완료되었습니다',
  lines: ['#{고객명}, #{주문명} 결제 중 #{환불금액}을 환불했습니다.', '카드사에 따라 환불 금액이 보이기까지 3~7영업일이 걸릴 수 있습니다.'],
  details: [['환불 금액', '#{환불금액}'], ['원 결제 금액', '#{결제금액}']],
  action: { label: '결제 내역 보기', path: '/my/payments' },
  async load(db, e) {
    const p = await payment(db, e.paymentId);
    if (!p) return { skip: '결제를 찾을 수 없습니다.' };
    return { userId: e.userId, vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 주문명: p.orderName, 환불금액: won(e.amount), 결제금액: won(p.amount) } };
  },
});
