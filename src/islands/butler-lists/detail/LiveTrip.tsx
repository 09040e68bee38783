import { useEffect, useState } from 'react';
import { Map, MapMarker, useKakaoLoader } from 'react-kakao-maps-sdk';
import { call, client } from '../../../client/api';
import { KAKAO } from '../../../config/services';
import { formatKoreaDateTime } from '../../../domain/dates';
import { POSITION_INTERVAL_MS, type TripPositionView } from '../../../domain/driver-day';
import type { ButlerRequestView } from '../../../domain/butler';
import { Section } from './Sections';

/** Stages during which the driver may be sharing a position. */
const LIVE = new Set(['DEPARTED', 'ARRIVED', 'IN_PROGRESS']);

/**
 * The live part of the trip page: while the driver is on the way or driving (출발 → 운행 종료) the
 * page asks every few seconds for the stage and the driver's last shared position, and shows it
 * on a Kakao map (with PUBLIC_KAKAO_MAP_KEY) or as text with its time.
 */
export default function LiveTrip({ r, reload }: { r: ButlerRequestView; reload: () => Promise<unknown> }) {
  const live = LIVE.has(r.stage);
  const [position, setPosition] = useState<TripPositionView | null>(null);
  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const tick = async () => {
      const p = await call((o) => client.butlers.requests[':id'].position.$get({ param: { id: String(r.id) } }, o));
      if (!stopped && p.ok) setPosition(p.data.position);
    };
    void tick();
    const timer = setInterval(() => void tick().then(() => reload()), POSITION_INTERVAL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [live, r.id, reload]);
  if (!live) return null;
  return (
    <Section id="detail-live" title="기사님 위치">
      {position ? (
        <div className="space-y-2" data-testid="live-position">
          {KAKAO.mapKey && <LiveMap appKey={KAKAO.mapKey} position={position} />}
          <p className="text-sm">
            위도 {position.lat.toFixed(5)}, 경도 {position.lng.toFixed(5)}
            <span className="text-muted"> · {formatKoreaDateTime(position.recorded_at)} 기준</span>
          </p>
          <a className="inline-flex min-h-11 items-center text-sm underline" href={`https://map.kakao.com/link/map/기사님 위치,${position.lat},${position.lng}`} target="_blank" rel="noopener">카카오맵에서 보기</a>
        </div>
      ) : (
        <p className="text-sm text-muted" data-testid="live-position-none">기사님 휴대폰에서 위치를 공유하면 이곳에 표시됩니다.</p>
      )}
    </Section>
  );
}

function LiveMap({ appKey, position }: { appKey: string; position: TripPositionView }) {
  const [loading, error] = useKakaoLoader({ appkey: appKey, url: 'https://dapi.kakao.com/v2/maps/sdk.js' });
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
