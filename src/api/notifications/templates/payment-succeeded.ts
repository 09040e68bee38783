import { dateTime, greeting, liveCustomer, payment, paymentFor, won } from '../data';
import { template } from '../template';
import { tripChargeRows, tripChargeSentence } from '../../../domain/waiting';

/** The first payment's lines (firstPaymentLines) as detail rows, with their variables; 합계 is 결제 금액. */
const PART_ROWS = [['첫 달 구독료', '첫달구독료'], ['쿠폰 할인', '쿠폰할인'], ['포인트 사용', '포인트사용'], ['탁송비', '탁송비'], ['보증금 (반납 후 환급)', '보증금'], ['선납금', '선납금']] as const;

/** The charge after a butler trip (tripChargeRows, src/domain/waiting.ts) as detail rows, with their variables. */
const TRIP_ROWS = [['예약', '예약시간'], ['실제 이용', '실제이용'], ['대기', '대기'], ['선결제', '선결제'], ['추가 청구', '추가청구']] as const;

/** A charge went through: the amount and the receipt. */
export default template({
  event: 'payment.succeeded',
  audience: 'customer',
  subject: '[LUXE] 결제 완료 #{금액}',
  title: '결제가 완료되었습니다',
  lines: ['#{고객명}, #{항목} #{금액}이 결제되었습니다.', '#{청구사유}'],
  // The first payment's parts (첫 달 구독료, 쿠폰 할인 … 합계: paymentLabel's one home); empty rows are left out.
  details: [['주문명', '#{주문명}'], ...PART_ROWS.map(([label, key]): [string, string] => [label, `#{${key}}`]), ...TRIP_ROWS.map(([label, key]): [string, string] => [label, `#{${key}}`]), ['결제 금액', '#{금액}'], ['결제 일시', '#{결제일시}']],
  action: { label: '영수증 보기', path: '#{영수증}' },
  async load(db, e) {
    const p = await payment(db, e.paymentId);
    if (!p) return { skip: '결제를 찾을 수 없습니다.' };
    const what = await paymentFor(db, p);
    const parts = Object.fromEntries(PART_ROWS.map(([label, key]) => [key, ((l) => (l ? won(l.amount) : ''))(what.lines?.find((x) => x.label === label))]));
    // 예약 N시간 · 실제 이용 · 대기 · 선결제 · 추가 청구 = 초과 x시간 × 요금 + 대기 …: what the amount after the trip is made of.
    const rows = what.trip ? tripChargeRows(what.trip) : [];
    const trip = Object.fromEntries(TRIP_ROWS.map(([label, key]) => [key, rows.find((r) => r.label === label)?.value ?? '']));
    return {
      userId: e.userId,
      vars: { ...parts, ...trip, 청구사유: what.trip ? tripChargeSentence(what.trip) : '', 고객명: greeting(await liveCustomer(db, e.userId)), 항목: what.label, 주문명: p.orderName, 금액: won(p.amount), 결제일시: p.paidAt ? dateTime(p.paidAt) : '', 영수증: p.receiptUrl ?? '/my/payments' },
    };
  },
});
