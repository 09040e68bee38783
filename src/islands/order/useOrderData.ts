import { useEffect, useState } from 'react';
import { get } from '../../client/api';
import type { Car } from '../../domain/car';
import type { CouponHolding } from '../../domain/pricing';

export interface OrderData {
  car: Car | null;
  coupons: CouponHolding[];
  balance: number;
  error: string | null;
  loading: boolean;
}

/** Loads the car, the user's SUBSCRIBE coupons and point balance for the order page. */
export function useOrderData(carId: number | null): OrderData {
  const [data, setData] = useState<OrderData>({ car: null, coupons: [], balance: 0, error: null, loading: true });
  useEffect(() => {
    if (!carId) {
      setData((d) => ({ ...d, loading: false, error: '차량 정보가 없습니다. 차량을 먼저 선택해주세요.' }));
      return;
    }
    void (async () => {
      const [car, coupons, points] = await Promise.all([
        get<{ car: Car }>(`/subscriptions/cars/${carId}`),
        get<{ coupons: CouponHolding[] }>('/subscriptions/coupons?service=SUBSCRIBE'),
        get<{ point: number }>('/users/point-transactions'),
      ]);
      setData({
        car: car.ok ? car.data.car : null,
        coupons: coupons.ok ? coupons.data.coupons : [],
        balance: points.ok ? points.data.point : 0,
        error: car.ok ? null : car.error.message,
        loading: false,
      });
    })();
  }, [carId]);
  return data;
}
