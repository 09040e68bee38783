import { useEffect, useState } from 'react';
import { CustomOverlayMap, Map, MapMarker, useKakaoLoader } from 'react-kakao-maps-sdk';

interface Props {
  appKey: string;
  name: string;
  address: string;
  /** Where the marker goes when geocoding fails (the spec's default Seoul position). */
  fallback: { lat: number; lng: number };
}

/** The lounge map; without a key, or when the SDK cannot load, a readable address card instead. */
export default function LoungeMap(props: Props) {
  return props.appKey ? <KakaoLoungeMap {...props} /> : <AddressCard {...props} />;
}

function AddressCard({ name, address }: Pick<Props, 'name' | 'address'>) {
  return (
    <div className="flex h-full flex-col items-center justify-center border border-white/15 bg-[radial-gradient(circle_at_50%_40%,var(--color-gold-haze),transparent_60%)] p-8 text-center" data-testid="lounge-address-card">
      <svg width="36" height="36" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.4" className="text-gold" aria-hidden="true">
        <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21Z" />
        <circle cx="12" cy="9.5" r="2.5" />
      </svg>
      <p className="mt-4 font-serif text-xl text-paper">{name}</p>
      <p className="mt-2 text-sm text-paper/75">{address}</p>
    </div>
  );
}

function KakaoLoungeMap({ appKey, name, address, fallback }: Props) {
  const [loading, error] = useKakaoLoader({ appkey: appKey, libraries: ['services'], url: 'https://dapi.kakao.com/v2/maps/sdk.js' });
  const [position, setPosition] = useState<{ lat: number; lng: number } | null>(null);

  useEffect(() => {
    if (loading || error) return;
    const geocoder = new kakao.maps.services.Geocoder();
    geocoder.addressSearch(address, (result, status) => {
      const found = status === kakao.maps.services.Status.OK && result[0];
      setPosition(found ? { lat: Number(found.y), lng: Number(found.x) } : fallback);
    });
  }, [loading, error, address, fallback]);

  if (error) return <AddressCard name={name} address={address} />;
  if (loading || !position) {
    return <div className="h-full animate-pulse bg-white/5" role="status" aria-label="지도를 불러오는 중" />;
  }
  return (
    <div className="h-full w-full" data-testid="lounge-map" data-lat={position.lat} data-lng={position.lng}>
      <Map center={position} level={3} scrollwheel={false} style={{ width: '100%', height: '100%' }}>
        <MapMarker position={position} title={name} />
        <CustomOverlayMap position={position} yAnchor={2.4}>
          <div className="whitespace-nowrap bg-ink px-3 py-1.5 text-xs font-semibold text-paper shadow-lg">{name}</div>
        </CustomOverlayMap>
      </Map>
    </div>
  );
}
