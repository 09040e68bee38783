import { koreaDate } from '../../../domain/dates';
import { greeting, liveCustomer, subscription } from '../data';
import { template } from '../template';

/** The customer: the licence check before the car's handover found a licence that may not drive (운전자격 확인). */
export default template({
  event: 'subscription.licence_refused',
  audience: 'customer',
  subject: '[LUXE] 운전면허 확인 결과 차량 인도가 보류되었습니다',
  title: '차량 인도가 보류되었습니다',
  lines: ['#{고객명}, #{차량} 인도 전에 운전면허를 다시 확인한 결과 차량을 인도할 수 없습니다.', '#{사유}', '유효한 운전면허로 다시 확인하시면 인도 일정을 다시 잡아드립니다. 고객센터로 연락해주세요.'],
  details: [['차량', '#{차량}'], ['사유', '#{사유}']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return { userId: e.userId, vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 사유: e.reason } };
  },
});
