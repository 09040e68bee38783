import { z } from 'zod';
import { DELIVERY_WINDOWS, DRIVER_AGES, HANDOVERS, MAX_DELIVERY_ADDRESS, type CarOptionPrices, type SubscriptionOptions } from '../subscription-price';
import { calendarDate, intField } from './common';

/** Zod shapes of a car's option prices (the console) and of an order's chosen options (the order API); rules in subscription-price.ts. */

const won = (label: string, min = 0) =>
  intField(label)
    .min(min, { error: `${label} 금액은 ${min < 0 ? '-1,000,000,000' : '0'} 이상이어야 합니다.` })
    .max(1_000_000_000, { error: `${label} 금액이 너무 큽니다.` });

const plan = z.object(
  {
    km: intField('주행거리 플랜').min(100, { error: '주행거리 플랜은 월 100km 이상이어야 합니다.' }).max(100_000, { error: '주행거리 플랜은 월 100,000km 이하여야 합니다.' }),
    monthly: won('주행거리 플랜 월 요금 차이', -1_000_000_000),
  },
  { error: '주행거리 플랜은 { km, monthly }로 보내주세요.' },
);

/** A car's option prices (PATCH /admin/cars/{id} option_prices); null puts the derived defaults back. */
export const CarOptionPricesSchema = z
  .object(
    {
      mileage_plans: z
        .array(plan, { error: '주행거리 플랜은 목록이어야 합니다.' })
        .min(1, { error: '주행거리 플랜을 하나 이상 입력해주세요.' })
        .max(5, { error: '주행거리 플랜은 5개까지 등록할 수 있습니다.' })
        .refine((ps) => ps.every((p, i) => i === 0 || p.km > ps[i - 1].km), { error: '주행거리 플랜은 km가 겹치지 않게 작은 순서로 입력해주세요.' }),
      overage_per_km: won('km당 초과 주행 요금'),
      young_driver_monthly: won('만 21~25세 운전자 추가 요금'),
      extra_driver_monthly: won('추가 운전자 월 요금'),
      extra_driver_max: intField('추가 운전자 최대 인원').min(0, { error: '추가 운전자 최대 인원은 0~5명이어야 합니다.' }).max(5, { error: '추가 운전자 최대 인원은 0~5명이어야 합니다.' }),
      deposit: won('보증금').positive({ error: '보증금을 받지 않으려면 비워주세요.' }).nullable(),
      prepayment_max: won('선납금 최대').positive({ error: '선납금을 받지 않으려면 비워주세요.' }).nullable(),
      deductible: won('자기부담금'),
    },
    { error: '옵션 요금은 객체로 보내주세요.' },
  ) satisfies z.ZodType<CarOptionPrices>;

/** An order's options (POST /subscriptions/cars/{id}/request `options`); checked against the car in optionRefusal. */
export const SubscriptionOptionsSchema = z
  .object(
    {
      mileage_km: intField('주행거리 플랜').min(1, { error: '주행거리 플랜을 선택해주세요.' }),
      driver_age: z.enum(DRIVER_AGES, { error: '최연소 운전자 연령은 만 21세 이상 또는 만 26세 이상 중에서 선택해주세요.' }),
      extra_drivers: intField('추가 운전자 수').min(0, { error: '추가 운전자 수는 0명 이상이어야 합니다.' }).max(5, { error: '추가 운전자는 최대 5명까지 등록할 수 있습니다.' }),
      handover: z.enum(HANDOVERS, { error: '인수 방법은 라운지 인수 또는 탁송 중에서 선택해주세요.' }),
      delivery_address: z
        .string({ error: '탁송 주소는 문자열이어야 합니다.' })
        .trim()
        .max(MAX_DELIVERY_ADDRESS, { error: `탁송 주소는 ${MAX_DELIVERY_ADDRESS}자 이하로 입력해주세요.` })
        .nullable()
        .default(null),
      delivery_window: z.enum(DELIVERY_WINDOWS, { error: '탁송 시간대를 선택해주세요.' }).nullable().default(null),
      prepayment: intField('선납금').min(0, { error: '선납금은 0원 이상이어야 합니다.' }).default(0),
    },
    { error: '옵션은 객체로 보내주세요.' },
  )
  .transform((o): SubscriptionOptions => (o.handover === 'PICKUP' ? { ...o, delivery_address: null, delivery_window: null } : { ...o, delivery_address: o.delivery_address || null }));

/** PATCH /subscriptions/{id}/delivery and /subscriptions/requests/{id}/delivery: what the customer changes (at least one). */
export const DeliveryChangeSchema = z
  .object(
    {
      delivery_address: z
        .string({ error: '탁송 주소는 문자열이어야 합니다.' })
        .trim()
        .min(5, { error: '탁송 주소를 정확히 입력해주세요.' })
        .max(MAX_DELIVERY_ADDRESS, { error: `탁송 주소는 ${MAX_DELIVERY_ADDRESS}자 이하로 입력해주세요.` })
        .optional(),
      delivery_window: z.enum(DELIVERY_WINDOWS, { error: '탁송 시간대는 오전, 오후, 저녁 중에서 선택해주세요.' }).optional(),
      start_date: calendarDate('시작일').optional(),
    },
    { error: '변경할 탁송 정보를 객체로 보내주세요.' },
  )
  .refine((o) => o.delivery_address !== undefined || o.delivery_window !== undefined || o.start_date !== undefined, { error: '변경할 탁송 주소, 시간대 또는 시작일을 입력해주세요.' });
