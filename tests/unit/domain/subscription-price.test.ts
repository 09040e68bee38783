import { describe, expect, it } from 'vitest';
import {
  carOptionPrices, defaultOptionPrices, defaultOptions, deliveryZone, optionRefusal, optionsFromQuery, optionsQuery, prepaymentChoices, pricedOptions,
  quoteSubscriptionOrder, REGIONAL_DELIVERY_FEE, type CarOptionPrices, type SubscriptionOptions,
} from '../../../src/domain/subscription-price';
import { optionLines, quoteLines } from '../../../src/domain/subscription-lines';
import { CarOptionPricesSchema, SubscriptionOptionsSchema } from '../../../src/domain/schemas/subscription-options';

const prices: CarOptionPrices = {
  mileage_plans: [{ km: 1_500, monthly: -100_000 }, { km: 2_500, monthly: 0 }, { km: 4_000, monthly: 200_000 }],
  overage_per_km: 900,
  young_driver_monthly: 300_000,
  extra_driver_monthly: 50_000,
  extra_driver_max: 2,
  deposit: 5_000_000,
  prepayment_max: 6_000_000,
  deductible: 500_000,
};
const base: SubscriptionOptions = { mileage_km: 2_500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'PICKUP', delivery_address: null, delivery_window: null, prepayment: 0 };
const quote = (options: Partial<SubscriptionOptions>, extra: { month?: number; fee?: number; coupon?: Parameters<typeof quoteSubscriptionOrder>[0]['coupon']; points?: number; prices?: CarOptionPrices } = {}) =>
  quoteSubscriptionOrder({ month: extra.month ?? 12, fee: extra.fee ?? 4_000_000, prices: extra.prices ?? prices, options: pricedOptions({ ...base, ...options }), coupon: extra.coupon, points: extra.points });

describe('quoteSubscriptionOrder', () => {
  it('the defaults: the term fee each month, the deposit paid today, the term total without it', () => {
    const q = quote({});
    expect(q).toMatchObject({ monthly: 4_000_000, first_month: 4_000_000, deposit: 5_000_000, paid_today: 9_000_000, later_months: 11, final: 9_000_000 });
    expect(q.term_total).toBe(4_000_000 * 12);
  });
  it('each option moves the monthly fee: plan, age band, drivers', () => {
    expect(quote({ mileage_km: 1_500 }).monthly).toBe(3_900_000);
    expect(quote({ mileage_km: 4_000 }).monthly).toBe(4_200_000);
    expect(quote({ driver_age: 'AGE_21' }).monthly).toBe(4_300_000);
    expect(quote({ extra_drivers: 2 }).monthly).toBe(4_100_000);
    const all = quote({ mileage_km: 4_000, driver_age: 'AGE_21', extra_drivers: 1 });
    expect(all).toMatchObject({ mileage_monthly: 200_000, young_driver_monthly: 300_000, extra_drivers_monthly: 50_000, monthly: 4_550_000 });
    expect(all.term_total).toBe(4_550_000 * 12);
  });
  it('탁송: free to 서울·경기, the regional fee elsewhere, nothing for pickup; paid today only', () => {
    expect(quote({ handover: 'DELIVERY', delivery_address: '서울 강남구 테헤란로 152', delivery_window: 'MORNING' }).delivery_fee).toBe(0);
    expect(quote({ handover: 'DELIVERY', delivery_address: '경기도 성남시 분당구', delivery_window: 'MORNING' }).delivery_fee).toBe(0);
    const far = quote({ handover: 'DELIVERY', delivery_address: '부산 해운대구 우동', delivery_window: 'EVENING' });
    expect(far).toMatchObject({ delivery_fee: REGIONAL_DELIVERY_FEE, monthly: 4_000_000, paid_today: 4_000_000 + REGIONAL_DELIVERY_FEE + 5_000_000 });
    expect(far.term_total).toBe(4_000_000 * 12 + REGIONAL_DELIVERY_FEE);
    expect(deliveryZone('인천 중구 공항로 272')).toBe('OTHER');
  });
  it('선납금 is paid today and lowers every month by its share of the term, below a won dropped', () => {
    const q = quote({ prepayment: 1_000_000 });
    expect(q.prepayment_credit).toBe(83_333);
    expect(q.monthly).toBe(4_000_000 - 83_333);
    expect(q.paid_today).toBe(q.monthly + 5_000_000 + 1_000_000);
    // The term costs the prepayment plus twelve lowered months: 4 won more than without it (the dropped fractions).
    expect(q.term_total).toBe(1_000_000 + 12 * (4_000_000 - 83_333));
    expect(q.term_total - quote({}).term_total).toBe(4);
  });
  it('without a deposit the car takes none', () => {
    expect(quote({}, { prices: { ...prices, deposit: null } })).toMatchObject({ deposit: 0, paid_today: 4_000_000 });
  });
  it('coupon and points apply to the first month only, never to 탁송비, 보증금 or 선납금', () => {
    const pct = quote({ driver_age: 'AGE_21' }, { coupon: { discount_type: 'PERCENTAGE', discount_rate: 10, discount: null }, points: 20_000 });
    expect(pct).toMatchObject({ monthly: 4_300_000, coupon_discount: 430_000, points: 20_000, first_month: 3_850_000, paid_today: 3_850_000 + 5_000_000 });
    expect(pct.term_total).toBe(3_850_000 + 11 * 4_300_000);
    const free = quote({ prepayment: 1_000_000 }, { coupon: { discount_type: 'FREE', discount_rate: null, discount: null } });
    expect(free).toMatchObject({ first_month: 0, paid_today: 6_000_000 });
    expect(quote({}, { coupon: { discount_type: 'FIXED', discount_rate: null, discount: 9_000_000 } })).toMatchObject({ coupon_discount: 4_000_000, first_month: 0 });
  });
  it('percentage coupons floor to the won', () => {
    expect(quote({}, { fee: 3_333_333, prices: { ...prices, deposit: null }, coupon: { discount_type: 'PERCENTAGE', discount_rate: 10, discount: null } })).toMatchObject({ coupon_discount: 333_333, paid_today: 3_000_000 });
  });
  it('a one-month term has no later months', () => {
    expect(quote({}, { month: 1 })).toMatchObject({ later_months: 0, term_total: 4_000_000 });
  });
});

