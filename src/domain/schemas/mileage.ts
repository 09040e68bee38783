import { z } from 'zod';
import { MAX_ODOMETER_KM, STAFF_SOURCES } from '../mileage';
import { formatNumber } from '../money';
import { calendarDate } from './common';

/** The odometer in km: a whole number 0…MAX_ODOMETER_KM (a string, a fraction or a negative is a Korean 400). */
const odometerKm = z
  .number({ error: '주행거리는 숫자(km)로 입력해주세요.' })
  .int({ error: '주행거리는 정수(km)로 입력해주세요.' })
  .min(0, { error: '주행거리는 0km 이상이어야 합니다.' })
  .max(MAX_ODOMETER_KM, { error: `주행거리는 ${formatNumber(MAX_ODOMETER_KM)}km 이하로 입력해주세요.` });

/** POST /subscriptions/{id}/odometer: the customer's monthly report (the day is the server's today). */
export const SelfOdometerSchema = z.object({ km: odometerKm });

/** POST /admin/subscriptions/{id}/odometer: staff record a reading (the day defaults to today; the overage of a RETURN is settled by 반납 정산). */
export const StaffOdometerSchema = z.object({
  km: odometerKm,
  source: z.enum(STAFF_SOURCES, { error: '기록 종류는 HANDOVER, STAFF, RETURN 중 하나여야 합니다.' }),
  read_on: calendarDate('기록일').optional(),
});
