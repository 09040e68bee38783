import { day, greeting, liveCustomer, payment, paymentFor, won } from '../data';
import { template } from '../template';

/**
 * A charge was declined: the reason, what to do, and when it is tried again. A declined order
 * (first month, booking) was not placed, so the customer tries another card; a declined month is
 * tried again on the retry date, or paid at once after changing the card in my subscriptions.
 */
export default template({
  event: 'payment.failed',
  audience: 'customer',
  subject: '[LUXE] 결제 실패 안내',
  title: '결제가 이루어지지 않았습니다',
  lines: ['#{고객명}, #{항목} #{금액} 결제가 승인되지 않았습니다.', '사유: #{사유}', '#{해결방법}', '#{재시도안내}'],
  details: [['주문명', '#{주문명}'], ['결제 금액', '#{금액}']],
  action: { label: '#{버튼}', path: '#{경로}' },
  async load(db, e) {
    const p = await payment(db, e.paymentId);
    if (!p) return { skip: '결제를 찾을 수 없습니다.' };
    const monthly = p.purpose === 'SUBSCRIPTION_MONTH';
    const order = p.purpose === 'SUBSCRIPTION_FIRST' || p.purpose === 'BUTLER';
    const fix = monthly
      ? '카드 한도나 잔액을 확인하시거나, 내 구독에서 카드를 변경해 바로 결제해주세요.'
      : order
        ? '신청은 접수되지 않았고 쿠폰과 포인트는 그대로입니다. 다른 카드로 다시 신청해주세요.'
        : '카드 한도나 잔액을 확인하시거나 고객센터로 문의해주세요.';
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 항목: (await paymentFor(db, p)).label, 주문명: p.orderName, 금액: won(p.amount),
        사유: e.reason || p.failureReason || '카드사에서 승인하지 않았습니다.',
        해결방법: fix,
        재시도안내: !monthly ? '' : e.retryDate ? `${day(e.retryDate)}에 같은 카드로 다시 결제를 시도합니다.` : '자동 재시도가 끝났습니다. 카드를 변경해 결제해주세요.',
        버튼: monthly ? '카드 변경 후 결제' : '결제 내역 보기',
        경로: monthly ? '/my/subscriptions' : '/my/payments',
      },
    };
  },
});
