import { day, greeting, liveCustomer, subscription, won } from '../data';
import { template } from '../template';

/** 구독 연장 confirmed: the new end date, the added months' fee and from which billing month it is charged. */
export default template({
  event: 'subscription.extended',
  audience: 'customer',
  subject: '[LUXE] 구독 연장 확정 안내',
  title: '구독 연장이 확정되었습니다',
  lines: [
    '#{고객명}, #{차량} 구독이 #{연장개월}개월 연장되어 #{종료일}까지 이용하실 수 있습니다.',
    '#{시작일}(#{결제월}개월 차)부터 월 구독료 #{월구독료}이 등록한 카드로 결제됩니다.',
    '부속 계약서는 내 구독에서 내려받을 수 있으며, 부속 계약서에 정하지 않은 사항은 원 계약의 조건을 따릅니다.',
  ],
  details: [['새 종료일', '#{종료일}'], ['연장 기간', '#{연장개월}개월'], ['연장 월 구독료', '#{월구독료}'], ['적용 시작', '#{시작일} (#{결제월}개월 차)']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.fromDate);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 연장개월: String(e.months), 종료일: day(e.newEndDate),
        시작일: day(e.fromDate), 결제월: String(e.firstMonth), 월구독료: won(e.monthlyFee),
      },
    };
  },
});
