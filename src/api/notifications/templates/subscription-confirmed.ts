import { koreaDate } from '../../../domain/dates';
import { day, greeting, liveCustomer, subscription } from '../data';
import { template } from '../template';

/** Staff confirmed the request: the subscription starts on its start date. */
export default template({
  event: 'subscription.confirmed',
  audience: 'customer',
  subject: '[LUXE] 구독 확정 안내',
  title: '구독이 확정되었습니다',
  lines: ['#{고객명}, #{차량} 구독이 확정되었습니다.', '구독 시작일(#{시작일})에 맞춰 담당자가 인도 일정을 연락드립니다.'],
  details: [['차량', '#{차량}'], ['시작일', '#{시작일}'], ['종료일', '#{종료일}']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    const s = found.subscription;
    return { userId: e.userId, vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 시작일: day(s.startDate), 종료일: day(s.endDate) } };
  },
});
