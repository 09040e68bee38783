import { koreaDate } from '../../../domain/dates';
import { allowanceArithmetic, mileageArithmetic } from '../../../domain/mileage';
import { formatNumber } from '../../../domain/money';
import { greeting, liveCustomer, subscription, won } from '../data';
import { template } from '../template';

/** 초과 주행 정산 at the return: km driven against the allowance, and the overage charged (or none). */
export default template({
  event: 'subscription.mileage_settled',
  audience: 'customer',
  subject: '[LUXE] 구독 주행거리 정산 안내',
  title: '반납 주행거리 정산이 완료되었습니다',
  lines: ['#{고객명}, #{차량} 반납 주행거리를 정산했습니다.', '정산: #{계산}', '#{결과}'],
  details: [['주행거리', '#{주행}'], ['약정 주행거리', '#{약정}'], ['초과 주행', '#{초과}'], ['초과 주행 요금', '#{금액}']],
  action: { label: '결제 내역 보기', path: '/my/payments' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    const s = { driven_km: e.drivenKm, allowance_km: e.allowanceKm, overage_km: e.overageKm, per_km: e.perKm, amount: e.amount, monthly_km: e.monthlyKm, months: e.months };
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car, 계산: mileageArithmetic(s),
        결과: e.paymentId ? `초과 주행 요금 ${won(e.amount)}이 등록된 카드로 결제되었습니다.` : '약정 주행거리 안에서 이용하셔서 추가 요금은 없습니다.',
        주행: `${formatNumber(e.drivenKm)}km`, 약정: allowanceArithmetic(s), 초과: `${formatNumber(e.overageKm)}km`, 금액: won(e.amount),
      },
    };
  },
});
