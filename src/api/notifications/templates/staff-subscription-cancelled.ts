import { formatNumber } from '../../../domain/money';
import { liveCustomer, subscriptionRequest, won } from '../data';
import { template } from '../template';
import { cancelledBy } from './staff-cancelled-by';
import { contact } from './staff-contact';

/** Staff: a subscription request was cancelled (the car's hold is released), with what was refunded. */
export default template({
  event: 'staff.subscription_cancelled',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 신청 ##{신청번호} 취소',
  title: '구독 신청이 취소되었습니다',
  lines: ['#{차량} #{기간}개월 구독 신청(##{신청번호})이 #{취소자} 요청으로 취소되었습니다. 환불 #{환불금액}.'],
  details: [['고객', '#{고객}'], ['취소', '#{취소자}'], ['첫 결제 금액', '#{첫결제}'], ['환불 금액', '#{환불금액}'], ['돌려준 포인트', '#{포인트}']],
  action: { label: '주문 관리 열기', path: '/admin#orders' },
  async load(db, e) {
    const found = await subscriptionRequest(db, e.requestId);
    if (!found) return { skip: '신청을 찾을 수 없습니다.' };
    const r = found.request;
    return {
      userId: null,
      vars: {
        신청번호: String(r.id), 차량: found.car, 기간: String(r.month), 고객: contact(await liveCustomer(db, r.userId)), 취소자: cancelledBy(e.by),
        첫결제: won(r.finalFee), 환불금액: won(e.refundedAmount), 포인트: `${formatNumber(e.refundedPoints)}P`,
      },
    };
  },
});
