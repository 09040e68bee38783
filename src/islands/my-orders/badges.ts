/** A subscription's state as its badge reads: 이용 중 or 종료 (the spec's ACTIVE / INACTIVE, in Korean). */
export const subscriptionBadge = (active: boolean) => (active ? '이용 중' : '이용 종료');
