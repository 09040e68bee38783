/** Session-storage keys of the order page: the choices survive the provider redirect; the marker blocks repeats. */
export const ORDER_KEYS = {
  points: 'subscribeOrderPointAmount',
  coupon: 'subscribeOrderCouponId',
  marker: (billingKey: string) => `subscribeOrderSubmitted:${billingKey}`,
} as const;

function store(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/** Keeps the point amount (won) and held-coupon id (or null) before leaving for the provider. */
export function saveChoices(points: number, couponId: number | null): void {
  store()?.setItem(ORDER_KEYS.points, String(points));
  store()?.setItem(ORDER_KEYS.coupon, couponId === null ? '' : String(couponId));
}

/** Reads the kept choices; anything broken reads as none. */
export function loadChoices(): { points: number; couponId: number | null } {
  const p = Number(store()?.getItem(ORDER_KEYS.points) ?? 0);
  const c = Number(store()?.getItem(ORDER_KEYS.coupon) || 0);
  return { points: Number.isFinite(p) && p > 0 ? Math.floor(p) : 0, couponId: Number.isFinite(c) && c > 0 ? c : null };
}

export function clearChoices(): void {
  store()?.removeItem(ORDER_KEYS.points);
  store()?.removeItem(ORDER_KEYS.coupon);
}

/** The per-billing-key marker: 'pending' while sending, 'done' after success. */
export function marker(billingKey: string): string | null {
  return store()?.getItem(ORDER_KEYS.marker(billingKey)) ?? null;
}
export function setMarker(billingKey: string, value: 'pending' | 'done' | null): void {
  if (value === null) store()?.removeItem(ORDER_KEYS.marker(billingKey));
  else store()?.setItem(ORDER_KEYS.marker(billingKey), value);
}
