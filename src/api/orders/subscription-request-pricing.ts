import { feeForTerm, isFeeTerm, orderRefusal, type Car } from '../../domain/car';
import { defaultOptions, optionRefusal, pricedOptions, quoteSubscriptionOrder, type CarOptionPrices, type SubscriptionOptions } from '../../domain/subscription-price';
import type { Db } from '../db/client';
import { badRequest, conflict, unprocessable } from '../errors';
import { won } from '../../domain/money';
import { checkPointsWithin, takeCoupon } from './checkout';

/** A subscription order's price on the server: the term's fee, the options checked, coupon and points, the quote the page showed. */

/** The monthly fee for a term of a car that can be ordered now; 422 with a Korean message otherwise. */
export function orderableFee(car: Car, month: number, today: string): number {
  const refusal = orderRefusal(car, today);
  if (refusal) throw unprocessable(refusal, { car: [car.is_subscriptable ? '아직 구독할 수 없는 차량입니다.' : '구독 불가 차량입니다.'] });
  const fee = isFeeTerm(month) ? feeForTerm(car, month) : null;
  if (fee === null) throw unprocessable(`이 차량은 ${month}개월 구독을 제공하지 않습니다.`, { month: ['제공하지 않는 구독 기간입니다.'] });
  return fee;
}

/** An order's options checked against the car's option prices (its own or the derived defaults); 400 with a Korean message. */
export function checkedOptions(prices: CarOptionPrices, month: number, fee: number, chosen: SubscriptionOptions | undefined): SubscriptionOptions {
  const options = chosen ?? defaultOptions(prices);
  const refusal = optionRefusal({ month, fee, prices, options });
  if (refusal) throw badRequest(refusal.message, { [`options.${refusal.field}`]: [refusal.message] });
  return options;
}

/** Prices of a request from before options: the term's fee alone (what it was ordered and is billed at). */
export const LEGACY_PRICES: CarOptionPrices = {
  mileage_plans: [{ km: 2_500, monthly: 0 }], overage_per_km: 0, young_driver_monthly: 0, extra_driver_monthly: 0, extra_driver_max: 0, deposit: null, prepayment_max: null, deductible: 0,
};

interface Pricing {
  month: number;
  fee: number;
  prices: CarOptionPrices;
  options: SubscriptionOptions;
}

/**
 * Coupon (if any) taken and points checked against the first month's fee with the options; the
 * server's quote (quoteSubscriptionOrder). Runs inside the transaction.
 */
export async function priceInside(tx: Db, userId: number, p: Pricing, couponId: number | null | undefined, points: number, today: string) {
  const input = { month: p.month, fee: p.fee, prices: p.prices, options: pricedOptions(p.options) };
  const monthly = quoteSubscriptionOrder(input).monthly;
  const coupon = couponId ? await takeCoupon(tx, 'SUBSCRIBE', userId, couponId, monthly, today) : null;
  const quote = quoteSubscriptionOrder({ ...input, coupon, points });
  checkPointsWithin(points, monthly - quote.coupon_discount);
  return quote;
}

/** 409 when the page showed another first payment than the server's (a stale page or a tampered one): nothing is charged. */
export function requireQuoted(quoted: number | undefined, paidToday: number) {
  if (quoted === undefined || quoted === paidToday) return;
  const message = `결제 금액이 변경되었습니다. 오늘 결제 금액은 ${won(paidToday)}입니다. 금액을 확인한 뒤 다시 신청해주세요.`;
  throw conflict(message, { quoted_first_payment: [message] });
}
