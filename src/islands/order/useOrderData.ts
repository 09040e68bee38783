import { useCallback, useEffect, useRef, useState } from 'react';
import { call, client } from '../../client/api';
import type { Car } from '../../domain/car';
import type { CouponHolding } from '../../domain/pricing';

export interface OrderData {
  car: Car | null;
  coupons: CouponHolding[];
  balance: number;
  error: string | null;
  loading: boolean;
}

const loadWallet = async () => {
  const [coupons, points] = await Promise.all([
    call((o) => client.subscriptions.coupons.$get({ query: { service: 'SUBSCRIBE' } }, o)),
    call((o) => client.users['point-transactions'].$get({}, o)),
  ]);
  const refused = [coupons, points].some((r) => !r.ok && r.status === 401);
  return { coupons: coupons.ok ? coupons.data.coupons : [], balance: points.ok ? points.data.point : 0, refused };
};

/**
 * Loads the car, the user's SUBSCRIBE coupons and point balance for the order page;
 * refreshWallet reloads coupons and balance (after an order has spent them).
 */
export function useOrderData(carId: number | null): OrderData & { refreshWallet: () => Promise<void> } {
  const [data, setData] = useState<OrderData>({ car: null, coupons: [], balance: 0, error: null, loading: true });
  // Wallet reads are numbered: an older read answering late (the first load, slow while an order
  // was in flight) never replaces a newer one.
  const walletReads = useRef(0);
  useEffect(() => {
    if (!carId) {
      setData((d) => ({ ...d, loading: false, error: '차량 정보가 없습니다. 차량을 먼저 선택해주세요.' }));
      return;
    }
    void (async () => {
      const read = ++walletReads.current;
      const [car, wallet] = await Promise.all([call((o) => client.subscriptions.cars[':id'].$get({ param: { id: String(carId) } }, o)), loadWallet()]);
      // A refused token (expired, revoked) is useOrderAccount's to handle: it goes to /login.
      if (wallet.refused) return;
      const latest = read === walletReads.current;
      setData((d) => ({
        car: car.ok ? car.data.car : null, error: car.ok ? null : car.error.message, loading: false,
        coupons: latest ? wallet.coupons : d.coupons, balance: latest ? wallet.balance : d.balance,
      }));
    })();
  }, [carId]);
  const refreshWallet = useCallback(async () => {
    const read = ++walletReads.current;
    const { coupons, balance } = await loadWallet();
    if (read === walletReads.current) setData((d) => ({ ...d, coupons, balance }));
  }, []);
  return { ...data, refreshWallet };
}
