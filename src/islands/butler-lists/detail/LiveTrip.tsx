import { useEffect, useState } from 'react';
import { Map, MapMarker, useKakaoLoader } from 'react-kakao-maps-sdk';
import { call, client } from '../../../client/api';
import { KAKAO } from '../../../config/services';
import { agoText, formatKoreaDateTime } from '../../../domain/dates';
import { POSITION_INTERVAL_MS, type TripPositionView } from '../../../domain/driver-day';
import { etaMinutes, etaText, landmarkOfAddress, landmarkText, type LatLng } from '../../../domain/live-trip';
import type { ButlerRequestView } from '../../../domain/butler';
import { Section } from './Sections';

/** Stages during which the driver may be sharing a position. */
const LIVE = new Set(['DEPARTED', 'ARRIVED', 'IN_PROGRESS']);

/**
 * The live part of the trip page: while the driver is on the way or driving (출발 → 운행 종료) the
 * page asks every few seconds for the stage and the driver's last shared position, and shows it
 * on a Kakao map (with PUBLIC_KAKAO_MAP_KEY) or as text with its time.
 */
/** The last answer: the position and the business clock's now, and when (performance.now) it arrived. */
interface Seen {
  position: TripPositionView | null;
  serverNow: number;
  receivedAt: number;
}

/** Seconds since the position was shared, by the server's clock advanced by the time since its answer. */
function secondsAgo(seen: Seen, at: number): number {
  if (!seen.position) return 0;
  return (seen.serverNow - Date.parse(seen.position.recorded_at) + (at - seen.receivedAt)) / 1_000;
}

/**
 * The live part of the trip page: while the driver is on the way or driving (출발 → 운행 종료) the
 * page asks every few seconds for the stage and the driver's last shared position, and says where
 * it is (a Kakao map with PUBLIC_KAKAO_MAP_KEY, and the nearest landmark in words), how many
 * seconds ago it was shared, and on the way to the pickup a rough arrival estimate.
 */
export default function LiveTrip({ r, reload }: { r: ButlerRequestView; reload: () => Promise<unknown> }) {
  const live = LIVE.has(r.stage);
  const [seen, setSeen] = useState<Seen | null>(null);
  const [tick, setTick] = useState(() => performance.now());
  // Where the pickup is, to estimate the arrival: a landmark its address names, else the map's geocoder.
  const [geocoded, setGeocoded] = useState<LatLng | null>(null);
  const pickup = landmarkOfAddress(r.start_location) ?? geocoded;
  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const fetchPosition = async () => {
      const p = await call((o) => client.butlers.requests[':id'].position.$get({ param: { id: String(r.id) } }, o));
      if (!stopped && p.ok) setSeen({ position: p.data.position, serverNow: Date.parse(p.data.now), receivedAt: performance.now() });
    };
    void fetchPosition();
    const timer = setInterval(() => void fetchPosition().then(() => reload()), POSITION_INTERVAL_MS);
    // "N초 전" moves on between answers.
    const clock = setInterval(() => setTick(performance.now()), 1_000);
    return () => {
      stopped = true;
      clearInterval(timer);
      clearInterval(clock);
    };
  }, [live, r.id, reload]);
  if (!live) return null;
  const position = seen?.position ?? null;
  const place = position ? landmarkText(position) : null;
  return (
    <Section id="detail-live" title="기사님 위치">
      {position && seen ? (
        <div className="space-y-2" data-testid="live-position">
          {KAKAO.mapKey && <LiveMap appKey={KAKAO.mapKey} position={position} geocode={!pickup && r.stage === 'DEPARTED' ? r.start_location : null} onGeocoded={setGeocoded} />}
          <p className="text-sm">
            <span data-testid="live-place">{place ?? '지도에서 위치를 확인해주세요'}</span>
            <span className="text-muted" data-testid="live-ago" title={`${formatKoreaDateTime(position.recorded_at)} 기준`}>
              {' '}· {agoText(secondsAgo(seen, tick))} 공유
            </span>
          </p>
          {pickup && r.stage === 'DEPARTED' && (
            <p className="text-sm font-semibold" data-testid="live-eta">
              {etaText(etaMinutes(position, pickup))}
            </p>
          )}
          <a className="inline-flex min-h-11 items-center text-sm underline" href={`https://map.kakao.com/link/map/기사님 위치,${position.lat},${position.lng}`} target="_blank" rel="noopener">카카오맵에서 보기</a>
        </div>
      ) : (
        <p className="text-sm text-muted" data-testid="live-position-none">기사님 휴대폰에서 위치를 공유하면 이곳에 표시됩니다.</p>
      )}
    </Section>
  );
}

/** The map, and (when `geocode` names an address) the pickup's point from the Kakao geocoder. */
function LiveMap({ appKey, position, geocode, onGeocoded }: { appKey: string; position: TripPositionView; geocode: string | null; onGeocoded: (p: LatLng) => void }) {
  const [loading, error] = useKakaoLoader({ appkey: appKey, libraries: ['services'], url: 'https://dapi.kakao.com/v2/maps/sdk.js' });
  useEffect(() => {
    if (loading || error || !geocode) return;
    new kakao.maps.services.Geocoder().addressSearch(geocode, (result, status) => {
      const found = status === kakao.maps.services.Status.OK && result[0];
      if (found) onGeocoded({ lat: Number(found.y), lng: Number(found.x) });
    });
  }, [loading, error, geocode, onGeocoded]);
  if (loading || error) return null;
  const center = { lat: position.lat, lng: position.lng };
  return (
    <div className="h-56 w-full" data-testid="live-map">
      <Map center={center} level={4} style={{ width: '100%', height: '100%' }}>
        <MapMarker position={center} title="기사님 위치" />
      </Map>
    </div>
  );
}