describe('optionRefusal', () => {
  const refuse = (o: Partial<SubscriptionOptions>, month = 12, p = prices) => optionRefusal({ month, fee: 4_000_000, prices: p, options: { ...base, ...o } });
  it('accepts the defaults', () => {
    expect(refuse({})).toBeNull();
    expect(refuse(defaultOptions(prices))).toBeNull();
  });
  it('refuses a plan, drivers or a 선납금 the car does not offer, in Korean', () => {
    expect(refuse({ mileage_km: 3_000 })).toMatchObject({ field: 'mileage_km', message: expect.stringContaining('월 1,500km / 월 2,500km / 월 4,000km') });
    expect(refuse({ extra_drivers: 3 })).toEqual({ field: 'extra_drivers', message: '추가 운전자는 최대 2명까지 등록할 수 있습니다.' });
    expect(refuse({ prepayment: 1_000_000 }, 12, { ...prices, prepayment_max: null })).toEqual({ field: 'prepayment', message: '이 차량은 선납금을 받지 않습니다.' });
    expect(refuse({ prepayment: 1_500_000 })?.field).toBe('prepayment');
    expect(refuse({ prepayment: 7_000_000 })?.message).toBe('이 차량의 선납금은 최대 6,000,000원입니다.');
  });
  it('a 선납금 whose monthly credit passes half the fee is refused (a short term)', () => {
    expect(refuse({ prepayment: 3_000_000 }, 1)?.message).toContain('50%');
    expect(refuse({ prepayment: 2_000_000 }, 1)).toBeNull();
  });
  it('탁송 needs an address and a window', () => {
    expect(refuse({ handover: 'DELIVERY' })?.field).toBe('delivery_address');
    expect(refuse({ handover: 'DELIVERY', delivery_address: '서울 중구 세종대로 110' })?.field).toBe('delivery_window');
    expect(refuse({ handover: 'DELIVERY', delivery_address: '서울 중구 세종대로 110', delivery_window: 'AFTERNOON' })).toBeNull();
  });
});

describe('prepaymentChoices', () => {
  it('offers 0 and the steps the term admits', () => {
    const input = { month: 12, fee: 4_000_000, prices, options: pricedOptions(base) };
    expect(prepaymentChoices(input)).toEqual([0, 1_000_000, 2_000_000, 3_000_000, 4_000_000, 5_000_000, 6_000_000]);
    expect(prepaymentChoices({ ...input, month: 1 })).toEqual([0, 1_000_000, 2_000_000]);
    expect(prepaymentChoices({ ...input, prices: { ...prices, prepayment_max: null } })).toEqual([0]);
  });
});

