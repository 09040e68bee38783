import { roundPoints } from '../../domain/pricing';
import type { SubscriptionOptions } from '../../domain/subscription-price';
import { session, type CheckoutStorage } from '../checkout/checkoutStorage';

/** Session-storage keys of the order page: the choices survive the provider redirect; the marker blocks repeats. */
const ORDER_KEYS = {
  points: 'subscribeOrderPointAmount',
  coupon: 'subscribeOrderCouponId',
  start: 'subscribeOrderStartDate',
  options: 'subscribeOrderOptions',
  quoted: 'subscribeOrderQuoted',
  drivers: 'subscribeOrderDriverLicences',
  location: 'subscribeOrderLocationConsent',
  marker: (billingKey: string) => `subscribeOrderSubmitted:${billingKey}`,
} as const;

/** What the order page keeps across the redirect: points in won and the held-coupon id (or null). */
export interface OrderDraft {
  points: number;
  couponId: number | null;
  /** The chosen first day (YYYY-MM-DD), or '' for the server's default. */
  startDate?: string;
  /** The chosen options (mileage plan, driver age, drivers, handover, 선납금); checked again by the API. */
  options?: SubscriptionOptions | null;
  /** The 오늘 결제 금액 the page showed (sent as quoted_first_payment; the server refuses another price). */
  quoted?: number;
  /** The additional drivers' checked licences (one id per extra driver), sent as extra_driver_licence_ids. */
  extraLicenceIds?: number[];
  /** The optional 위치정보 이용약관 동의, sent as location_consent. */
  locationConsent?: boolean;
}

function readOptions(): SubscriptionOptions | null {
  try {
    const o = JSON.parse(session()?.getItem(ORDER_KEYS.options) ?? 'null') as SubscriptionOptions | null;
    return o && typeof o === 'object' && typeof o.mileage_km === 'number' ? o : null;
  } catch {
    return null;
  }
}

/** The subscription's checkout storage, under its own subscribeOrder* keys. */
export const orderStorage: CheckoutStorage<OrderDraft> = {
  saveDraft: ({ points, couponId, startDate, options, quoted, extraLicenceIds, locationConsent }) => {
    session()?.setItem(ORDER_KEYS.location, locationConsent ? '1' : '');
    session()?.setItem(ORDER_KEYS.drivers, (extraLicenceIds ?? []).join(','));
    session()?.setItem(ORDER_KEYS.quoted, quoted === undefined ? '' : String(quoted));
    session()?.setItem(ORDER_KEYS.start, startDate ?? '');
    if (options) session()?.setItem(ORDER_KEYS.options, JSON.stringify(options));
    else session()?.removeItem(ORDER_KEYS.options);
    session()?.setItem(ORDER_KEYS.points, String(points));
    session()?.setItem(ORDER_KEYS.coupon, couponId === null ? '' : String(couponId));
  },
  // Anything broken reads as none.
  loadDraft: () => {
    const p = Number(session()?.getItem(ORDER_KEYS.points) ?? 0);
    const c = Number(session()?.getItem(ORDER_KEYS.coupon) || 0);
    const start = session()?.getItem(ORDER_KEYS.start) ?? '';
    const quoted = session()?.getItem(ORDER_KEYS.quoted) ?? '';
    const drivers = (session()?.getItem(ORDER_KEYS.drivers) ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
    return { extraLicenceIds: drivers, locationConsent: session()?.getItem(ORDER_KEYS.location) === '1', points: Number.isFinite(p) ? roundPoints(p) : 0, couponId: Number.isFinite(c) && c > 0 ? c : null, startDate: /^\d{4}-\d{2}-\d{2}$/.test(start) ? start : '', options: readOptions(), ...(/^\d{1,12}$/.test(quoted) ? { quoted: Number(quoted) } : {}) };
  },
  clearDraft: () => {
    session()?.removeItem(ORDER_KEYS.points);
    session()?.removeItem(ORDER_KEYS.coupon);
    session()?.removeItem(ORDER_KEYS.start);
    session()?.removeItem(ORDER_KEYS.options);
    session()?.removeItem(ORDER_KEYS.quoted);
    session()?.removeItem(ORDER_KEYS.drivers);
    session()?.removeItem(ORDER_KEYS.location);
  },
  markerKey: ORDER_KEYS.marker,
};
