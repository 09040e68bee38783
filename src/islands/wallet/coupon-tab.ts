import type { CouponMode } from '../../stores/coupon-mode';

/** The tabs read in Korean; the stored value stays the spec's SUBSCRIBE or BUTLER. */
export const TAB_LABEL: Record<CouponMode, string> = { SUBSCRIBE: '구독', BUTLER: '의전' };

/** Said under the tabs: a code may be entered on either tab; the coupon lands on its own service's tab. */
export const TAB_HINT = '쿠폰 코드는 어느 탭에서 등록해도 됩니다. 등록한 쿠폰은 쓸 수 있는 서비스(구독·의전) 탭에 담깁니다.';

/**
 * Where a coupon just registered is listed: its own service's tab. When that is not the tab open
 * (a 의전 code entered on 구독), the wallet moves there and says why; null when it stays.
 */
export function claimedTab(service: string, open: CouponMode): { tab: CouponMode; note: string } | null {
  const tab: CouponMode | null = service === 'BUTLER' ? 'BUTLER' : service === 'SUBSCRIBE' ? 'SUBSCRIBE' : null;
  if (!tab || tab === open) return null;
  return { tab, note: `${TAB_LABEL[tab]} 서비스에 쓰는 쿠폰이라 ${TAB_LABEL[tab]} 탭에 담았습니다.` };
}
