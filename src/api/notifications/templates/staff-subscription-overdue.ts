import { koreaDate } from '../../../domain/dates';
import { monthlyChargeDate } from '../../../domain/payments';
import { day, liveCustomer, payment, subscription, won } from '../data';
import { template } from '../template';
import { contact } from './staff-contact';

/** Staff: a monthly charge failed its last retry; the subscription is overdue for that month's amount. */
export default template({
  event: 'staff.subscription_overdue',
  audience: 'staff',
  subject: '[LUXE 운영] 구독 ##{구독번호} 연체',
  title: '구독 요금이 연체되었습니다',
  lines: ['#{차량} 구독(##{구독번호})의 #{미납회차} 요금 #{미납금액}이 마지막 재시도까지 결제되지 않았습니다. 고객에게 연락하거나 결제 탭에서 다시 시도해주세요.'],
  details: [['고객', '#{고객}'], ['미납 회차', '#{미납회차} (#{청구일} 청구분)'], ['미납 금액', '#{미납금액}'], ['월 구독료', '#{월구독료}'], ['결제된 개월', '#{결제개월}']],
  action: { label: '결제 관리 열기', path: '/admin#payments' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    const s = found.subscription;
    const owed = e.paymentId ? await payment(db, e.paymentId) : undefined;
    // Older events named no payment: the month after the last one paid, at the monthly fee.
    const month = owed?.month ?? s.paidMonths + 1;
    return {
      userId: null,
      vars: {
        구독번호: String(s.id), 차량: found.car, 고객: contact(await liveCustomer(db, s.userId)), 월구독료: won(found.request.fee), 결제개월: `${s.paidMonths}개월`,
        미납회차: `${month}개월 차`, 미납금액: won(owed?.amount ?? found.request.fee), 청구일: day(monthlyChargeDate(s.startDate, month)),
      },
    };
  },
});