describe('defaults for cars staff have not priced', () => {
  it('derive from the lowest fee, and stay valid option prices', () => {
    const d = defaultOptionPrices({ subscription_fee_minimum: 4_690_000 });
    expect(d.mileage_plans).toEqual([{ km: 1_500, monthly: -230_000 }, { km: 2_500, monthly: 0 }, { km: 4_000, monthly: 380_000 }]);
    // 보증금 and 선납금 stay off until staff enable them: an order of an unpriced car pays the term fee today, as before options.
    expect(d).toMatchObject({ overage_per_km: 940, young_driver_monthly: 470_000, deposit: null, prepayment_max: null, deductible: 500_000 });
    expect(CarOptionPricesSchema.safeParse(d).success).toBe(true);
    const small = defaultOptionPrices({ subscription_fee_minimum: 900_000 });
    expect(small).toMatchObject({ deductible: 300_000, overage_per_km: 180 });
    expect(defaultOptionPrices({ subscription_fee_minimum: 6_000_000 }).deductible).toBe(1_000_000);
    expect(defaultOptionPrices({ subscription_fee_minimum: null }).overage_per_km).toBe(200);
  });
  it('a car with its own prices uses them', () => {
    expect(carOptionPrices({ option_prices: prices, subscription_fee_minimum: 1 })).toBe(prices);
    expect(carOptionPrices({ option_prices: null, subscription_fee_minimum: 900_000 }).mileage_plans[0]).toEqual({ km: 1_500, monthly: -50_000 });
  });
});

describe('labelled lines', () => {
  it('options read in Korean, with the overage rate, the 탁송 day and the 자기부담금', () => {
    const o: SubscriptionOptions = { ...base, mileage_km: 4_000, driver_age: 'AGE_21', extra_drivers: 1, handover: 'DELIVERY', delivery_address: '부산 해운대구 우동', delivery_window: 'MORNING', prepayment: 2_000_000 };
    const lines = Object.fromEntries(optionLines(o, prices, { month: 12, startDate: '2026-12-01' }).map((l) => [l.label, l.value]));
    expect(lines).toMatchObject({
      주행거리: '월 4,000km (월 +200,000원)', '초과 주행 요금': 'km당 900원', '최연소 운전자': '만 21~25세 (월 +300,000원)', '추가 운전자': '1명 (월 +50,000원)',
      '인수 방법': '탁송', '탁송 주소': '부산 해운대구 우동', '탁송 일시': '2026.12.01 오전 09:00~12:00', 탁송비: '150,000원 (서울·경기 외 지역, 인도·회수 포함)',
      보증금: '5,000,000원 (반납 정산 후 남은 금액 환불)', 선납금: '2,000,000원 (12개월 동안 월 166,666원 차감)', 자기부담금: '사고 1건당 500,000원',
    });
    const pickup = Object.fromEntries(optionLines(base, { ...prices, deposit: null }, { month: 6 }).map((l) => [l.label, l.value]));
    expect(pickup).toMatchObject({ '인수 방법': '라운지 방문 인수', 보증금: '없음', 선납금: '없음', '추가 운전자': '없음' });
  });
  it('amounts read as 오늘 결제 금액, 2회차부터 매월 and the term total', () => {
    const lines = Object.fromEntries(quoteLines(quote({ prepayment: 1_200_000 })).map((l) => [l.label, l.value]));
    expect(lines).toMatchObject({ '선납금 월 차감': '-100,000원', '오늘 결제 금액': '10,100,000원', '2회차부터 매월': '3,900,000원 × 11회' });
  });
});

describe('SubscriptionOptionsSchema', () => {
  it('fills defaults and drops a pickup address', () => {
    expect(SubscriptionOptionsSchema.parse({ mileage_km: 2500, driver_age: 'AGE_26', extra_drivers: 0, handover: 'PICKUP', delivery_address: 'x', delivery_window: 'MORNING' })).toEqual({ ...base });
  });
  it('refuses an unknown band or handover in Korean', () => {
    const r = SubscriptionOptionsSchema.safeParse({ mileage_km: 2500, driver_age: 'AGE_18', extra_drivers: 0, handover: 'DRONE' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message).join(' ')).toMatch(/최연소 운전자.*인수 방법|인수 방법.*최연소 운전자/);
  });
});

describe('the options in an address (car page → /inquire through login)', () => {
  it('round-trip, and anything the car does not offer falls back to its default', () => {
    const chosen: SubscriptionOptions = { ...base, mileage_km: 4_000, driver_age: 'AGE_21', extra_drivers: 2, handover: 'DELIVERY', prepayment: 3_000_000 };
    const q = optionsQuery(chosen, 'OTHER');
    expect(q).toBe('km=4000&age=21&drivers=2&handover=delivery&zone=other&prepay=3000000');
    expect(optionsFromQuery(new URLSearchParams(q), prices)).toEqual({ options: chosen, zone: 'OTHER' });
    const odd = optionsFromQuery(new URLSearchParams('km=3000&age=18&drivers=9&handover=boat&prepay=1500000'), prices);
    expect(odd).toEqual({ options: defaultOptions(prices), zone: null });
    expect(optionsFromQuery(new URLSearchParams('prepay=1000000'), { ...prices, prepayment_max: null }).options.prepayment).toBe(0);
  });
});
