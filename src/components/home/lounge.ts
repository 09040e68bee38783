/** The LUXE lounge: shown on home (map), in the footer and on /contact. */
export const LOUNGE = {
  name: 'LUXE 라운지 청담',
  address: '서울특별시 강남구 도산대로 442',
  hours: '매일 10:00 – 20:00 (예약제)',
  phone: '02-6952-0808',
  email: 'concierge@luxe-subscribe.kr',
  /** Used when geocoding fails: the spec's default Seoul position. */
  fallback: { lat: 37.5665, lng: 126.978 },
} as const;

/** Kakao Map place page for the lounge (opens in a new tab). */
export const loungePlaceUrl = (pos?: { lat: number; lng: number }) =>
  pos
    ? `https://map.kakao.com/link/map/${encodeURIComponent(LOUNGE.name)},${pos.lat},${pos.lng}`
    : `https://map.kakao.com/link/search/${encodeURIComponent(LOUNGE.address)}`;
