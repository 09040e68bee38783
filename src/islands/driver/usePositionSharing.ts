import { useEffect, useState } from 'react';
import { call, client } from '../../client/api';
import { POSITION_INTERVAL_MS } from '../../domain/driver-day';

/**
 * While the page is open during an active trip (출발 tapped, 운행 종료 not), shares the browser's
 * position with the trip's customer: the latest fix, at most once every POSITION_INTERVAL_MS.
 * Nothing is shared without a trip, when the driver refuses the permission, or once the page closes.
 * Answers a line saying what is happening.
 */
export function usePositionSharing(tripId: number | null): string {
  const [status, setStatus] = useState('');
  useEffect(() => {
    if (tripId === null) return;
    if (!('geolocation' in navigator)) {
      setStatus('이 브라우저는 위치를 공유할 수 없습니다.');
      return;
    }
    let latest: GeolocationPosition | null = null;
    let sentAt = 0;
    let stopped = false;
    const post = async () => {
      if (!latest || stopped) return;
      const { latitude: lat, longitude: lng, accuracy } = latest.coords;
      latest = null;
      sentAt = Date.now();
      const r = await call((o) => client.driver.trips[':id'].position.$post({ param: { id: String(tripId) }, json: { lat, lng, accuracy: Number.isFinite(accuracy) ? accuracy : null } }, o));
      if (!stopped) setStatus(r.ok ? `위치 공유 중 · ${new Date(r.data.recorded_at).toLocaleTimeString('ko-KR', { timeZone: 'Asia/Seoul', hour: '2-digit', minute: '2-digit', second: '2-digit' })}` : r.error.message);
    };
    setStatus('위치 공유를 준비하는 중...');
    const watch = navigator.geolocation.watchPosition(
      (p) => {
        latest = p;
        if (Date.now() - sentAt >= POSITION_INTERVAL_MS) void post();
      },
      () => setStatus('위치 권한이 없어 고객에게 위치를 공유하지 않습니다.'),
      { enableHighAccuracy: true, maximumAge: POSITION_INTERVAL_MS },
    );
    const timer = setInterval(() => {
      if (latest) void post();
      else navigator.geolocation.getCurrentPosition((p) => { latest = p; void post(); }, () => undefined, { maximumAge: POSITION_INTERVAL_MS });
    }, POSITION_INTERVAL_MS);
    return () => {
      stopped = true;
      navigator.geolocation.clearWatch(watch);
      clearInterval(timer);
    };
  }, [tripId]);
  return status;
}
