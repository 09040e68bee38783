import { roundPoints } from '../../domain/pricing';
import { session, type CheckoutStorage } from '../checkout/checkoutStorage';

/** Session-storage keys of the order page: the choices survive the provider redirect; the marker blocks repeats. */
export const ORDER_KEYS = {
  points: 'subscribeOrderPointAmount',
  coupon: 'subscribeOrderCouponId',
  start: 'subscribeOrderStartDate',
  marker: (billingKey: string) => `subscribeOrderSubmitted:${billingKey}`,
} as const;

/** What the order page keeps across the redirect: points in won and the held-coupon id (or null). */
export interface OrderDraft {
  points: number;
  couponId: number | null;
  /** The chosen first day (YYYY-MM-DD), or '' for the server's default. */
  startDate?: string;
}

/** The subscription's checkout storage, under its own subscribeOrder* keys. */
export const orderStorage: CheckoutStorage<OrderDraft> = {
  saveDraft: ({ points, couponId, startDate }) => {
    session()?.setItem(ORDER_KEYS.start, startDate ?? '');
    session()?.setItem(ORDER_KEYS.points, String(points));
    session()?.setItem(ORDER_KEYS.coupon, couponId === null ? '' : String(couponId));
  },
  // Anything broken reads as none.
  loadDraft: () => {
    const p = Number(session()?.getItem(ORDER_KEYS.points) ?? 0);
    const c = Number(session()?.getItem(ORDER_KEYS.coupon) || 0);
    const start = session()?.getItem(ORDER_KEYS.start) ?? '';
    return { points: Number.isFinite(p) ? roundPoints(p) : 0, couponId: Number.isFinite(c) && c > 0 ? c : null, startDate: /^\d{4}-\d{2}-\d{2}$/.test(start) ? start : '' };
  },
  clearDraft: () => {
    session()?.removeItem(ORDER_KEYS.points);
    session()?.removeItem(ORDER_KEYS.coupon);
    session()?.removeItem(ORDER_KEYS.start);
  },
  markerKey: ORDER_KEYS.marker,
};
