import { formatNumber, won } from './money';
import {
  deliveryZone, DRIVER_AGE_LABEL, DELIVERY_WINDOW_LABEL, REGIONAL_DELIVERY_FEE, type CarOptionPrices, type SubscriptionOptions, type SubscriptionOrderQuote,
} from './subscription-price';
import { dotDate } from './dates';

/**
 * An order's options and amounts as labelled Korean lines (`{ label, value }[]`): /my/requests, the
 * request detail, the order summary and the contract (계약서). Apart from subscription-price.ts so
 * the static car page, which prices but never lists, does not ship the wording.
 */

/** Signed won for a monthly difference: +50,000원, -40,000원, 0원. */
const signed = (n: number) => (n > 0 ? `+${won(n)}` : won(n));

/** One line of a labelled list (the order summary, /my/requests, the contract). */
export interface PriceLine {
  label: string;
  value: string;
}

/**
 * The chosen options as labelled Korean lines, for /my/requests and the contract: plan and overage
 * rate, age band, drivers, handover (and 탁송 day, window, address and fee), 보증금, 선납금, 자기부담금.
 */
export function optionLines(options: SubscriptionOptions, prices: CarOptionPrices, { month, startDate = null }: { month: number; startDate?: string | null }): PriceLine[] {
  const plan = prices.mileage_plans.find((p) => p.km === options.mileage_km);
  const day = startDate ? dotDate(startDate) : null;
  const zone = options.handover === 'DELIVERY' && options.delivery_address ? deliveryZone(options.delivery_address) : null;
  const lines: PriceLine[] = [
    { label: '주행거리', value: `월 ${formatNumber(options.mileage_km)}km${plan && plan.monthly !== 0 ? ` (월 ${signed(plan.monthly)})` : ''}` },
    { label: '초과 주행 요금', value: `km당 ${won(prices.overage_per_km)}` },
    { label: '최연소 운전자', value: `${DRIVER_AGE_LABEL[options.driver_age]}${options.driver_age === 'AGE_21' ? ` (월 ${signed(prices.young_driver_monthly)})` : ''}` },
    { label: '추가 운전자', value: options.extra_drivers > 0 ? `${options.extra_drivers}명 (월 ${signed(options.extra_drivers * prices.extra_driver_monthly)})` : '없음' },
  ];
  if (options.handover === 'DELIVERY') {
    lines.push(
      { label: '인수 방법', value: '탁송' },
      { label: '탁송 주소', value: options.delivery_address ?? '-' },
      { label: '탁송 일시', value: `${day ?? '구독 시작일'} ${options.delivery_window ? DELIVERY_WINDOW_LABEL[options.delivery_window] : ''}`.trim() },
      { label: '탁송비', value: zone === 'OTHER' ? `${won(REGIONAL_DELIVERY_FEE)} (서울·경기 외 지역, 인도·회수 포함)` : '무료 (서울·경기)' },
    );
  } else {
    lines.push({ label: '인수 방법', value: `라운지 방문 인수${day ? ` (${day})` : ''}` });
  }
  lines.push(
    { label: '보증금', value: prices.deposit ? `${won(prices.deposit)} (반납 정산 후 남은 금액 환불)` : '없음' },
    { label: '선납금', value: options.prepayment > 0 ? `${won(options.prepayment)} (${month}개월 동안 월 ${won(Math.floor(options.prepayment / Math.max(1, month)))} 차감)` : '없음' },
    { label: '자기부담금', value: `사고 1건당 ${won(prices.deductible)}` },
  );
  return lines;
}

/** The amounts of a quote as labelled Korean lines: 월 구독료 …, 오늘 결제 금액, 2회차부터 매월, 보증금, 총 구독료. */
export function quoteLines(q: SubscriptionOrderQuote): PriceLine[] {
  const lines: PriceLine[] = [{ label: `월 구독료 (${q.month}개월 기본)`, value: won(q.base_fee) }];
  if (q.mileage_monthly) lines.push({ label: '주행거리 플랜', value: signed(q.mileage_monthly) });
  if (q.young_driver_monthly) lines.push({ label: '만 21~25세 운전자', value: signed(q.young_driver_monthly) });
  if (q.extra_drivers_monthly) lines.push({ label: '추가 운전자', value: signed(q.extra_drivers_monthly) });
  if (q.prepayment_credit) lines.push({ label: '선납금 월 차감', value: `-${won(q.prepayment_credit)}` });
  lines.push({ label: '옵션 포함 월 구독료', value: won(q.monthly) });
  if (q.coupon_discount) lines.push({ label: '쿠폰 할인 (첫 달)', value: `-${won(q.coupon_discount)}` });
  if (q.points) lines.push({ label: '포인트 사용 (첫 달)', value: `-${formatNumber(q.points)} P` });
  lines.push({ label: '첫 달 구독료', value: won(q.first_month) });
  if (q.delivery_fee) lines.push({ label: '탁송비', value: won(q.delivery_fee) });
  if (q.deposit) lines.push({ label: '보증금 (환불)', value: won(q.deposit) });
  if (q.prepayment) lines.push({ label: '선납금', value: won(q.prepayment) });
  lines.push(
    { label: '오늘 결제 금액', value: won(q.paid_today) },
    { label: '2회차부터 매월', value: q.later_months > 0 ? `${won(q.monthly)} × ${q.later_months}회` : '없음' },
    { label: `총 구독료 (${q.month}개월, 보증금 제외)`, value: won(q.term_total) },
  );
  return lines;
}

