import { koreaDate } from '../../../domain/dates';
import { monthlyChargeDate, retryDate } from '../../../domain/payments';
import { feeOfMonth } from '../../../domain/extension';
import { payments } from '../../db/schema';
import { feeChanges } from '../../db/fee-changes';
import { and, eq } from 'drizzle-orm';
import { day, greeting, liveCustomer, subscription, won } from '../data';
import { template } from '../template';

/** The customer changed the card of a subscription: what is charged to it next, and when. */
export default template({
  event: 'subscription.card_changed',
  audience: 'customer',
  subject: '[LUXE] 구독 결제 카드 변경 안내',
  title: '결제 카드가 변경되었습니다',
  lines: ['#{고객명}, #{차량} 구독의 결제 카드가 변경되었습니다.', '#{다음결제안내}', '직접 변경하지 않으셨다면 고객센터로 바로 연락해주세요.'],
  details: [['차량', '#{차량}'], ['다음 결제일', '#{결제일}'], ['결제 금액', '#{금액}']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    const s = found.subscription;
    const owed = s.paidMonths < found.request.month + s.extendedMonths ? s.paidMonths + 1 : null;
    // After a 구독 연장 or a 차량 교체 the months carry their own fee (the one function billing uses).
    const extensions = await feeChanges(db, s.id);
    let next = '';
    let when = '';
    if (owed !== null && s.isActive && s.billingStatus !== 'CANCELLED') {
      const due = monthlyChargeDate(s.startDate, owed);
      const failures = (await db.select({ id: payments.id }).from(payments).where(and(eq(payments.refType, 'subscription'), eq(payments.refId, s.id), eq(payments.month, owed), eq(payments.status, 'FAILED')))).length;
      if (s.billingStatus === 'PAST_DUE') {
        when = retryDate(due, failures) ?? due;
        next = `밀린 ${owed}개월 차 요금은 ${day(when)}에 새 카드로 다시 결제를 시도합니다. 지금 결제하시려면 내 구독에서 결제해주세요.`;
      } else if (s.billingStatus === 'OVERDUE') {
        next = `밀린 ${owed}개월 차 요금은 자동으로 다시 결제되지 않습니다. 내 구독에서 새 카드로 결제해주세요.`;
      } else {
        when = due;
        next = `${owed}개월 차 요금부터 새 카드로 결제됩니다.`;
      }
    }
    return {
      userId: e.userId,
      vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 다음결제안내: next, 결제일: when ? day(when) : '', 금액: when && owed ? won(feeOfMonth(owed, found.request.fee, extensions)) : '' },
    };
  },
});
