import { formatPhone } from '../../../domain/accounts';
import { formatNumber } from '../../../domain/money';
import { butlerRequest, liveCustomer, tripTime, won } from '../data';
import { template } from '../template';
import { cancelledBy } from './staff-cancelled-by';
import { contact } from './staff-contact';

/** Staff: a butler booking was cancelled (its days are free again), with what was refunded. */
export default template({
  event: 'staff.butler_cancelled',
  audience: 'staff',
  subject: '[LUXE 운영] 의전 예약 ##{예약번호} 취소',
  title: '의전 예약이 취소되었습니다',
  lines: ['#{차량} 의전 예약(##{예약번호}, #{일시})이 #{취소자} 요청으로 취소되었습니다. 환불 #{환불금액} (결제 금액의 #{환불비율}). 배정된 기사에게도 알려주세요.'],
  details: [['고객', '#{고객}'], ['일시', '#{일시}'], ['취소', '#{취소자}'], ['결제 금액', '#{결제금액}'], ['환불 금액', '#{환불금액} (#{환불비율})'], ['돌려준 포인트', '#{포인트}'], ['기사', '#{기사}']],
  action: { label: '배차 열기', path: '/admin#dispatch' },
  async load(db, e) {
    const found = await butlerRequest(db, e.butlerRequestId);
    if (!found) return { skip: '예약을 찾을 수 없습니다.' };
    const r = found.request;
    return {
      userId: null,
      vars: {
        예약번호: String(r.id), 차량: found.car, 일시: tripTime(r), 고객: contact(await liveCustomer(db, r.userId)), 취소자: cancelledBy(e.by),
        결제금액: won(r.finalPrice), 환불금액: won(e.refundedAmount), 환불비율: `${e.refundPercent}%`, 포인트: `${formatNumber(e.refundedPoints)}P`,
        기사: found.driver?.name ? `${found.driver.name} · ${formatPhone(found.driver.phone)}` : '미배정',
      },
    };
  },
});
