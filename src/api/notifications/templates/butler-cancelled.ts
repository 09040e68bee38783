import { butlerCancelRefundSentence } from '../../../domain/payments';
import { butlerRequest, tripTime, guestCopy, tripGreeting } from '../data';
import { template } from '../template';

/** The booking was cancelled; the refund follows the policy (its own message says the amount). */
export default template({
  event: 'butler.cancelled',
  audience: 'customer',
  subject: '[LUXE] 의전 예약 취소 안내 (##{예약번호})',
  title: '의전 예약이 취소되었습니다',
  lines: ['#{고객명}, #{차량} 의전 예약(##{예약번호})이 #{취소주체} 취소되었습니다.', '#{환불}', '#{운영팀결정}'],
  details: [['일시', '#{일시}']],
  action: { label: '결제 내역 보기', path: '/my/payments' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found) return { skip: '예약을 찾을 수 없습니다.' };
    const percent = e.refundPercent ?? 100;
    const refund = butlerCancelRefundSentence(percent, { coupon: found.request.userCouponId !== null, points: found.request.pointUsed });
    return {
      userId: e.userId,
      copyTo: guestCopy(found.request),
      vars: {
        고객명: await tripGreeting(db, found.request, e.userId), 차량: found.car, 예약번호: String(e.butlerRequestId), 일시: tripTime(found.request),
        취소주체: e.byOperator ? '운영팀에 의해' : '요청에 따라', 환불: refund,
        운영팀결정: e.operatorDecision ? `운영팀 결정으로 전액 환불합니다. (사유: ${e.operatorDecision})` : '',
      },
    };
  },
});
