import { earlyExitArithmetic } from '../../../domain/early-exit';
import { day, greeting, liveCustomer, subscription, won } from '../data';
import { template } from '../template';

/** 중도 해지 confirmed and its fee paid: the return day and the fee's arithmetic. */
export default template({
  event: 'subscription.early_exit',
  audience: 'customer',
  subject: '[LUXE] 구독 중도 해지 안내',
  title: '구독 중도 해지가 확정되었습니다',
  lines: ['#{고객명}, #{차량} 구독이 #{반납일}에 종료됩니다.', '중도 해지 수수료: #{계산}', '반납일 이후의 월 구독료 결제는 모두 취소되었습니다.'],
  details: [['반납일(종료일)', '#{반납일}'], ['남은 개월 수', '#{남은개월}개월'], ['중도 해지 수수료', '#{수수료}']],
  action: { label: '내 구독 보기', path: '/my/subscriptions' },
  async load(db, e) {
    const found = await subscription(db, e.subscriptionId, e.exitDate);
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    const arithmetic = earlyExitArithmetic({ remaining_months: e.remainingMonths, monthly_fee: e.monthlyFee, percent: e.percent, fee: e.fee, fee_parts: e.feeParts });
    return {
      userId: e.userId,
      vars: { 고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 반납일: day(e.exitDate), 계산: arithmetic, 남은개월: String(e.remainingMonths), 수수료: won(e.fee) },
    };
  },
});
