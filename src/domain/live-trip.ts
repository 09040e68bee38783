/**
 * What the customer's live trip page says of the driver's last shared position: the nearest
 * landmark instead of raw coordinates, how long ago it was shared, and, on the way to the pickup,
 * a rough arrival estimate. Pure: the caller gives the positions and the elapsed time.
 */

import { durationText } from './dates';

export interface LatLng {
  lat: number;
  lng: number;
}

interface Landmark extends LatLng {
  name: string;
  /** Words a pickup address is recognised by (the name itself always counts). */
  aliases?: string[];
}

/** Places a Seoul-area customer knows by name: airports, stations, hotels, districts. */
const LANDMARKS: readonly Landmark[] = [
  { name: '인천국제공항 제1여객터미널', lat: 37.4492, lng: 126.451, aliases: ['인천공항 T1', '인천공항 제1터미널', '인천국제공항 T1', '인천국제공항 제1터미널'] },
  { name: '인천국제공항 제2여객터미널', lat: 37.4686, lng: 126.433, aliases: ['인천공항 T2', '인천공항 제2터미널', '인천국제공항 T2', '인천국제공항 제2터미널'] },
  { name: '김포국제공항', lat: 37.5587, lng: 126.7945, aliases: ['김포공항'] },
  { name: '서울역', lat: 37.5547, lng: 126.9707 },
  { name: '용산역', lat: 37.5298, lng: 126.9648 },
  { name: '수서역', lat: 37.4873, lng: 127.1017 },
  { name: '광명역', lat: 37.4163, lng: 126.8848 },
  { name: '강남역', lat: 37.4979, lng: 127.0276 },
  { name: '코엑스', lat: 37.5116, lng: 127.0595, aliases: ['COEX'] },
  { name: '롯데월드타워', lat: 37.5126, lng: 127.1025 },
  { name: '잠실종합운동장', lat: 37.515, lng: 127.073 },
  { name: '여의도 IFC', lat: 37.5251, lng: 126.9255, aliases: ['IFC몰', '여의도IFC'] },
  { name: '광화문광장', lat: 37.5725, lng: 126.9769, aliases: ['광화문'] },
  { name: '서울시청', lat: 37.5663, lng: 126.9779 },
  { name: '명동', lat: 37.5637, lng: 126.9838 },
  { name: '청담사거리', lat: 37.5253, lng: 127.049, aliases: ['청담동'] },
  { name: '압구정로데오', lat: 37.5274, lng: 127.0405 },
  { name: '한남오거리', lat: 37.5347, lng: 127.0008, aliases: ['한남동'] },
  { name: '서울신라호텔', lat: 37.5558, lng: 127.0056, aliases: ['신라호텔'] },
  { name: '그랜드 하얏트 서울', lat: 37.5395, lng: 126.9975, aliases: ['그랜드하얏트'] },
  { name: '서울고속버스터미널', lat: 37.5049, lng: 127.0049, aliases: ['고속터미널'] },
  { name: '서울숲', lat: 37.5444, lng: 127.0374, aliases: ['성수동'] },
  { name: '판교역', lat: 37.3948, lng: 127.1112, aliases: ['판교'] },
  { name: '송도컨벤시아', lat: 37.3886, lng: 126.6434 },
];

/** Farther than this from every landmark, no landmark is named. */
const LANDMARK_RADIUS_M = 3_000;
/** Roads are longer than the straight line; this factor turns one into the other (a city average). */
const ROAD_FACTOR = 1.3;
/** Average speeds (km/h): within the city, and for the part of a trip beyond CITY_KM (expressways). */
const CITY_KMH = 25;
const HIGHWAY_KMH = 60;
const CITY_KM = 10;

const EARTH_M = 6_371_000;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres. */
export function distanceMeters(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.sqrt(h));
}

/** The nearest landmark within LANDMARK_RADIUS_M, with its distance, or null. */
export function nearestLandmark(p: LatLng): { name: string; meters: number } | null {
  let best: { name: string; meters: number } | null = null;
  for (const l of LANDMARKS) {
    const meters = distanceMeters(p, l);
    if (meters <= LANDMARK_RADIUS_M && (!best || meters < best.meters)) best = { name: l.name, meters };
  }
  return best;
}

/** "서울역 근처 (약 300m)" / "코엑스 근처 (약 1.2km)", or null when no landmark is near. */
export function landmarkText(p: LatLng): string | null {
  const near = nearestLandmark(p);
  if (!near) return null;
  if (near.meters < 100) return `${near.name} 앞`;
  const far = near.meters < 1_000 ? `${Math.round(near.meters / 100) * 100}m` : `${(Math.round(near.meters / 100) / 10).toFixed(1)}km`;
  return `${near.name} 근처 (약 ${far})`;
}

/** The landmark an address names (the longest name or alias found in it), as a point to estimate to. */
export function landmarkOfAddress(address: string): LatLng | null {
  const text = address.replace(/\s+/g, '').toUpperCase();
  let best: { point: LatLng; length: number } | null = null;
  for (const l of LANDMARKS) {
    for (const word of [l.name, ...(l.aliases ?? [])]) {
      const w = word.replace(/\s+/g, '').toUpperCase();
      if (text.includes(w) && (!best || w.length > best.length)) best = { point: { lat: l.lat, lng: l.lng }, length: w.length };
    }
  }
  return best?.point ?? null;
}

/** Minutes to drive from `from` to `to` by the averages above (at least 1). */
export function etaMinutes(from: LatLng, to: LatLng): number {
  const km = (distanceMeters(from, to) / 1_000) * ROAD_FACTOR;
  const hours = Math.min(km, CITY_KM) / CITY_KMH + Math.max(0, km - CITY_KM) / HIGHWAY_KMH;
  return Math.max(1, Math.round(hours * 60));
}

/** "픽업 장소까지 약 25분" (or 1시간 10분), said as the estimate it is. */
export function etaText(minutes: number): string {
  return `픽업 장소까지 약 ${durationText(minutes)} (교통 상황에 따라 달라질 수 있습니다)`;
}
