import { dateTime, greeting, liveCustomer, payment, paymentFor, won } from '../data';
import { template } from '../template';

/** A charge went through: the amount and the receipt. */
export default template({
  event: 'payment.succeeded',
  audience: 'customer',
  subject: '[LUXE] 결제 완료 #{금액}',
  title: '결제가 완료되었습니다',
  lines: ['#{고객명}, #{항목} #{금액}이 결제되었습니다.'],
  details: [['주문명', '#{주문명}'], ['결제 금액', '#{금액}'], ['결제 일시', '#{결제일시}']],
  action: { label: '영수증 보기', path: '#{영수증}' },
  async load(db, e) {
    const p = await payment(db, e.paymentId);
    if (!p) return { skip: '결제를 찾을 수 없습니다.' };
    return {
      userId: e.userId,
      vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 항목: paymentFor(p).label, 주문명: p.orderName, 금액: won(p.amount), 결제일시: p.paidAt ? dateTime(p.paidAt) : '', 영수증: p.receiptUrl ?? '/my/payments' },
    };
  },
});
