import { day, greeting, liveCustomer, subscription, won } from '../data';
import { template } from '../template';
import { feeChanges } from '../../db/fee-changes';
import { feeOfMonth } from '../../../domain/extension';

/** Three days before a monthly charge. */
export default template({
  event: 'subscription.charge_upcoming',
  audience: 'customer',
  recheckAtSend: true,
  subject: '[LUXE] #{결제일} 구독료 결제 예정',
  title: '다음 구독료가 곧 결제됩니다',
  lines: ['#{고객명}, #{차량} 구독 #{회차}개월 차 요금이 #{결제일}에 등록하신 카드로 결제됩니다.', '카드를 바꾸시려면 내 구독에서 변경해주세요.'],
  details: [['결제일', '#{결제일}'], ['결제 금액', '#{금액}']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.chargeDate);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    // 해지 since the reminder was scheduled: no charge comes.
    if (!found.subscription.isActive || found.subscription.billingStatus === 'CANCELLED') return { skip: '해지된 구독입니다.' };
    if (found.subscription.paidMonths >= e.month) return { skip: '이미 결제된 달입니다.' };
    // The fee as it stands when sent (a 차량 교체 confirmed after the reminder was queued changes it): the function the charge uses.
    const amount = feeOfMonth(e.month, found.request.fee, await feeChanges(db, found.subscription.id));
    return { userId: e.userId, vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 회차: String(e.month), 결제일: day(e.chargeDate), 금액: won(amount) } };
  },
});
