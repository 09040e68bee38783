import { persistentAtom } from '@nanostores/persistent';

/** The coupon wallet's tab: the service whose coupons are shown. */
export type CouponMode = 'SUBSCRIBE' | 'BUTLER';

/** localStorage key of the chosen tab. */
export const COUPON_MODE_KEY = 'couponMode';

/** The remembered tab; anything stored but BUTLER reads as SUBSCRIBE. */
export const $couponMode = persistentAtom<CouponMode>(COUPON_MODE_KEY, 'SUBSCRIBE', {
  encode: (mode) => mode,
  decode: (stored) => (stored === 'BUTLER' ? 'BUTLER' : 'SUBSCRIBE'),
});
