import { useCallback, useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import type { ButlerCar } from '../../domain/butler';
import type { CouponHolding } from '../../domain/pricing';
import { isLoggedIn } from '../../stores/session';
import { couponList } from './reservation-form';

export interface ReservationData {
  cars: ButlerCar[];
  /** 차량 목록을 불러올 수 없습니다. / 차량 목록을 불러오는데 실패했습니다. (spec 3 §8), or null. */
  carsError: string | null;
  loggedIn: boolean;
  coupons: CouponHolding[];
  /** Point balance, won. */
  balance: number;
  /** Whether the balance has been read (a logged-in user's points are not clamped before). */
  balanceKnown: boolean;
}

/**
 * The fleet (the build's list at once, then the API's), and for a logged-in user the BUTLER
 * coupons and point balance. Coupon and account failures are only logged (spec 3 §8).
 */
export function useReservationData(initialCars: ButlerCar[]): ReservationData & { reloadCars: () => void } {
  const [data, setData] = useState<ReservationData>({ cars: initialCars, carsError: null, loggedIn: false, coupons: [], balance: 0, balanceKnown: false });
  const loadCars = useCallback((signal?: AbortSignal) => {
    void call((o) => client.butlers.cars.$get({}, o), { signal }).then((res) => {
      if (signal?.aborted) return;
      if (res.ok && Array.isArray(res.data.cars)) setData((d) => ({ ...d, cars: res.data.cars, carsError: null }));
      else setData((d) => ({ ...d, carsError: !res.ok && res.status === 0 ? '차량 목록을 불러오는데 실패했습니다.' : '차량 목록을 불러올 수 없습니다.' }));
    });
  }, []);
  useEffect(() => {
    const ctrl = new AbortController();
    const { signal } = ctrl;
    loadCars(signal);
    if (!isLoggedIn()) return () => ctrl.abort();
    setData((d) => ({ ...d, loggedIn: true }));
    void call((o) => client.butlers.coupons.$get({}, o), { signal }).then((res) => {
      if (signal.aborted) return;
      if (!res.ok) console.warn('butler coupons:', res.error.message);
      setData((d) => ({ ...d, coupons: res.ok ? couponList(res.data) : [] }));
    });
    void call((o) => client.accounts.$get({}, o), { signal }).then((res) => {
      if (signal.aborted) return;
      if (!res.ok) return console.warn('account:', res.error.message);
      const point = res.data.point ?? 0;
      setData((d) => ({ ...d, balance: Number.isFinite(point) ? point : 0, balanceKnown: true }));
    });
    return () => ctrl.abort();
  }, [loadCars]);
  /** Reads the fleet again (its reserved days), e.g. after a day was taken by someone else. */
  const reloadCars = useCallback(() => loadCars(), [loadCars]);
  return { ...data, reloadCars };
}
