import { greeting, liveCustomer, subscriptionRequest, won } from '../data';
import { template } from '../template';

/** Issue 49: the days went to another confirmed subscription (a lapsed hold). */
export const CAR_TAKEN = '같은 차량의 다른 구독이 확정되어 신청하신 기간에 차량을 준비할 수 없게 되었습니다.';

/** The request was cancelled (by the customer or staff); what was paid goes back. */
export default template({
  event: 'subscription.cancelled',
  audience: 'customer',
  subject: '[LUXE] 구독 신청 취소 안내',
  title: '구독 신청이 취소되었습니다',
  lines: ['#{고객명}, #{차량} 구독 신청(##{신청번호})이 취소되었습니다.', '결제하신 금액은 환불되며, 사용하신 쿠폰과 포인트도 돌려드렸습니다.'],
  details: [['신청 번호', '#{신청번호}'], ['결제 금액', '#{결제금액}'], ['취소 사유', '#{사유}']],
  action: { label: '결제 내역 보기', path: '/my/payments' },
  async load(db, e) {
    const found = await subscriptionRequest(db, e.requestId);
    if (!found) return { skip: '신청을 찾을 수 없습니다.' };
    return { userId: e.userId, vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 신청번호: String(e.requestId), 결제금액: won(found.request.finalFee), 사유: e.reason === 'car_taken' ? CAR_TAKEN : '' } };
  },
});
