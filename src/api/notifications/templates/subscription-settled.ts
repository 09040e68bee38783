import { koreaDate } from '../../../domain/dates';
import { greeting, liveCustomer, subscription, won } from '../data';
import { template } from '../template';

/** 반납 정산 done: each line (the unused 선납금 as a credit), the deposit applied, and what was charged or refunded. */
export default template({
  event: 'subscription.settled',
  audience: 'customer',
  subject: '[LUXE] 구독 반납 정산 안내',
  title: '반납 정산이 완료되었습니다',
  lines: ['#{고객명}, #{차량} 반납 정산을 마쳤습니다.', '정산 내역: #{내역}', '정산: #{계산}', '#{결과}'],
  details: [['정산 합계', '#{합계}'], ['보증금', '#{보증금}'], ['보증금에서 차감', '#{차감}'], ['미사용 선납금 환급', '#{선납금}'], ['카드 결제', '#{결제}'], ['환불', '#{환불}']],
  action: { label: '결제 내역 보기', path: '/my/payments' },
  async load(db, e, now) {
    const found = await subscription(db, e.subscriptionId, koreaDate(now));
    if (!found) return { skip: '구독을 찾을 수 없습니다.' };
    // The unused 선납금 is a credit line (negative amount): it raises the refund or lowers the charge.
    const prepaid = -(e.lines.find((l) => l.amount < 0)?.amount ?? 0);
    const result = e.toCharge > 0
      ? `${prepaid > 0 ? '보증금과 미사용 선납금으로' : '보증금으로'} 부족한 ${won(e.toCharge)}이 등록된 카드로 결제되었습니다.`
      : e.toRefund > 0
        ? prepaid > 0 ? `남은 보증금과 미사용 선납금 ${won(e.toRefund)}을 첫 결제 카드로 환불했습니다.` : `남은 보증금 ${won(e.toRefund)}을 첫 결제 카드로 환불했습니다.`
        : '추가로 결제하거나 환불할 금액은 없습니다.';
    return {
      userId: e.userId,
      vars: {
        고객명: greeting(await liveCustomer(db, e.userId)), 차량: found.car,
        내역: e.lines.length ? e.lines.map((l) => `${l.label} ${l.amount < 0 ? `−${won(-l.amount)}` : won(l.amount)} (${l.detail})`).join(' / ') : '청구 항목 없음',
        계산: e.summary, 결과: result, 합계: won(e.total), 보증금: won(e.deposit), 차감: won(e.fromDeposit), 결제: won(e.toCharge), 환불: won(e.toRefund), 선납금: prepaid > 0 ? won(prepaid) : '',
      },
    };
  },
});
