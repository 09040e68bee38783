import { SITE } from '../../config/site';

/** The LUXE lounge: shown on home (map), in the footer and on /contact; set through src/config/site.ts. */
export const LOUNGE = {
  ...SITE.lounge,
  phone: SITE.phone,
  email: SITE.email,
  /** Used when geocoding fails: the spec's default Seoul position. */
  fallback: { lat: 37.5665, lng: 126.978 },
} as const;

/** Kakao Map place page for the lounge (opens in a new tab). */
export const loungePlaceUrl = (pos?: { lat: number; lng: number }) =>
  pos
    ? `https://map.kakao.com/link/map/${encodeURIComponent(LOUNGE.name)},${pos.lat},${pos.lng}`
    : `https://map.kakao.com/link/search/${encodeURIComponent(LOUNGE.address)}`;
