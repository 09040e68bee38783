import { formatKoreaDateTime, koreaDate } from '../../domain/dates';
import type { ButlerCar, DriverPreference } from '../../domain/butler';

/** Brand, model and sub-model of a butler car, e.g. "Mercedes-Benz S-Class S 580 4인". */
export function butlerCarName(car: Pick<ButlerCar, 'model' | 'sub_model'> | null | undefined): string {
  if (!car?.model) return '차량 정보 없음';
  return [car.model.brand?.name, car.model.name, car.sub_model].filter(Boolean).join(' ');
}

/** A trip's period in Korea time: "2026.05.01 09:00 ~ 17:00" on one day, the full end date otherwise. */
export function tripPeriod(startAt: string, endAt: string | null): string {
  const start = formatKoreaDateTime(startAt);
  if (!endAt) return `${start} ~`;
  const end = formatKoreaDateTime(endAt);
  return koreaDate(startAt) === koreaDate(endAt) ? `${start} ~ ${end.slice(11)}` : `${start} ~ ${end}`;
}

/** The detail page of a butler request or of a butler subscription. */
export const butlerRequestHref = (id: number) => `/butler/request/${id}`;
export const butlerSubscriptionHref = (id: number) => `/butler/subscribe/${id}`;

/** Korean label of a driver preference, as the reservation form offers it; none chosen reads 지정 안 함. */
export function driverLabel(pref: DriverPreference | null | undefined): string {
  return pref === 'male' ? '남성' : pref === 'female' ? '여성' : pref === 'any' ? '상관없음' : '지정 안 함';
}
